/* manager.h - discovers radios and station interfaces and follows them as
 * they come and go (hwsim radios, USB sticks). */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct _WifiManager WifiManager;

/* Fails only when the kernel has no nl80211 at all. */
WifiManager *wifi_manager_new(JoindCore *core, GError **error);
void wifi_manager_free(WifiManager *self);

/* Does [General] Interfaces= / BlacklistInterfaces= let joind manage it? */
gboolean wifi_interface_allowed(const gchar *const *allow, const gchar *const *deny,
                                const gchar *ifname);

G_END_DECLS
