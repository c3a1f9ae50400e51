/* joind-dbus-profile.h - net.joind.ProfileManager1 at /net/joind: the
 * profile manager (joind-profile-manager.h) on the bus. Private to the
 * core.
 */
#pragma once

#include <gio/gio.h>

#include "joind-known-state.h"
#include "joind-profile-store.h"

G_BEGIN_DECLS

typedef struct _JoindDBusProfile JoindDBusProfile;

/* Exports the interface on bus at path; store and known must outlive the
 * result. */
JoindDBusProfile *joind_dbus_profile_new(GDBusConnection *bus, const gchar *path,
                                         JoindProfileStore *store, JoindKnownState *known,
                                         GError **error);
/* Unexports it. */
void joind_dbus_profile_free(JoindDBusProfile *self);

G_END_DECLS
