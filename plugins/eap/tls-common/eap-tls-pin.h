/* eap-tls-pin.h - server key pins: "sha256/BASE64", the SHA-256 digest of
 * a certificate's SubjectPublicKeyInfo (DER), as HPKP and curl spell them
 * and as this computes one:
 *   openssl x509 -pubkey -noout -in server.pem | openssl pkey -pubin -outform der |
 *   openssl dgst -sha256 -binary | base64 */
#pragma once

#include <openssl/x509.h>

#include <glib.h>

G_BEGIN_DECLS

#define EAP_TLS_PIN_PREFIX "sha256/"
#define EAP_TLS_PIN_LEN    32

/* The pin of cert's key, "sha256/BASE64"; NULL when it has none. */
gchar *eap_tls_pin_of_cert(X509 *cert);

/* Parses a ServerKeyPin value: one or more pins separated by ';', ',' or
 * spaces (more than one lets a server's key be replaced without a gap).
 * Returns them canonical ("sha256/" + 44 base64 characters), NULL with a
 * sentence in *reason (static text) when one is malformed or there is none. */
GStrv eap_tls_pins_parse(const gchar *value, const gchar **reason);

G_END_DECLS
