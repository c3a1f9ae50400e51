/* eap-tls-config.h - the TLS settings of a TLS-based method, read through
 * the EAP session: trust anchors, server name masks, protocol versions and
 * the client credentials (PEM, encrypted PKCS#8 or PKCS#12). */
#pragma once

#include <openssl/ssl.h>

#include "eap-tls-pkcs11.h"
#include "joind-eap.h"

G_BEGIN_DECLS

typedef struct {
	gchar *method;         /* "TLS", "PEAP": sentences say "EAP-TLS" */
	gchar *setting_prefix; /* "EAP-TLS-", "EAP-TTLS-Phase2-TLS-": keys in sentences */
	gchar *ca_file;        /* the setting (a path or embed:<name>); NULL: none */
	GBytes *ca_pem;        /* what it holds */
	gboolean system_ca;
	gchar *ca_where;     /* which setting chose the trust anchors, for sentences */
	gchar *domain_masks; /* NULL: any name the CA vouches for */
	gchar *domain_where;
	gchar **pins; /* ServerKeyPin, canonical "sha256/BASE64"; NULL: none */
	gchar *pin_where;
	gboolean resume;              /* FastReauthentication: offer and keep TLS sessions */
	int min_version, max_version; /* TLS1_2_VERSION, TLS1_3_VERSION */
	X509 *cert;                   /* NULL: no client certificate */
	STACK_OF(X509) * chain;
	EVP_PKEY *key;
	EapTlsPkcs11Hold *key_hold; /* a key on a token: keeps its module loaded */
	gboolean key_in_tpm;        /* signing must find the tpm2 provider's code */
	/* An RSA key in a TPM: rsa_pkcs1 signatures only, so TLS 1.2 (real
	 * TPMs make PSS signatures with a salt length TLS peers refuse). */
	gboolean rsa_pkcs1_only;
} EapTlsConfig;

void eap_tls_config_free(EapTlsConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsConfig, eap_tls_config_free)

/* Settings are <session prefix><key_prefix><name>, e.g. "EAP-" "TLS-"
 * "CACert". Checks what can be checked without secrets: files readable,
 * pins and versions valid, SystemCA=true only with a ServerDomainMask. No
 * CA, SystemCA or ServerKeyPin is not an error here: joind never accepts a
 * server it cannot verify, so the handshake then refuses the server that
 * answers, once its certificate (and so its pin) is known. */
gboolean eap_tls_config_check(JoindEapSession *session, const gchar *method,
                              const gchar *key_prefix, gboolean require_client_cert,
                              GError **error);

/* Loads everything, asking the agent for the key passphrase when the key
 * is encrypted and the profile has none: returns JOIND_EAP_METHOD_PENDING
 * then (call again with the same request), JOIND_EAP_METHOD_FAIL with a
 * sentence on errors, JOIND_EAP_METHOD_RESPOND with *config set when done. */
JoindEapMethodResult eap_tls_config_load(JoindEapSession *session, const gchar *method,
                                         const gchar *key_prefix, gboolean require_client_cert,
                                         EapTlsConfig **config, GError **error);

/* The key's passphrase (a token's PIN, a TPM key's auth value):
 * ClientKeyPassphrase from the profile, else the agent's answer to
 * RequestPrivateKeyPassphrase. RESPOND with *value set, PENDING while
 * the agent is asked, FAIL with error. */
JoindEapMethodResult eap_tls_config_passphrase(JoindEapSession *s, const gchar *key_prefix,
                                               const gchar **value, GError **error);

/* The shape of a profile's TLS keys under prefix ("EAP-TLS-",
 * "EAP-PEAP-"), as the file is read: ServerKeyPin well-formed, no
 * ClientKeyBundle beside ClientCert/ClientKey. */
gboolean eap_tls_config_check_profile(JoindProfile *profile, const gchar *prefix, GError **error);

/* "1.2" -> TLS1_2_VERSION, "1.3" -> TLS1_3_VERSION, else 0. */
int eap_tls_parse_version(const gchar *text);

G_END_DECLS
