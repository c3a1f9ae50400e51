/* joind-dbus-object.h - an object of interface skeletons exported straight
 * on the connection, announced through the core's object manager
 * (joind-dbus-managed.h). Private to the core.
 *
 * For objects there may be hundreds of (one per network device): through
 * GDBusObjectManagerServer each costs a GDBusObjectSkeleton, the manager's
 * record and three signal handlers, about 1 KiB of heap more
 * (bench/footprint). Here an object is its path and its skeletons;
 * InterfacesAdded, InterfacesRemoved and GetManagedObjects say what the
 * manager would say of it.
 */
#pragma once

#include <gio/gio.h>

#include "joind-dbus-managed.h"

G_BEGIN_DECLS

typedef struct _JoindDBusObject JoindDBusObject;

/* Nothing is announced before joind_dbus_object_announce(). */
JoindDBusObject *joind_dbus_object_new(JoindDBusManaged *managed, const gchar *path);
/* One InterfacesRemoved for every interface announced, and every
 * skeleton unexported and dropped (removing one later does nothing). */
void joind_dbus_object_withdraw(JoindDBusObject *self);
/* Withdraws it first. */
void joind_dbus_object_free(JoindDBusObject *self);

const gchar *joind_dbus_object_get_path(JoindDBusObject *self);
/* Exports skeleton at the object's path (it replaces one of the same
 * interface); once announced, with an InterfacesAdded of its own. */
void joind_dbus_object_add(JoindDBusObject *self, GDBusInterfaceSkeleton *skeleton);
/* Unexports skeleton; once announced, with InterfacesRemoved. */
void joind_dbus_object_remove(JoindDBusObject *self, GDBusInterfaceSkeleton *skeleton);
/* One InterfacesAdded with every interface added so far. */
void joind_dbus_object_announce(JoindDBusObject *self);
/* The object's GetManagedObjects entry. */
void joind_dbus_object_write(JoindDBusObject *self, JoindVariantWriter *w,
                             JoindVariantFrame *objects);

G_END_DECLS
