/* eap-tls-tpm.c - TPM 2.0 keys through the tpm2 provider and OSSL_STORE.
 * Nothing here touches the TPM directly: the provider does, when OpenSSL
 * asks it to load or to sign. */
#include "eap-tls-tpm.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/store.h>
#include <openssl/ui.h>

#include "eap-tls-autoptr.h"
#include "eap-tls-hwkey.h"
#include "joind-error.h"

#define TPM_PROVIDER "tpm2"
#define TCTI_ENV     "TPM2OPENSSL_TCTI"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(OSSL_STORE_CTX, OSSL_STORE_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(OSSL_STORE_INFO, OSSL_STORE_INFO_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(UI_METHOD, UI_destroy_method)

gboolean
eap_tls_tpm_is_tss2(GBytes *contents)
{
	gsize len = 0;
	const gchar *data = g_bytes_get_data(contents, &len);

	return data != NULL && g_strstr_len(data, (gssize)len, EAP_TLS_TSS2_PEM_LABEL) != NULL;
}

const JoindConfigKey eap_tls_tpm_config_keys[] = {
        {EAP_TLS_TPM_TCTI_GROUP, EAP_TLS_TPM_TCTI_KEY, JOIND_CONFIG_STRING, "", 0, 0, NULL},
        {NULL, NULL, 0, NULL, 0, 0, NULL},
};

gchar *
eap_tls_tpm_describe_tcti(const gchar *tcti_conf)
{
	const gchar *tcti = g_getenv(TCTI_ENV);

	if (tcti_conf != NULL)
		return g_strdup_printf("main.conf's [" EAP_TLS_TPM_TCTI_GROUP
		                       "] " EAP_TLS_TPM_TCTI_KEY "=%s",
		                       tcti_conf);
	if (tcti != NULL)
		return g_strdup_printf("%s=%s", TCTI_ENV, tcti);
	return g_strdup("the default TCTI (/dev/tpmrm0; set " TCTI_ENV " to change it)");
}

/* The provider connects to the TPM as it loads: a failure here is
 * "cannot reach the TPM", and the next key tries again. Loading a
 * provider by name switches off OpenSSL's fallback to the default one,
 * so that is loaded by name too, and first: where both implement an
 * algorithm (hashes, signatures), a query without preference finds the
 * default's, so the handshake's hashing stays off the TPM. */
static OSSL_PROVIDER *tpm_default_provider, *tpm_provider;

/* At exit (or when this module is unloaded): a provider loaded by name
 * stays until unloaded by name, and OpenSSL's own cleanup would leave it. */
static void
tpm_provider_unload(void)
{
	g_clear_pointer(&tpm_provider, OSSL_PROVIDER_unload);
	g_clear_pointer(&tpm_default_provider, OSSL_PROVIDER_unload);
}

/* The provider reads TPM2OPENSSL_TCTI once, as it loads and connects to
 * the TPM: main.conf's TCTI is put in the environment for that moment
 * only, and the environment's own value (or its absence) is put back, so
 * main.conf overrides the variable and never replaces it. This runs on
 * the main thread; joind's other thread, GDBus's worker, does not read
 * the environment. */
static OSSL_PROVIDER *
tpm_provider_open(const gchar *tcti_conf)
{
	g_autofree gchar *saved = g_strdup(g_getenv(TCTI_ENV));
	OSSL_PROVIDER *provider;

	if (tcti_conf == NULL)
		return OSSL_PROVIDER_load(NULL, TPM_PROVIDER);
	g_setenv(TCTI_ENV, tcti_conf, TRUE);
	provider = OSSL_PROVIDER_load(NULL, TPM_PROVIDER);
	if (saved != NULL)
		g_setenv(TCTI_ENV, saved, TRUE);
	else
		g_unsetenv(TCTI_ENV);
	return provider;
}

