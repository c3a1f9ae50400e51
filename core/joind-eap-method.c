/* joind-eap-method.c - the process-wide registry of EAP methods that the
 * method plugins fill from their init(). */
#undef G_LOG_DOMAIN
#define G_LOG_DOMAIN "joind-eap"

#include "joind-eap-method.h"

#include <string.h>

#include "joind-error.h"

/* Element type: const JoindEapMethodOps *. Plugins register from the main
 * thread during start-up, sessions look up on the same thread. */
static GPtrArray *eap_methods;

/* Methods of plugins not opened yet (element type Declared). */
typedef struct {
	gchar *name;
	guint8 type;
	JoindEapMethodLoadFunc load;
	gpointer data;
} Declared;
static GArray *eap_declared;

static void
declared_clear(gpointer p)
{
	g_free(((Declared *)p)->name);
}

void
joind_eap_declare_method(const gchar *name, guint8 type, JoindEapMethodLoadFunc load, gpointer data)
{
	Declared d = {g_strdup(name), type, load, data};

	if (eap_declared == NULL) {
		eap_declared = g_array_new(FALSE, FALSE, sizeof(Declared));
		g_array_set_clear_func(eap_declared, declared_clear);
	}
	g_array_append_val(eap_declared, d);
}

void
joind_eap_forget_declared(gconstpointer data)
{
	for (guint i = eap_declared != NULL ? eap_declared->len : 0; i > 0; i--) {
		if (g_array_index(eap_declared, Declared, i - 1).data == data)
			g_array_remove_index(eap_declared, i - 1);
	}
}

/* Opens the plugin that declared a method of this name (or, with name NULL,
 * this type); TRUE when there was one to open. */
static gboolean
eap_load_declared(const gchar *name, guint8 type)
{
	for (guint i = 0; eap_declared != NULL && i < eap_declared->len; i++) {
		Declared *d = &g_array_index(eap_declared, Declared, i);
		JoindEapMethodLoadFunc load = d->load;
		gpointer data = d->data;

		if (name != NULL ? g_ascii_strcasecmp(d->name, name) != 0 : d->type != type)
			continue;
		/* Forgotten first: the plugin's init() registers the real ones. */
		joind_eap_forget_declared(data);
		load(data);
		return TRUE;
	}
	return FALSE;
}

static const JoindEapMethodOps *
eap_find_registered(const gchar *name, guint8 type)
{
	for (guint i = 0; eap_methods != NULL && i < eap_methods->len; i++) {
		const JoindEapMethodOps *ops = g_ptr_array_index(eap_methods, i);

		if (name != NULL ? g_ascii_strcasecmp(ops->name, name) == 0 : ops->type == type)
			return ops;
	}
	return NULL;
}

/* A registered method, or one whose plugin is opened for it now. */
static const JoindEapMethodOps *
eap_find(const gchar *name, guint8 type)
{
	const JoindEapMethodOps *ops = eap_find_registered(name, type);

	if (ops == NULL && eap_load_declared(name, type))
		ops = eap_find_registered(name, type);
	return ops;
}

const JoindEapMethodOps *
joind_eap_find_method(const gchar *name)
{
	return name != NULL ? eap_find(name, 0) : NULL;
}

const JoindEapMethodOps *
joind_eap_find_method_by_type(guint8 type)
{
	return eap_find(NULL, type);
}

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
	if (eap_find_registered(ops->name, 0) != NULL ||
	    eap_find_registered(NULL, ops->type) != NULL) {
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

/* "MD5, TLS, ...": what the plugins provide, for sentences. */
static gchar *
eap_methods_available(guint32 need)
{
	g_autoptr(GString) names = g_string_new(NULL);

	for (guint i = 0; eap_methods != NULL && i < eap_methods->len; i++) {
		const JoindEapMethodOps *ops = g_ptr_array_index(eap_methods, i);

		if ((ops->flags & need) == 0)
			continue;
		if (names->len > 0)
			g_string_append(names, ", ");
		g_string_append(names, ops->name);
	}
	/* Not opened yet; whether inside or outside a tunnel is its own say. */
	for (guint i = 0; eap_declared != NULL && i < eap_declared->len; i++) {
		if (names->len > 0)
			g_string_append(names, ", ");
		g_string_append(names, g_array_index(eap_declared, Declared, i).name);
	}
	return g_strdup(names->len > 0 ? names->str : "none");
}

static const JoindEapMethodOps *
eap_method_usable(const gchar *name, const gchar *where, guint32 need, GError **error)
{
	const JoindEapMethodOps *ops = joind_eap_find_method(name);
	g_autofree gchar *available = NULL;

	if (ops == NULL) {
		available = eap_methods_available(need);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: EAP method %s is not available: no loaded plugin provides it "
		            "(available: %s)",
		            where, name, available);
		return NULL;
	}
	if ((ops->flags & need) == 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: EAP method %s cannot be used %s a tunnel", where, ops->name,
		            need == JOIND_EAP_METHOD_FLAG_INNER ? "inside" : "outside");
		return NULL;
	}
	return ops;
}

