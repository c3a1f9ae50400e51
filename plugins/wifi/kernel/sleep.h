/* sleep.h - hears the system resume from suspend.
 *
 * logind announces a suspend with PrepareForSleep(true) and the resume
 * with PrepareForSleep(false) (org.freedesktop.login1.Manager on the
 * system bus). Without a system bus (a test, a container) nothing is
 * heard, which is logged at debug level.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _WifiSleep WifiSleep;

/* The system has resumed. */
typedef void (*WifiSleepFunc)(gpointer user_data);

/* Listens on the system bus (connection NULL) or on connection. */
WifiSleep *wifi_sleep_new(GDBusConnection *connection, WifiSleepFunc resumed, gpointer user_data);
void wifi_sleep_free(WifiSleep *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiSleep, wifi_sleep_free)

G_END_DECLS
