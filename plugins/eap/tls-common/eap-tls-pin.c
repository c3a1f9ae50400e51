/* eap-tls-pin.c - server key pins (SHA-256 of the SubjectPublicKeyInfo). */
#include "eap-tls-pin.h"

#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#define BASE64_ALPHABET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

gchar *
eap_tls_pin_of_cert(X509 *cert)
{
	unsigned char *der = NULL;
	guint8 digest[EAP_TLS_PIN_LEN];
	unsigned int digest_len = 0;
	g_autofree gchar *b64 = NULL;
	int len;

	len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert), &der);
	if (len <= 0) {
		ERR_clear_error();
		return NULL;
	}
	if (EVP_Digest(der, (size_t)len, digest, &digest_len, EVP_sha256(), NULL) != 1 ||
	    digest_len != EAP_TLS_PIN_LEN) {
		OPENSSL_free(der);
		ERR_clear_error();
		return NULL;
	}
	OPENSSL_free(der);
	b64 = g_base64_encode(digest, sizeof(digest));
	return g_strconcat(EAP_TLS_PIN_PREFIX, b64, NULL);
}

/* One pin: the prefix, then exactly the base64 of 32 octets. */
static gchar *
eap_tls_pin_canonical(const gchar *pin, const gchar **reason)
{
	const gchar *text;
	g_autofree guint8 *digest = NULL;
	g_autofree gchar *b64 = NULL;
	gsize digest_len = 0;

	if (!g_str_has_prefix(pin, EAP_TLS_PIN_PREFIX)) {
		*reason = "a pin starts with “sha256/” (the only digest joind takes)";
		return NULL;
	}
	text = pin + strlen(EAP_TLS_PIN_PREFIX);
	/* g_base64_decode() skips what is not base64: check the text first. */
	if (strlen(text) != 44 || text[43] != '=' || strspn(text, BASE64_ALPHABET) != 43) {
		*reason = "after “sha256/” comes the base64 of a 32-octet SHA-256 digest "
		          "(44 characters ending in “=”)";
		return NULL;
	}
	digest = g_base64_decode(text, &digest_len);
	if (digest_len != EAP_TLS_PIN_LEN) {
		*reason = "the base64 does not decode to a 32-octet SHA-256 digest";
		return NULL;
	}
	/* Re-encoded, so that pins compare as strings. */
	b64 = g_base64_encode(digest, digest_len);
	return g_strconcat(EAP_TLS_PIN_PREFIX, b64, NULL);
}

GStrv
eap_tls_pins_parse(const gchar *value, const gchar **reason)
{
	g_auto(GStrv) words = g_strsplit_set(value != NULL ? value : "", ";, \t", -1);
	g_autoptr(GPtrArray) pins = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; words[i] != NULL; i++) {
		gchar *pin;

		if (words[i][0] == '\0')
			continue;
		pin = eap_tls_pin_canonical(words[i], reason);
		if (pin == NULL)
			return NULL;
		g_ptr_array_add(pins, pin);
	}
	if (pins->len == 0) {
		*reason = "it is empty (expected sha256/BASE64)";
		return NULL;
	}
	g_ptr_array_add(pins, NULL);
	return (GStrv)g_ptr_array_free(g_steal_pointer(&pins), FALSE);
}
