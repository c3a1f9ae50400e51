/* eap-config-profile.c - an eap-config method as the settings of a joind
 * 802.1X profile, in iwd's keys (iwd.network(5)):
 *
 *   PEAP  EAP-Method=PEAP, EAP-Identity (the outer identity),
 *         EAP-PEAP-CACert (embedded PEM), EAP-PEAP-ServerDomainMask,
 *         EAP-PEAP-Phase2-Method=MSCHAPV2|GTC, -Phase2-Identity, -Phase2-Password
 *   TTLS  the same under EAP-TTLS-, Phase2-Method Tunneled-PAP, Tunneled-MSCHAP,
 *         Tunneled-MSCHAPv2, MSCHAPV2, GTC or MD5
 *   TLS   EAP-TLS-CACert, -ServerDomainMask, -ClientCert, -ClientKey (embedded)
 *   PWD   EAP-Identity, EAP-Password
 *
 * The ServerIDs become the domain mask (";" between names). A file with
 * server names and no CA gets SystemCA=true: joind then trusts the
 * system's CAs for exactly those names; with neither, the profile is left
 * for the daemon to refuse, saying why.
 */
#include "eap-config-profile.h"

#include <string.h>

gboolean
eap_config_method_uses_password(const EapConfigMethod *method)
{
	return method->eap_type != EAP_CONFIG_EAP_TLS;
}

gboolean
eap_config_check_username(const EapConfigMethod *method, const gchar *username, GError **error)
{
	const gchar *suffix = method->inner_identity_suffix;
	g_autofree gchar *wanted = NULL;

	if (!method->inner_identity_hint || suffix == NULL || *suffix == '\0')
		return TRUE;
	wanted = g_strconcat("@", suffix, NULL);
	if (g_str_has_suffix(username, wanted) && strlen(username) > strlen(wanted))
		return TRUE;
	g_set_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID,
	            "the provider expects a user name of the form user%s", wanted);
	return FALSE;
}

static const gchar *
phase2_method(const EapConfigMethod *m)
{
	switch (m->inner_non_eap_type) {
	case EAP_CONFIG_NON_EAP_PAP:
		return "Tunneled-PAP";
	case EAP_CONFIG_NON_EAP_MSCHAP:
		return "Tunneled-MSCHAP";
	case EAP_CONFIG_NON_EAP_MSCHAPV2:
		return "Tunneled-MSCHAPv2";
	default:
		break;
	}
	switch (m->inner_eap_type) {
	case EAP_CONFIG_EAP_GTC:
		return "GTC";
	case EAP_CONFIG_EAP_MD5:
		return "MD5";
	default:
		return "MSCHAPV2";
	}
}

static const gchar *
method_key(const EapConfigMethod *m)
{
	switch (m->eap_type) {
	case EAP_CONFIG_EAP_PEAP:
		return "PEAP";
	case EAP_CONFIG_EAP_TTLS:
		return "TTLS";
	case EAP_CONFIG_EAP_TLS:
		return "TLS";
	default:
		return "PWD";
	}
}

static void
put(GVariantDict *dict, const gchar *prefix, const gchar *key, GVariant *value)
{
	g_autofree gchar *name = g_strconcat("Security.EAP-", prefix, key, NULL);

	g_variant_dict_insert_value(dict, name, value);
}

static GVariant *
pem_bytes(const gchar *pem)
{
	return g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, pem, strlen(pem), 1);
}

/* eduroam CAT and geteduroam mean a ServerID as a domain suffix, as
 * NetworkManager (domain-suffix-match), Android and wpa_supplicant take
 * it: "uol.de" vouches for radius.uol.de too. A ServerDomainMask names
 * one name exactly, so each ID becomes "ID;*.ID" (a leading "*" takes any
 * number of labels). */
static gchar *
server_mask(GPtrArray *server_ids)
{
	GString *mask = g_string_new(NULL);

	for (guint i = 0; i < server_ids->len; i++) {
		const gchar *id = g_ptr_array_index(server_ids, i);

		if (mask->len > 0)
			g_string_append_c(mask, ';');
		if (g_str_has_prefix(id, "*."))
			g_string_append(mask, id);
		else
			g_string_append_printf(mask, "%s;*.%s", id, id);
	}
	return g_string_free(mask, FALSE);
}

/* CACert, SystemCA and ServerDomainMask under EAP-<M>-. */
static void
put_server_trust(GVariantDict *dict, const gchar *m, const EapConfigMethod *method,
                 const EapConfigCredentials *c)
{
	if (c->ca_pem != NULL)
		put(dict, m, "-CACert", pem_bytes(c->ca_pem));
	if (method->server_ids->len > 0) {
		g_autofree gchar *mask = server_mask(method->server_ids);

		put(dict, m, "-ServerDomainMask", g_variant_new_string(mask));
		if (c->ca_pem == NULL)
			put(dict, m, "-SystemCA", g_variant_new_boolean(TRUE));
	}
}

GVariant *
eap_config_profile_settings(const EapConfigMethod *method, const EapConfigCredentials *c)
{
	const gchar *m = method_key(method);
	const gchar *outer = method->outer_identity != NULL ? method->outer_identity : c->username;
	GVariantDict dict;

	g_variant_dict_init(&dict, NULL);
	put(&dict, "", "Method", g_variant_new_string(m));
	if (method->eap_type == EAP_CONFIG_EAP_PWD) {
		put(&dict, "", "Identity", g_variant_new_string(c->username));
		put(&dict, "", "Password", g_variant_new_string(c->password));
		return g_variant_dict_end(&dict);
	}
	put_server_trust(&dict, m, method, c);
	if (method->eap_type == EAP_CONFIG_EAP_TLS) {
		if (outer == NULL)
			outer = c->client->common_name;
		if (outer != NULL)
			put(&dict, "", "Identity", g_variant_new_string(outer));
		put(&dict, m, "-ClientCert", pem_bytes(c->client->cert_pem));
		put(&dict, m, "-ClientKey", pem_bytes(c->client->key_pem));
		return g_variant_dict_end(&dict);
	}
	put(&dict, "", "Identity", g_variant_new_string(outer));
	put(&dict, m, "-Phase2-Method", g_variant_new_string(phase2_method(method)));
	put(&dict, m, "-Phase2-Identity", g_variant_new_string(c->username));
	put(&dict, m, "-Phase2-Password", g_variant_new_string(c->password));
	return g_variant_dict_end(&dict);
}
