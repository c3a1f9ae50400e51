/* fuzz-sae.c - SAE's frame bodies: commits (hunting and pecking with and
 * without a token, hash-to-element), anti-clogging requests and confirms.
 * The first octet picks the variant, the rest is the body. */
#include <stddef.h>
#include <stdint.h>

#include "sae-frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_commit(const uint8_t *data, size_t size, gboolean h2e, gsize token_len)
{
	g_autoptr(GError) error = NULL;
	WifiSaeCommit commit;

	if (!wifi_sae_commit_parse(data, size, h2e, token_len, &commit, &error)) {
		g_assert_nonnull(error);
		return;
	}
	/* Everything parsed lies inside the input. */
	g_assert_true(commit.element + 2 * wifi_sae_group_prime_len(commit.group) <= data + size);
	if (commit.token != NULL)
		g_assert_true(commit.token + commit.token_len <= data + size);
	if (commit.identifier != NULL)
		g_assert_true(commit.identifier + commit.identifier_len <= data + size);
	if (commit.rejected != NULL)
		g_assert_cmpuint(commit.rejected_len % 2, ==, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) token_error = NULL;
	g_autoptr(GError) confirm_error = NULL;
	WifiSaeConfirm confirm;
	const guint8 *token;
	gsize token_len;
	guint16 group;

	if (size < 1)
		return 0;
	fuzz_commit(data + 1, size - 1, (data[0] & 1) != 0, data[0] >> 4);
	if (wifi_sae_token_parse(data + 1, size - 1, (data[0] & 1) != 0, &group, &token, &token_len,
	                         &token_error))
		g_assert_true(token + token_len <= data + size);
	else
		g_assert_nonnull(token_error);
	if (wifi_sae_confirm_parse(data + 1, size - 1, 32u << (data[0] & 1), &confirm,
	                           &confirm_error))
		g_assert_cmpuint(confirm.confirm_len + 2, ==, size - 1);
	else
		g_assert_nonnull(confirm_error);
	return 0;
}