static gboolean
tpm_provider_load(const gchar *tcti_conf, GError **error)
{
	g_autofree gchar *tcti = NULL;
	g_autofree gchar *why = NULL;

	if (OSSL_PROVIDER_available(NULL, TPM_PROVIDER))
		return TRUE;
	if (tpm_default_provider == NULL &&
	    (tpm_default_provider = OSSL_PROVIDER_load(NULL, "default")) != NULL)
		atexit(tpm_provider_unload);
	if (tpm_default_provider != NULL && (tpm_provider = tpm_provider_open(tcti_conf)) != NULL) {
		ERR_clear_error();
		tcti = eap_tls_tpm_describe_tcti(tcti_conf);
		g_info("loaded OpenSSL's tpm2 provider; the TPM is reached through %s", tcti);
		return TRUE;
	}
	why = eap_tls_hwkey_take_reasons();
	tcti = eap_tls_tpm_describe_tcti(tcti_conf);
	return joind_set_error(error, JOIND_ERROR_FAILED,
	                       "the TPM cannot be reached through %s: OpenSSL's tpm2 provider "
	                       "(Debian package tpm2-openssl) did not load (%s)",
	                       tcti, why != NULL ? why : "no reason given");
}

typedef struct {
	const gchar *passphrase;
	gboolean asked;
} TpmAuth;

static int
tpm_ui_read(UI *ui, UI_STRING *uis)
{
	TpmAuth *auth = UI_get0_user_data(ui);

	if (UI_get_string_type(uis) != UIT_PROMPT && UI_get_string_type(uis) != UIT_VERIFY)
		return 1;
	auth->asked = TRUE;
	if (auth->passphrase == NULL)
		return 0;
	return UI_set_result(ui, uis, auth->passphrase) == 0 ? 1 : 0;
}

static EVP_PKEY *
tpm_store_first_key(OSSL_STORE_CTX *store)
{
	while (store != NULL && !OSSL_STORE_eof(store)) {
		g_autoptr(OSSL_STORE_INFO) info = OSSL_STORE_load(store);
		if (info != NULL && OSSL_STORE_INFO_get_type(info) == OSSL_STORE_INFO_PKEY)
			return OSSL_STORE_INFO_get1_PKEY(info);
		if (info == NULL && OSSL_STORE_error(store))
			break;
	}
	return NULL;
}

EVP_PKEY *
eap_tls_tpm_load_key(const gchar *tcti_conf, const gchar *handle, GBytes *contents,
                     const gchar *passphrase, gboolean *asked, GError **error)
{
	g_autoptr(UI_METHOD) ui = UI_create_method("joind TPM key");
	g_autoptr(OSSL_STORE_CTX) store = NULL;
	g_autoptr(BIO) bio = NULL;
	TpmAuth auth = {passphrase, FALSE};
	EVP_PKEY *key;

	*asked = FALSE;
	if (!tpm_provider_load(tcti_conf, error))
		return NULL;
	UI_method_set_reader(ui, tpm_ui_read);
	if (handle != NULL) {
		store = OSSL_STORE_open_ex(handle, NULL, "provider=" TPM_PROVIDER, ui, &auth, NULL,
		                           NULL, NULL);
	} else {
		bio = BIO_new_mem_buf(g_bytes_get_data(contents, NULL),
		                      (int)g_bytes_get_size(contents));
		store = OSSL_STORE_attach(bio, "file", NULL, NULL, ui, &auth, NULL, NULL, NULL);
	}
	key = tpm_store_first_key(store);
	*asked = auth.asked;
	if (key == NULL) {
		g_autofree gchar *why = eap_tls_hwkey_take_reasons();
		g_autofree gchar *tcti = eap_tls_tpm_describe_tcti(tcti_conf);
		joind_set_error(error, JOIND_ERROR_FAILED,
		                "the TPM (through %s) could not load the key%s%s", tcti,
		                why != NULL ? ": " : "", why != NULL ? why : "");
		return NULL;
	}
	ERR_clear_error();
	return key;
}
