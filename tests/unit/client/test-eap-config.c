/* test-eap-config.c - the eap-config reader of `joinctl import`: the
 * realistic files of data/ (make-fixtures.sh: PEAP/MSCHAPv2 for several
 * SSIDs, TTLS/PAP, EAP-TLS with a PKCS#12 client certificate, several
 * methods of which the first supported one wins, wired applicability)
 * parsed and turned into profile settings. Malformed and hostile files:
 * test-eap-config-bad.c.
 */
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <string.h>

#include "eap-config-profile.h"

#define ROOT_CN "Example University Root CA"

static EapConfig *
load(const gchar *name)
{
	g_autofree gchar *path = g_build_filename(g_getenv("JOIND_SOURCE_ROOT"), "tests", "unit",
	                                          "client", "data", name, NULL);
	g_autofree gchar *data = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;
	EapConfig *config;

	g_assert_true(g_file_get_contents(path, &data, &len, &error));
	config = eap_config_parse((const guint8 *)data, len, &error);
	g_assert_no_error(error);
	g_assert_nonnull(config);
	g_assert_cmpuint(config->providers->len, ==, 1);
	return config;
}

static const EapConfigProvider *
provider_of(EapConfig *config)
{
	return g_ptr_array_index(config->providers, 0);
}

static const gchar *
item(GPtrArray *items, guint i)
{
	g_assert_cmpuint(i, <, items->len);
	return g_ptr_array_index(items, i);
}

static const gchar *
setting_string(GVariant *settings, const gchar *name)
{
	const gchar *value = NULL;

	if (!g_variant_lookup(settings, name, "&s", &value))
		return NULL;
	return value;
}

/* A bytes setting as text (PEM). */
static gchar *
setting_text(GVariant *settings, const gchar *name)
{
	g_autoptr(GVariant) value =
	        g_variant_lookup_value(settings, name, G_VARIANT_TYPE_BYTESTRING);
	gsize len = 0;
	const gchar *data;

	g_assert_nonnull(value);
	data = g_variant_get_fixed_array(value, &len, 1);
	return g_strndup(data, len);
}

