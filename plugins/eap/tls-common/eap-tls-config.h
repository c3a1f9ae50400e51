/* eap-tls-config.h - the TLS settings of a TLS-based method, read through
 * the EAP session: trust anchors, server name masks, protocol versions and
 * the client credentials (PEM, encrypted PKCS#8 or PKCS#12). */
#pragma once

#include <openssl/ssl.h>

#include "joind-eap.h"

G_BEGIN_DECLS

typedef struct {
	gchar *method;  /* "TLS", "PEAP": sentences say "EAP-TLS" */
	gchar *ca_file; /* the setting (a path or embed:<name>); NULL: system_ca */
	GBytes *ca_pem; /* what it holds */
	gboolean system_ca;
	gchar *ca_where;     /* which setting chose the trust anchors, for sentences */
	gchar *domain_masks; /* NULL: any name the CA vouches for */
	gchar *domain_where;
	int min_version, max_version; /* TLS1_2_VERSION, TLS1_3_VERSION */
	X509 *cert;                   /* NULL: no client certificate */
	STACK_OF(X509) * chain;
	EVP_PKEY *key;
} EapTlsConfig;

void eap_tls_config_free(EapTlsConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsConfig, eap_tls_config_free)

/* Settings are <session prefix><key_prefix><name>, e.g. "EAP-" "TLS-"
 * "CACert". Checks what can be checked without secrets: trust anchors
 * configured (no CA and no SystemCA=true is an error: joind never accepts a
 * server it cannot verify), files readable, versions valid. */
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

/* "1.2" -> TLS1_2_VERSION, "1.3" -> TLS1_3_VERSION, else 0. */
int eap_tls_parse_version(const gchar *text);

G_END_DECLS
