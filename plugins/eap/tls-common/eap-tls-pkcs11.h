/* eap-tls-pkcs11.h - keys and certificates on a PKCS#11 token, through
 * OpenSSL. The key never leaves the token: what comes back is a handle
 * whose signing runs on the token during the handshake.
 *
 * Debian 12 has no pkcs11 provider, so this is the libp11 engine
 * (libengine-pkcs11-openssl) over p11-kit's proxy module, where every
 * registered module (SoftHSM2, OpenSC, a vendor's) is reachable. Only
 * eap-tls-pkcs11.c knows that; a provider replaces that one file. */
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	EAP_TLS_PKCS11_OK,
	EAP_TLS_PKCS11_NO_ENGINE,     /* the engine or p11-kit is not installed */
	EAP_TLS_PKCS11_NOT_FOUND,     /* no such token, or no such object on it */
	EAP_TLS_PKCS11_PIN_INCORRECT, /* the token refused the PIN */
	EAP_TLS_PKCS11_PIN_LOCKED,    /* too many wrong PINs: the token locked it */
	EAP_TLS_PKCS11_FAILED,        /* anything else: *detail says what */
} EapTlsPkcs11Status;

/* Keeps the module loaded while a key from it lives: whatever holds the
 * key (the config, then the TLS connection) holds a reference. */
typedef struct _EapTlsPkcs11Hold EapTlsPkcs11Hold;

EapTlsPkcs11Hold *eap_tls_pkcs11_hold_ref(EapTlsPkcs11Hold *hold);
void eap_tls_pkcs11_hold_unref(EapTlsPkcs11Hold *hold);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsPkcs11Hold, eap_tls_pkcs11_hold_unref)

/* The private key uri names; pin (NULL when the URI carries it or the
 * token needs none) is used for one login and forgotten. Never prompts.
 * *detail (free it): OpenSSL's and the token's reasons, for sentences. */
EapTlsPkcs11Status eap_tls_pkcs11_load_key(const gchar *uri, const gchar *pin, EVP_PKEY **key,
                                           EapTlsPkcs11Hold **hold, gchar **detail);

/* The certificate uri names (no login: certificates are public objects). */
EapTlsPkcs11Status eap_tls_pkcs11_load_cert(const gchar *uri, X509 **cert, gchar **detail);

/* After a token error: the module is finalised (once no key from it is in
 * use) and loaded afresh at the next load, so that a token inserted since
 * is found (modules list their tokens when initialised). */
void eap_tls_pkcs11_reset(void);

G_END_DECLS