static guint
count(const gchar *haystack, const gchar *needle)
{
	guint n = 0;

	for (const gchar *p = strstr(haystack, needle); p != NULL; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The subject CN of the first certificate of a PEM text. */
static gchar *
first_cn(const gchar *pem)
{
	BIO *bio = BIO_new_mem_buf(pem, -1);
	X509 *x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	gchar cn[128] = "";

	g_assert_nonnull(x);
	X509_NAME_get_text_by_NID(X509_get_subject_name(x), NID_commonName, cn, sizeof(cn));
	X509_free(x);
	BIO_free(bio);
	return g_strdup(cn);
}

static void
test_peap_several_ssids(void)
{
	g_autoptr(EapConfig) config = load("peap-mschapv2.eap-config");
	const EapConfigProvider *p = provider_of(config);
	const EapConfigMethod *m = eap_config_pick_method(p, NULL);
	g_autofree gchar *name = NULL;
	g_autofree gchar *ca = NULL;
	g_autofree gchar *ca_setting = NULL;
	g_autofree gchar *cn = NULL;
	g_autoptr(GVariant) settings = NULL;
	EapConfigCredentials c = {"alice@example.edu", "pw-of-alice", NULL, NULL};

	g_assert_cmpstr(p->id, ==, "example.edu");
	g_assert_cmpstr(p->display_name, ==, "Example University");
	g_assert_cmpuint(p->ssids->len, ==, 2);
	g_assert_cmpstr(item(p->ssids, 0), ==, "eduroam");
	g_assert_cmpstr(item(p->ssids, 1), ==, "eduroam-5G");
	g_assert_cmpstr(item(p->consortium_oids, 0), ==, "001bc50460");
	g_assert_cmpuint(p->wired_ids->len, ==, 0);
	g_assert_nonnull(m);
	g_assert_cmpuint(m->eap_type, ==, EAP_CONFIG_EAP_PEAP);
	g_assert_cmpuint(m->inner_eap_type, ==, EAP_CONFIG_EAP_MSCHAPV2);
	name = eap_config_method_describe(m);
	g_assert_cmpstr(name, ==, "PEAP/EAP-MSCHAPv2");
	g_assert_cmpuint(m->cas->len, ==, 2);
	g_assert_cmpstr(item(m->server_ids, 1), ==, "radius2.example.edu");
	g_assert_cmpstr(m->outer_identity, ==, "anonymous@example.edu");
	g_assert_true(m->inner_identity_hint);
	g_assert_cmpint(m->line, ==, 6);
	g_assert_cmpint(m->column, >, 0);

	ca = eap_config_ca_pem(m->cas, NULL);
	g_assert_cmpuint(count(ca, "-----BEGIN CERTIFICATE-----"), ==, 2);
	cn = first_cn(ca);
	g_assert_cmpstr(cn, ==, ROOT_CN);
	c.ca_pem = ca;
	settings = g_variant_ref_sink(eap_config_profile_settings(m, &c));
	g_assert_cmpstr(setting_string(settings, "Security.EAP-Method"), ==, "PEAP");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-Identity"), ==,
	                "anonymous@example.edu");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-PEAP-ServerDomainMask"), ==,
	                "radius1.example.edu;*.radius1.example.edu;radius2.example.edu;"
	                "*.radius2.example.edu");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-PEAP-Phase2-Method"), ==,
	                "MSCHAPV2");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-PEAP-Phase2-Identity"), ==,
	                "alice@example.edu");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-PEAP-Phase2-Password"), ==,
	                "pw-of-alice");
	g_assert_false(g_variant_lookup(settings, "Security.EAP-PEAP-SystemCA", "b", NULL));
	ca_setting = setting_text(settings, "Security.EAP-PEAP-CACert");
	g_assert_cmpstr(ca_setting, ==, ca);
}

static void
test_ttls_pap(void)
{
	g_autoptr(EapConfig) config = load("ttls-pap.eap-config");
	const EapConfigMethod *m = eap_config_pick_method(provider_of(config), NULL);
	g_autofree gchar *name = eap_config_method_describe(m);
	EapConfigCredentials c = {"bob@example.edu", "pw-of-bob", NULL, NULL};
	g_autoptr(GVariant) settings = NULL;
	gboolean system_ca = FALSE;

	g_assert_cmpstr(name, ==, "TTLS/PAP");
	g_assert_true(eap_config_method_uses_password(m));
	settings = g_variant_ref_sink(eap_config_profile_settings(m, &c));
	g_assert_cmpstr(setting_string(settings, "Security.EAP-Method"), ==, "TTLS");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-TTLS-Phase2-Method"), ==,
	                "Tunneled-PAP");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-TTLS-Phase2-Identity"), ==,
	                "bob@example.edu");
	/* No CA given to the builder: the server names alone mean the
	 * system's CAs for exactly those names. */
	g_assert_null(g_variant_lookup_value(settings, "Security.EAP-TTLS-CACert", NULL));
	g_assert_true(g_variant_lookup(settings, "Security.EAP-TTLS-SystemCA", "b", &system_ca));
	g_assert_true(system_ca);
}

