/* fuzz-eap-config.c - the eap-config reader of `joinctl import`.
 *
 * The input is a whole file, as a web site would hand it out. It is
 * refused with EAP_CONFIG_ERROR_INVALID, or taken within the reader's
 * limits; a taken one goes on as joinctl would take it: a method picked
 * (or refused as unsupported), described, its CAs checked and converted to
 * PEM, and the profile settings built. The PKCS#12 client certificate is
 * left alone: its key derivation would make every input slow, and the
 * unit tests open it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eap-config-profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_limits(const EapConfigProvider *p)
{
	if (p->methods->len == 0 || p->methods->len > EAP_CONFIG_MAX_ITEMS ||
	    p->ssids->len > EAP_CONFIG_MAX_ITEMS || p->wired_ids->len > EAP_CONFIG_MAX_ITEMS ||
	    p->consortium_oids->len > EAP_CONFIG_MAX_ITEMS)
		abort();
	for (guint i = 0; i < p->ssids->len; i++) {
		gsize len = strlen(g_ptr_array_index(p->ssids, i));

		if (len == 0 || len > 32)
			abort();
	}
}

static void
use_method(const EapConfigMethod *m)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *name = eap_config_method_describe(m);
	g_autofree gchar *ca = m->cas->len > 0 ? eap_config_ca_pem(m->cas, &error) : NULL;
	EapConfigClientPem client = {"-----BEGIN CERTIFICATE-----\n", "", "cn"};
	EapConfigCredentials c = {"user@example.edu", "password", ca, &client};
	g_autoptr(GVariant) settings = NULL;

	if (name == NULL || m->eap_type == 0 || m->eap_type > 255)
		abort();
	if (ca == NULL && m->cas->len > 0 &&
	    !g_error_matches(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID))
		abort();
	settings = g_variant_ref_sink(eap_config_profile_settings(m, &c));
	if (!g_variant_lookup(settings, "Security.EAP-Method", "&s", NULL))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(EapConfig) config = eap_config_parse(data, size, &error);

	if (config == NULL) {
		if (!g_error_matches(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID))
			abort();
		return 0;
	}
	if (error != NULL || config->providers->len == 0)
		abort();
	for (guint i = 0; i < config->providers->len; i++) {
		const EapConfigProvider *p = g_ptr_array_index(config->providers, i);
		g_autoptr(GError) unsupported = NULL;
		const EapConfigMethod *m = eap_config_pick_method(p, &unsupported);

		check_limits(p);
		if (m != NULL)
			use_method(m);
		else if (!g_error_matches(unsupported, EAP_CONFIG_ERROR,
		                          EAP_CONFIG_ERROR_UNSUPPORTED))
			abort();
	}
	return 0;
}