GPtrArray *
joind_eap_methods_parse(const gchar *setting, const gchar *where, guint32 need, GError **error)
{
	g_autoptr(GPtrArray) methods = g_ptr_array_new();
	g_auto(GStrv) names = NULL;

	if (setting == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s is missing: the profile names no EAP method", where);
		return NULL;
	}
	names = g_strsplit_set(setting, ",; ", -1);
	for (guint i = 0; names[i] != NULL; i++) {
		const JoindEapMethodOps *ops;

		if (*names[i] == '\0')
			continue;
		ops = eap_method_usable(names[i], where, need, error);
		if (ops == NULL)
			return NULL;
		g_ptr_array_add(methods, (gpointer)ops);
	}
	if (methods->len == 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s is empty: the profile names no EAP method", where);
		return NULL;
	}
	return g_steal_pointer(&methods);
}

gboolean
joind_eap_check_profile(JoindProfile *profile, const gchar *prefix, GError **error)
{
	g_autofree gchar *key = g_strconcat(prefix, "Method", NULL);
	g_autofree gchar *setting = joind_profile_get_string(profile, "Security", key);
	g_autofree gchar *where = joind_profile_describe_key(profile, "Security", key);
	guint32 need = g_str_equal(prefix, "EAP-") ? JOIND_EAP_METHOD_FLAG_OUTER
	                                           : JOIND_EAP_METHOD_FLAG_INNER;
	g_autoptr(GPtrArray) methods = joind_eap_methods_parse(setting, where, need, error);

	if (methods == NULL)
		return FALSE;
	for (guint i = 0; i < methods->len; i++) {
		const JoindEapMethodOps *ops = g_ptr_array_index(methods, i);

		if (ops->check_profile != NULL && !ops->check_profile(profile, prefix, error))
			return FALSE;
	}
	return TRUE;
}

/* ---- the EAP keys of a profile ---- */

/* What every method may read under its prefix. */
static const gchar *const eap_method_keys[] = {"Method", "Identity", "Password", "Password-Hash",
                                               NULL};
/* The TLS-based methods' keys, under <prefix>TLS-, PEAP- and TTLS-. */
static const gchar *const eap_tls_keys[] = {"CACert",
                                            "SystemCA",
                                            "ServerKeyPin",
                                            "ServerDomainMask",
                                            "ClientCert",
                                            "ClientKey",
                                            "ClientKeyBundle",
                                            "ClientKeyPassphrase",
                                            "FastReauthentication",
                                            "Version-Min",
                                            "Version-Max",
                                            NULL};
/* Tunnels nest at most this deep in a profile (iwd allows no more). */
#define EAP_KEY_MAX_TUNNELS 2

static gboolean
eap_tls_key_is_known(const gchar **rest, gboolean *tunnel)
{
	static const gchar *const methods[] = {"TLS-", "PEAP-", "TTLS-", NULL};

	*tunnel = FALSE;
	for (guint i = 0; methods[i] != NULL; i++) {
		const gchar *sub;

		if (!g_str_has_prefix(*rest, methods[i]))
			continue;
		sub = *rest + strlen(methods[i]);
		if (g_strv_contains(eap_tls_keys, sub))
			return TRUE;
		if (i > 0 && g_str_has_prefix(sub, "Phase2-")) {
			*rest = sub + strlen("Phase2-");
			*tunnel = TRUE;
		}
		return FALSE;
	}
	return FALSE;
}

gboolean
joind_eap_key_is_known(const gchar *key)
{
	const gchar *rest;

	if (!g_str_has_prefix(key, "EAP-"))
		return FALSE;
	rest = key + strlen("EAP-");
	if (strcmp(rest, "RememberCredentials") == 0)
		return TRUE;
	for (guint depth = 0; depth <= EAP_KEY_MAX_TUNNELS; depth++) {
		gboolean tunnel = FALSE;

		if (g_strv_contains(eap_method_keys, rest) || eap_tls_key_is_known(&rest, &tunnel))
			return TRUE;
		if (!tunnel)
			return FALSE;
	}
	return FALSE;
}
