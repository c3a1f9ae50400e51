/* joind-eap-method.c - the process-wide registry of EAP methods that the
 * method plugins fill from their init(). */
#undef G_LOG_DOMAIN
#define G_LOG_DOMAIN "joind-eap"

#include "joind-eap.h"
#include "joind-error.h"

/* Element type: const JoindEapMethodOps *. Plugins register from the main
 * thread during start-up, sessions look up on the same thread. */
static GPtrArray *eap_methods;

gboolean
joind_eap_register_method(const JoindEapMethodOps *ops, GError **error)
{
	g_return_val_if_fail(ops != NULL && ops->name != NULL, FALSE);
	g_return_val_if_fail(ops->state_new != NULL && ops->state_free != NULL, FALSE);
	g_return_val_if_fail(ops->handle_request != NULL, FALSE);

	if (ops->type <= JOIND_EAP_TYPE_NAK || ops->type == JOIND_EAP_TYPE_EXPANDED) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "EAP type %u cannot be a method", ops->type);
		return FALSE;
	}
	if (joind_eap_find_method(ops->name) != NULL ||
	    joind_eap_find_method_by_type(ops->type) != NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_BUSY,
		            "an EAP method named %s or of type %u is already registered", ops->name,
		            ops->type);
		return FALSE;
	}
	if (eap_methods == NULL)
		eap_methods = g_ptr_array_new();
	g_ptr_array_add(eap_methods, (gpointer)ops);
	g_debug("registered EAP method %s (type %u)", ops->name, ops->type);
	return TRUE;
}

void
joind_eap_unregister_method(const JoindEapMethodOps *ops)
{
	if (eap_methods != NULL && g_ptr_array_remove(eap_methods, (gpointer)ops))
		g_debug("unregistered EAP method %s", ops->name);
}

const JoindEapMethodOps *
joind_eap_find_method(const gchar *name)
{
	if (eap_methods == NULL || name == NULL)
		return NULL;
	for (guint i = 0; i < eap_methods->len; i++) {
		const JoindEapMethodOps *ops = g_ptr_array_index(eap_methods, i);
		if (g_ascii_strcasecmp(ops->name, name) == 0)
			return ops;
	}
	return NULL;
}

const JoindEapMethodOps *
joind_eap_find_method_by_type(guint8 type)
{
	if (eap_methods == NULL)
		return NULL;
	for (guint i = 0; i < eap_methods->len; i++) {
		const JoindEapMethodOps *ops = g_ptr_array_index(eap_methods, i);
		if (ops->type == type)
			return ops;
	}
	return NULL;
}
