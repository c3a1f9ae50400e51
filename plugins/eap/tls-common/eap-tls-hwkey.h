/* eap-tls-hwkey.h - client keys that never leave the hardware: on a
 * PKCS#11 token (ClientKey=pkcs11:...) or in a TPM 2.0 (a TSS2 PEM file,
 * ClientKey=handle:0x81......). Finds the PIN, loads the key (and a
 * certificate kept on the token), and turns the token's or the TPM's
 * answers into sentences naming the token and the object. */
#pragma once

#include "eap-tls-config.h"

G_BEGIN_DECLS

/* Does the profile name a key (or a certificate) in hardware? Files that
 * turn out to hold a TSS2 key are found once read (eap_tls_tpm_is_tss2). */
gboolean eap_tls_hwkey_named(JoindEapSession *s, const gchar *key_prefix);

/* Loads c->key, and c->cert when ClientCert names a token object (a
 * certificate file is read by the caller first). tss2: the ClientKey
 * file's contents when it holds a TSS2 key, else NULL. Results as
 * eap_tls_config_load's. */
JoindEapMethodResult eap_tls_hwkey_load(JoindEapSession *s, const gchar *key_prefix, GBytes *tss2,
                                        EapTlsConfig *c, GError **error);

/* OpenSSL's queued reasons, joined with "; " and cleared; NULL if none. */
gchar *eap_tls_hwkey_take_reasons(void);

G_END_DECLS
