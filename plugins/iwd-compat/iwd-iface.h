/* iwd-iface.h - one exported interface of the iwd API: a property table
 * whose absent entries are left out (iwd omits optional properties rather
 * than export "/" or ""), and methods and property writes that take the
 * core's authorised call path.
 *
 * Property changes are collected and sent as one PropertiesChanged at the
 * next idle (or before a method's reply: the call path flushes the
 * interface), so properties that change together arrive together.
 */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

#define IWD_TYPE_IFACE (iwd_iface_get_type())
G_DECLARE_FINAL_TYPE(IwdIface, iwd_iface, IWD, IFACE, GDBusInterfaceSkeleton)

/* A method: func runs through the call path with the interface as its
 * target (so a call whose object goes away is answered NotFound). A NULL
 * name ends a table. */
typedef struct {
	const gchar *name;
	JoindCallFunc func;
} IwdMethod;

/* info: the interface's introspection (iwd-introspection.h). methods:
 * a static table or NULL. setter: for Properties.Set of a writable
 * property (the parameters are "(ssv)"), or NULL. model: a GObject the
 * handlers act on (referenced), or NULL. */
IwdIface *iwd_iface_new(GDBusInterfaceInfo *info, const IwdMethod *methods, JoindCallFunc setter,
                        gpointer model);
gpointer iwd_iface_get_model(IwdIface *self);
/* Data for the handlers (not owned; must outlive every call). */
void iwd_iface_set_context(IwdIface *self, gpointer context);
gpointer iwd_iface_get_context(IwdIface *self);

/* Who provisioned the object: "admin" or "user" (the GObject property
 * "source", which the core's gate reads to pick the action a write
 * needs). Unset: "user". */
void iwd_iface_set_source(IwdIface *self, const gchar *source);

/* Sets a property (value: floating taken, or NULL to leave it out); a
 * change is signalled, an equal value is not. */
void iwd_iface_set(IwdIface *self, const gchar *name, GVariant *value);
/* The value, NULL when absent. */
GVariant *iwd_iface_get(IwdIface *self, const gchar *name);

G_END_DECLS
