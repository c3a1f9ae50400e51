/* eap-tls-pkcs11.c - the libp11 engine behind eap-tls-pkcs11.h: the one
 * file of joind that uses OpenSSL's ENGINE interface (deprecated in
 * OpenSSL 3, and the only way to PKCS#11 on Debian 12, which has no
 * pkcs11 provider). Replacing this file with an OSSL_STORE over a pkcs11
 * provider is all it takes to move. The PIN goes to the engine for one
 * login and is wiped from it at once; nothing here logs it. */

/* ENGINE_* is libp11's only interface on Debian 12: the one file where
 * OpenSSL's deprecated calls are allowed. Before any OpenSSL header. */
#define OPENSSL_SUPPRESS_DEPRECATED

#include "eap-tls-pkcs11.h"

#include <string.h>

#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/ui.h>

#include "eap-tls-hwkey.h"

#define ENGINE_ID "pkcs11"
/* p11-kit's proxy: every module registered with p11-kit (SoftHSM2's,
 * OpenSC's, a vendor's) behind one. */
#ifndef EAP_TLS_P11_KIT_PROXY
#define EAP_TLS_P11_KIT_PROXY "p11-kit-proxy.so"
#endif

/* The engine this process uses now, a functional reference; keys hold
 * their own (EapTlsPkcs11Hold), so a reset while a key is in use only
 * drops this one and the module is finalised with the last key. */
static ENGINE *pkcs11_engine;

struct _EapTlsPkcs11Hold {
	ENGINE *engine;
};

static void
pkcs11_hold_clear(gpointer data)
{
	EapTlsPkcs11Hold *hold = data;

	ENGINE_finish(hold->engine);
}

EapTlsPkcs11Hold *
eap_tls_pkcs11_hold_ref(EapTlsPkcs11Hold *hold)
{
	return hold != NULL ? g_rc_box_acquire(hold) : NULL;
}

void
eap_tls_pkcs11_hold_unref(EapTlsPkcs11Hold *hold)
{
	if (hold != NULL)
		g_rc_box_release_full(hold, pkcs11_hold_clear);
}

static ENGINE *
pkcs11_engine_get(gchar **detail)
{
	ENGINE *e;

	if (pkcs11_engine != NULL)
		return pkcs11_engine;
	/* A new instance each time (ENGINE_by_id loads a dynamic engine
	 * without adding it to the list): after a reset nothing of the
	 * finalised module is reused. */
	e = ENGINE_by_id(ENGINE_ID);
	if (e == NULL) {
		g_autofree gchar *why = eap_tls_hwkey_take_reasons();
		*detail = g_strdup_printf("OpenSSL cannot load its PKCS#11 engine (Debian package "
		                          "libengine-pkcs11-openssl): %s",
		                          why != NULL ? why : "not found");
		return NULL;
	}
	if (!ENGINE_ctrl_cmd_string(e, "MODULE_PATH", EAP_TLS_P11_KIT_PROXY, 0) ||
	    !ENGINE_init(e)) {
		g_autofree gchar *why = eap_tls_hwkey_take_reasons();
		*detail =
		        g_strdup_printf("the PKCS#11 engine cannot load %s (Debian package "
		                        "p11-kit-modules): %s",
		                        EAP_TLS_P11_KIT_PROXY, why != NULL ? why : "unknown error");
		ENGINE_free(e);
		return NULL;
	}
	/* The engine's own messages go to stderr only when asked for. */
	ENGINE_ctrl_cmd_string(e, "QUIET", NULL, 1);
	ERR_clear_error();
	ENGINE_free(e); /* the functional reference from ENGINE_init stays */
	pkcs11_engine = e;
	return e;
}

void
eap_tls_pkcs11_reset(void)
{
	if (pkcs11_engine == NULL)
		return;
	ENGINE_finish(pkcs11_engine);
	pkcs11_engine = NULL;
}

/* The token's answer, from the reasons libp11 queued (it names the
 * PKCS#11 return value: "PIN incorrect", "PIN locked"). */
static EapTlsPkcs11Status
pkcs11_classify(const gchar *detail, gboolean found_nothing)
{
	g_autofree gchar *lower = g_ascii_strdown(detail != NULL ? detail : "", -1);

	if (strstr(lower, "pin incorrect") != NULL || strstr(lower, "pin_incorrect") != NULL)
		return EAP_TLS_PKCS11_PIN_INCORRECT;
	if (strstr(lower, "pin locked") != NULL || strstr(lower, "pin_locked") != NULL ||
	    strstr(lower, "pin expired") != NULL)
		return EAP_TLS_PKCS11_PIN_LOCKED;
	return found_nothing ? EAP_TLS_PKCS11_NOT_FOUND : EAP_TLS_PKCS11_FAILED;
}

/* libp11 takes the PIN by string and keeps a copy until the next one;
 * NULL makes it wipe and drop that copy. */
static void
pkcs11_set_pin(ENGINE *e, const gchar *pin)
{
	ENGINE_ctrl_cmd(e, "PIN", 0, (void *)pin, NULL, 0);
	ERR_clear_error();
}

EapTlsPkcs11Status
eap_tls_pkcs11_load_key(const gchar *uri, const gchar *pin, EVP_PKEY **key, EapTlsPkcs11Hold **hold,
                        gchar **detail)
{
	ENGINE *e = pkcs11_engine_get(detail);
	EVP_PKEY *loaded;

	*key = NULL;
	if (e == NULL)
		return EAP_TLS_PKCS11_NO_ENGINE;
	ERR_clear_error();
	if (pin != NULL)
		pkcs11_set_pin(e, pin);
	/* UI_null: the engine must never prompt on a terminal. */
	/* The engine API predates const; it does not write to the method. */
	loaded = ENGINE_load_private_key(e, uri, (UI_METHOD *)UI_null(), NULL);
	if (loaded == NULL)
		*detail = eap_tls_hwkey_take_reasons();
	if (pin != NULL)
		pkcs11_set_pin(e, NULL);
	if (loaded == NULL)
		return pkcs11_classify(*detail, TRUE);
	ERR_clear_error();
	ENGINE_init(e);
	*hold = g_rc_box_new0(EapTlsPkcs11Hold);
	(*hold)->engine = e;
	*key = loaded;
	return EAP_TLS_PKCS11_OK;
}

EapTlsPkcs11Status
eap_tls_pkcs11_load_cert(const gchar *uri, X509 **cert, gchar **detail)
{
	ENGINE *e = pkcs11_engine_get(detail);
	/* libp11's LOAD_CERT_CTRL argument. */
	struct {
		const char *uri;
		X509 *cert;
	} params = {uri, NULL};

	*cert = NULL;
	if (e == NULL)
		return EAP_TLS_PKCS11_NO_ENGINE;
	ERR_clear_error();
	if (!ENGINE_ctrl_cmd(e, "LOAD_CERT_CTRL", 0, &params, NULL, 0) || params.cert == NULL) {
		*detail = eap_tls_hwkey_take_reasons();
		return pkcs11_classify(*detail, TRUE);
	}
	ERR_clear_error();
	*cert = params.cert;
	return EAP_TLS_PKCS11_OK;
}
