/* eap-tls-tpm.h - keys in a TPM 2.0, through OpenSSL's tpm2 provider
 * (Debian package tpm2-openssl), loaded into the process the first time a
 * profile names such a key and never before. The TPM is reached the way
 * the provider is configured: TPM2OPENSSL_TCTI in joind's environment as
 * it is (the unit may set it with Environment=), else the TSS default
 * (/dev/tpmrm0); main.conf's [EAP] TPM2TCTI, when set, overrides the
 * variable for the provider. The key never leaves the TPM: signing runs
 * there. */
#pragma once

#include <openssl/evp.h>

#include <glib.h>

#include "joind-plugin.h"

G_BEGIN_DECLS

#define EAP_TLS_TSS2_PEM_LABEL "-----BEGIN TSS2 PRIVATE KEY-----"

/* main.conf's TCTI for the tpm2 provider, declared by the EAP-TLS plugin
 * (eap_tls_tpm_config_keys) and read by every method with client keys.
 * Read when the provider first loads: a change needs a restart. */
#define EAP_TLS_TPM_TCTI_GROUP "EAP"
#define EAP_TLS_TPM_TCTI_KEY   "TPM2TCTI"
extern const JoindConfigKey eap_tls_tpm_config_keys[];

/* The property query of a TLS connection whose key is in the TPM. OpenSSL
 * 3.0 fetches a signature implementation before it looks at the key's
 * provider; the default provider's, given the public half the tpm2
 * provider exports, would fail for want of the private key. */
#define EAP_TLS_TPM_PROPQ "?tpm2.signature"

/* Does this file hold a key made by the tpm2 provider (or tpm2-tools)? */
gboolean eap_tls_tpm_is_tss2(GBytes *contents);

/* The key of a TSS2 PEM file (contents) or of a persistent handle
 * ("handle:0x81000001", contents NULL). tcti_conf: main.conf's TCTI, or
 * NULL to leave the environment's. passphrase: the key's auth value if it
 * has one (NULL: none); *asked tells whether the provider wanted one. NULL
 * with a sentence on errors. */
EVP_PKEY *eap_tls_tpm_load_key(const gchar *tcti_conf, const gchar *handle, GBytes *contents,
                               const gchar *passphrase, gboolean *asked, GError **error);

/* How the provider reaches the TPM, for sentences: "main.conf's [EAP]
 * TPM2TCTI=...", "TPM2OPENSSL_TCTI=..." or "the default TCTI
 * (/dev/tpmrm0)". */
gchar *eap_tls_tpm_describe_tcti(const gchar *tcti_conf);

G_END_DECLS
