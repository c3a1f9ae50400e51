/* joind-dbus-managed.h - GetManagedObjects of the core's object manager,
 * answered with the objects a subtree registration serves too. Private to
 * the core.
 *
 * GDBusObjectManagerServer answers GetManagedObjects from the skeletons
 * exported through it and nothing else; objects that are served by a
 * subtree (g_dbus_connection_register_subtree: thousands of known networks
 * without a skeleton each) would be left out. This takes the call over on
 * the manager's connection and answers it with both: every interface of
 * every object the manager holds, then what each source adds (known
 * networks; devices, whose skeletons are exported straight on the
 * connection: joind-dbus-object.h).
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

/* manager must have its connection; the answer is written in the
 * thread-default main context of the caller. */
JoindDBusManaged *joind_dbus_managed_new(GDBusObjectManagerServer *manager);
/* Hands GetManagedObjects back to the manager. */
void joind_dbus_managed_free(JoindDBusManaged *self);

/* Each source's add runs, in the order added, after the manager's own
 * objects; user_data must stay until it is removed. */
void joind_dbus_managed_add_source(JoindDBusManaged *self, JoindDBusManagedAddFunc add,
                                   gpointer user_data);
void joind_dbus_managed_remove_source(JoindDBusManaged *self, gconstpointer user_data);
/* The manager's connection, or NULL. */
GDBusConnection *joind_dbus_managed_get_connection(JoindDBusManaged *self);

/* The interfaces of an object and their properties (a{sa{sv}}, floating),
 * as InterfacesAdded and GetManagedObjects carry them. */
GVariant *joind_dbus_managed_interfaces(GDBusInterfaceSkeleton *const *skeletons, guint n);
/* One "{oa{sa{sv}}}" entry of GetManagedObjects, its end marked. */
void joind_dbus_managed_write(JoindVariantWriter *w, JoindVariantFrame *objects, const gchar *path,
                              GDBusInterfaceSkeleton *const *skeletons, guint n);
/* The manager's InterfacesAdded (interfaces: a{sa{sv}}, floating taken)
 * and InterfacesRemoved (n names, or NULL-terminated if n is -1), for
 * objects it does not hold. */
void joind_dbus_managed_emit_added(JoindDBusManaged *self, const gchar *path, GVariant *interfaces);
void joind_dbus_managed_emit_removed(JoindDBusManaged *self, const gchar *path,
                                     const gchar *const *names, gssize n);

G_END_DECLS
