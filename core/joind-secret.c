/* joind-secret.c - tags for logging secrets without revealing them. */
#include "joind-secret.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

/* Drawn once per process: tags are comparable within one run only, and a
 * short tag of a weak password cannot be brute-forced offline. */
static guint8 tag_key[32];

static void
tag_key_init(void)
{
	static gsize done = 0;

	if (g_once_init_enter(&done)) {
		if (RAND_bytes(tag_key, sizeof(tag_key)) != 1) {
			for (gsize i = 0; i < sizeof(tag_key); i++)
				tag_key[i] = (guint8)g_random_int();
		}
		g_once_init_leave(&done, 1);
	}
}

gchar *
joind_secret_tag(const void *data, gsize len)
{
	guint8 mac[EVP_MAX_MD_SIZE];
	unsigned int mac_len = 0;

	if (data == NULL || len == 0)
		return g_strdup("<secret:none>");
	tag_key_init();
	if (HMAC(EVP_sha256(), tag_key, sizeof(tag_key), data, len, mac, &mac_len) == NULL)
		return g_strdup("<secret>");
	return g_strdup_printf("<secret:%02x%02x%02x%02x>", mac[0], mac[1], mac[2], mac[3]);
}

void
joind_secret_clear(void *data, gsize len)
{
	if (data != NULL)
		OPENSSL_cleanse(data, len);
}

void
joind_secret_wipe(gchar *secret)
{
	if (secret == NULL)
		return;
	OPENSSL_cleanse(secret, strlen(secret));
	g_free(secret);
}
