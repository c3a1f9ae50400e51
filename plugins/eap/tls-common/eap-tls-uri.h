/* eap-tls-uri.h - the forms a client key or certificate setting takes
 * besides a file: an RFC 7512 PKCS#11 URI ("pkcs11:token=...;object=...")
 * and a TPM 2.0 persistent handle ("handle:0x81000001"). Pure text: no
 * OpenSSL, no token is touched here. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	EAP_TLS_KEY_FILE,       /* a path or embed:<name> (a TSS2 PEM file included) */
	EAP_TLS_KEY_PKCS11,     /* pkcs11:... */
	EAP_TLS_KEY_TPM_HANDLE, /* handle:0x81...... */
} EapTlsKeyForm;

EapTlsKeyForm eap_tls_key_form(const gchar *value);

typedef struct {
	gchar *token;     /* the token's label (decoded); NULL: any token */
	gchar *object;    /* the object's label (decoded); NULL: by id or the only one */
	gchar *id_hex;    /* CKA_ID as lower-case hex; NULL: not given */
	gchar *type;      /* "private", "cert", ...; NULL: not given */
	gboolean has_pin; /* pin-value or pin-source is in the URI */
} EapTlsPkcs11Uri;

void eap_tls_pkcs11_uri_free(EapTlsPkcs11Uri *uri);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsPkcs11Uri, eap_tls_pkcs11_uri_free)

/* Parses text as RFC 7512 prescribes: path attributes separated by ';',
 * query attributes after '?' separated by '&', values percent-encoded,
 * each attribute at most once. Vendor attributes must have a '-' in their
 * name, as RFC 7512's examples do, so that a misspelt one ("label=" for
 * "object=") is caught. NULL with a
 * sentence in *reason (free it) when malformed. */
EapTlsPkcs11Uri *eap_tls_pkcs11_uri_parse(const gchar *text, gchar **reason);

/* "token “LABEL”, object “NAME”" (or "id 01ab", "any token"): what a
 * sentence about a missing token or object names. */
gchar *eap_tls_pkcs11_uri_describe(const EapTlsPkcs11Uri *uri);

/* text without its pin-value attribute: what may appear in a log line, on
 * D-Bus or in joinctl's output. */
gchar *eap_tls_pkcs11_uri_redact(const gchar *text);

/* "handle:0x81000001": a persistent handle (0x81000000 to 0x81ffffff). */
gboolean eap_tls_tpm_handle_parse(const gchar *text, guint32 *handle, const gchar **reason);

/* The profile check of a ClientKey (is_key) or ClientCert value in one of
 * these forms; TRUE for files (checked elsewhere). *reason as above. */
gboolean eap_tls_key_reference_is_valid(const gchar *value, gboolean is_key, gchar **reason);

G_END_DECLS
