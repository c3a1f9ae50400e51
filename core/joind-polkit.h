/* joind-polkit.h - asking polkit whether a D-Bus caller may do an action.
 *
 * The question is org.freedesktop.PolicyKit1.Authority.CheckAuthorization
 * over D-Bus, the caller named by its unique bus name. polkitd is
 * D-Bus-activated and often not running yet at boot: asking starts it.
 * Only when org.freedesktop.PolicyKit1 is neither owned nor activatable is
 * polkit taken to be absent (said once in the log); that finding is kept,
 * so that the callers' fallback costs no round trip, until the name
 * appears on the bus. polkit is asked on one connection, whichever
 * connection a call came in on (the core's and the iwd front end's reach
 * the same bus), so that neither front end's calls disturb the checks the
 * other's wait for. Private to the core: its one caller is the gate
 * (joind-auth.h).
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
	JOIND_POLKIT_ABSENT, /* polkit is not installed: the caller decides alone */
	JOIND_POLKIT_AUTHORIZED,
	JOIND_POLKIT_NOT_AUTHORIZED,
	/* Authentication would authorise the caller, but the call did not
	 * allow interaction or no agent could ask. */
	JOIND_POLKIT_CHALLENGE,
} JoindPolkitAnswer;

/* Asks whether sender (a unique name on bus) may do action; interactive:
 * polkit may ask the person behind sender to authenticate, which takes as
 * long as they do. */
void joind_polkit_check_async(GDBusConnection *bus, const gchar *sender, const gchar *action,
                              gboolean interactive, GAsyncReadyCallback callback,
                              gpointer user_data);
/* The answer, or -1 with error set when polkit could not be asked. */
JoindPolkitAnswer joind_polkit_check_finish(GAsyncResult *result, GError **error);

G_END_DECLS