static void
test_tls_pkcs12(void)
{
	g_autoptr(EapConfig) config = load("tls-pkcs12.eap-config");
	const EapConfigMethod *m = eap_config_pick_method(provider_of(config), NULL);
	g_autoptr(EapConfigClientPem) client = NULL;
	g_autoptr(EapConfigClientPem) wrong = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) settings = NULL;
	g_autofree gchar *cert = NULL;
	g_autofree gchar *key = NULL;
	g_autofree gchar *cn = NULL;
	EapConfigCredentials c = {NULL, NULL, NULL, NULL};

	g_assert_nonnull(m);
	g_assert_cmpuint(m->eap_type, ==, EAP_CONFIG_EAP_TLS);
	g_assert_false(eap_config_method_uses_password(m));
	g_assert_cmpstr(m->client_passphrase, ==, "p12-pass");
	wrong = eap_config_client_pem(m->client_pkcs12, "not-it", &error);
	g_assert_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID);
	g_assert_nonnull(strstr(error->message, "passphrase"));
	g_assert_null(wrong);
	client = eap_config_client_pem(m->client_pkcs12, m->client_passphrase, NULL);
	g_assert_nonnull(client);
	g_assert_cmpstr(client->common_name, ==, "alice@example.edu");
	g_assert_cmpuint(count(client->cert_pem, "BEGIN CERTIFICATE"), ==, 2); /* + chain */
	g_assert_cmpuint(count(client->key_pem, "-----BEGIN PRIVATE KEY-----"), ==, 1);
	cn = first_cn(client->cert_pem);
	g_assert_cmpstr(cn, ==, "alice@example.edu");
	c.client = client;
	settings = g_variant_ref_sink(eap_config_profile_settings(m, &c));
	g_assert_cmpstr(setting_string(settings, "Security.EAP-Method"), ==, "TLS");
	g_assert_cmpstr(setting_string(settings, "Security.EAP-Identity"), ==,
	                "anonymous@example.edu");
	cert = setting_text(settings, "Security.EAP-TLS-ClientCert");
	key = setting_text(settings, "Security.EAP-TLS-ClientKey");
	g_assert_cmpstr(cert, ==, client->cert_pem);
	g_assert_cmpstr(key, ==, client->key_pem);
	g_assert_null(setting_string(settings, "Security.EAP-TLS-Phase2-Method"));
}

static void
test_first_supported_wins(void)
{
	g_autoptr(EapConfig) config = load("several-methods.eap-config");
	EapConfigProvider *p = g_ptr_array_index(config->providers, 0);
	const EapConfigMethod *m = eap_config_pick_method(p, NULL);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *name = eap_config_method_describe(m);

	g_assert_cmpuint(p->methods->len, ==, 4);
	g_assert_true(m == g_ptr_array_index(p->methods, 2));
	g_assert_cmpstr(name, ==, "TTLS/EAP-MSCHAPv2");
	/* Without the two joind can use, nothing is picked, and the error
	 * says what the file offers. */
	g_ptr_array_set_size(p->methods, 2);
	g_assert_null(eap_config_pick_method(p, &error));
	g_assert_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_UNSUPPORTED);
	g_assert_nonnull(strstr(error->message, "EAP type 43"));
	g_assert_nonnull(strstr(error->message, "TLS without a client certificate"));
}

static void
test_wired(void)
{
	g_autoptr(EapConfig) config = load("wired.eap-config");
	const EapConfigProvider *p = provider_of(config);

	g_assert_cmpuint(p->wired_ids->len, ==, 1);
	g_assert_cmpstr(item(p->wired_ids, 0), ==, "campus-lan");
	g_assert_cmpuint(p->ssids->len, ==, 1);
}

static void
test_username_suffix(void)
{
	g_autoptr(EapConfig) config = load("peap-mschapv2.eap-config");
	const EapConfigMethod *m = eap_config_pick_method(provider_of(config), NULL);
	g_autoptr(GError) error = NULL;

	g_assert_true(eap_config_check_username(m, "alice@example.edu", NULL));
	g_assert_false(eap_config_check_username(m, "@example.edu", NULL));
	g_assert_false(eap_config_check_username(m, "alice", &error));
	g_assert_nonnull(strstr(error->message, "user@example.edu"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eap-config/peap-several-ssids", test_peap_several_ssids);
	g_test_add_func("/eap-config/ttls-pap", test_ttls_pap);
	g_test_add_func("/eap-config/tls-pkcs12", test_tls_pkcs12);
	g_test_add_func("/eap-config/first-supported-wins", test_first_supported_wins);
	g_test_add_func("/eap-config/wired", test_wired);
	g_test_add_func("/eap-config/username-suffix", test_username_suffix);
	return g_test_run();
}
