/* joind-dbus-known.h - net.joind.KnownNetwork1 objects, one per network
 * profile (open, psk, 8021x) in the profile store, at
 * /net/joind/known/<ssid-hex>_<type>. Private to the core.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "joind-core.h"
#include "joind-dbus-managed.h"
#include "joind-known-state.h"
#include "joind-profile-store.h"

G_BEGIN_DECLS

typedef struct _JoindDBusKnown JoindDBusKnown;

/* The object path of a network profile's KnownNetwork1 object; "/" for a
 * wired profile (Network1.KnownNetwork says "/" for "none" too). */
gchar *joind_dbus_known_path(JoindProfile *profile);

/* Exports an object for every network profile the core holds now; core
 * and state must outlive the result. ProfileError follows store. */
JoindDBusKnown *joind_dbus_known_new(JoindDBusManaged *managed, JoindCore *core,
                                     JoindKnownState *state, JoindProfileStore *store);
/* Unexports every object. */
void joind_dbus_known_free(JoindDBusKnown *self);
/* Follows the profile store: objects appear, change and vanish. */
void joind_dbus_known_profile_changed(JoindDBusKnown *self, JoindProfile *profile,
                                      JoindProfileChange change);
/* The state of this network changed (LastConnectedTime, Source). */
void joind_dbus_known_refresh(JoindDBusKnown *self, const guint8 *ssid, gsize ssid_len,
                              JoindProfileType type);
/* Adds "known_networks": [...] to the object b is building (no secrets). */
void joind_dbus_known_add_diagnostics(JoindDBusKnown *self, JsonBuilder *b);

G_END_DECLS
