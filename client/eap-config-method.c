/* eap-config-method.c - which of a provider's methods joinctl import can
 * make a joind profile of: the first one, in the file's order (the
 * provider's preference), whose outer and inner methods joind has and
 * whose credentials the file or the user can give.
 */
#include "eap-config.h"

static const gchar *
eap_name(guint type)
{
	switch (type) {
	case EAP_CONFIG_EAP_MD5:
		return "MD5";
	case EAP_CONFIG_EAP_GTC:
		return "GTC";
	case EAP_CONFIG_EAP_TLS:
		return "TLS";
	case EAP_CONFIG_EAP_TTLS:
		return "TTLS";
	case EAP_CONFIG_EAP_PEAP:
		return "PEAP";
	case EAP_CONFIG_EAP_MSCHAPV2:
		return "MSCHAPv2";
	case EAP_CONFIG_EAP_PWD:
		return "PWD";
	default:
		return NULL;
	}
}

static const gchar *
non_eap_name(guint type)
{
	switch (type) {
	case EAP_CONFIG_NON_EAP_PAP:
		return "PAP";
	case EAP_CONFIG_NON_EAP_MSCHAP:
		return "MSCHAP";
	case EAP_CONFIG_NON_EAP_MSCHAPV2:
		return "MSCHAPv2";
	default:
		return NULL;
	}
}

gchar *
eap_config_method_describe(const EapConfigMethod *m)
{
	const gchar *outer = eap_name(m->eap_type);
	g_autofree gchar *outer_text =
	        outer != NULL ? g_strdup(outer) : g_strdup_printf("EAP type %u", m->eap_type);

	if (m->inner_non_eap_type != 0) {
		const gchar *inner = non_eap_name(m->inner_non_eap_type);

		return inner != NULL ? g_strdup_printf("%s/%s", outer_text, inner)
		                     : g_strdup_printf("%s/non-EAP type %u", outer_text,
		                                       m->inner_non_eap_type);
	}
	if (m->inner_eap_type != 0) {
		const gchar *inner = eap_name(m->inner_eap_type);

		return inner != NULL
		               ? g_strdup_printf("%s/EAP-%s", outer_text, inner)
		               : g_strdup_printf("%s/EAP type %u", outer_text, m->inner_eap_type);
	}
	return g_steal_pointer(&outer_text);
}

static gboolean
inner_eap_supported(guint type)
{
	return type == EAP_CONFIG_EAP_MSCHAPV2 || type == EAP_CONFIG_EAP_GTC ||
	       type == EAP_CONFIG_EAP_MD5;
}

static gboolean
method_supported(const EapConfigMethod *m)
{
	switch (m->eap_type) {
	case EAP_CONFIG_EAP_PEAP:
		/* PEAP's inner method is EAP; MSCHAPv2 when the file names none. */
		return m->inner_non_eap_type == 0 &&
		       (m->inner_eap_type == 0 || m->inner_eap_type == EAP_CONFIG_EAP_MSCHAPV2 ||
		        m->inner_eap_type == EAP_CONFIG_EAP_GTC);
	case EAP_CONFIG_EAP_TTLS:
		return (m->inner_non_eap_type != 0 &&
		        non_eap_name(m->inner_non_eap_type) != NULL) ||
		       inner_eap_supported(m->inner_eap_type);
	case EAP_CONFIG_EAP_TLS:
		/* The client certificate must come with the file: joinctl has no
		 * other way to put one into the daemon's profile. */
		return m->client_pkcs12 != NULL;
	case EAP_CONFIG_EAP_PWD:
		return m->inner_eap_type == 0 && m->inner_non_eap_type == 0;
	default:
		return FALSE;
	}
}

const EapConfigMethod *
eap_config_pick_method(const EapConfigProvider *provider, GError **error)
{
	g_autoptr(GString) offered = g_string_new(NULL);

	for (guint i = 0; i < provider->methods->len; i++) {
		const EapConfigMethod *m = g_ptr_array_index(provider->methods, i);
		g_autofree gchar *name = NULL;

		if (method_supported(m))
			return m;
		name = eap_config_method_describe(m);
		g_string_append_printf(
		        offered, "%s%s%s", offered->len > 0 ? ", " : "", name,
		        m->eap_type == EAP_CONFIG_EAP_TLS ? " without a client certificate" : "");
	}
	g_set_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_UNSUPPORTED,
	            "no authentication method joind supports: the file offers %s (joind: "
	            "PEAP/MSCHAPv2 or GTC, TTLS/PAP, MSCHAP, MSCHAPv2, EAP-MSCHAPv2, GTC or MD5, "
	            "TLS with a client certificate in the file, PWD)",
	            offered->str);
	return NULL;
}
