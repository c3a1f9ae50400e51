/* iwd-introspection.h - the interfaces of iwd 2.3's D-Bus API that joind
 * implements, as iwd introspects them.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The interface named name (e.g. "net.connman.iwd.Station"); the table is
 * parsed once and lives as long as the process. NULL for an interface
 * joind does not implement. */
GDBusInterfaceInfo *iwd_introspection_lookup(const gchar *name);

G_END_DECLS
