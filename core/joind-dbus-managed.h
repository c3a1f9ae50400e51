/* joind-dbus-managed.h - GetManagedObjects of the core's object manager,
 * answered with the objects a subtree registration serves too. Private to
 * the core.
 *
 * GDBusObjectManagerServer answers GetManagedObjects from the skeletons
 * exported through it and nothing else; objects that are served by a
 * subtree (g_dbus_connection_register_subtree: thousands of known networks
 * without a skeleton each) would be left out. This takes the call over on
 * the manager's connection and answers it with both: every interface of
 * every object the manager holds, then what add puts in.
 */
#pragma once

#include <gio/gio.h>

#include "joind-variant-writer.h"

G_BEGIN_DECLS

typedef struct _JoindDBusManaged JoindDBusManaged;

/* Writes "{oa{sa{sv}}}" entries into objects (an a{oa{sa{sv}}} being
 * written by w), marking the end of each. */
typedef void (*JoindDBusManagedAddFunc)(JoindVariantWriter *w, JoindVariantFrame *objects,
                                        gpointer user_data);

/* manager must have its connection; add runs in the thread-default main
 * context of the caller, with user_data, which must outlive the result. */
JoindDBusManaged *joind_dbus_managed_new(GDBusObjectManagerServer *manager,
                                         JoindDBusManagedAddFunc add, gpointer user_data);
/* Hands GetManagedObjects back to the manager. */
void joind_dbus_managed_free(JoindDBusManaged *self);

G_END_DECLS
