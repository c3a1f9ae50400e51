/* test-secret.c - joind_secret_tag() and the wiping helpers.
 *
 * The tag is how a log tells two secrets apart without showing them: it must
 * have a fixed shape, be stable within one process, differ between values,
 * never contain the secret, not be the plain (unkeyed) hash of it, and
 * differ between processes (the key is drawn at start-up).
 */
#include <string.h>

#include <glib.h>

#include "joind-secret.h"

static gboolean
is_tag(const gchar *tag)
{
	if (!g_str_has_prefix(tag, "<secret:") || !g_str_has_suffix(tag, ">"))
		return FALSE;
	if (strlen(tag) != strlen("<secret:") + 8 + 1)
		return FALSE;
	for (gsize i = strlen("<secret:"); i < strlen(tag) - 1; i++) {
		if (!g_ascii_isxdigit(tag[i]) || g_ascii_isupper(tag[i]))
			return FALSE;
	}
	return TRUE;
}

static void
test_tag_empty(void)
{
	g_autofree gchar *null_tag = joind_secret_tag(NULL, 0);
	g_autofree gchar *empty_tag = joind_secret_tag("", 0);
	g_autofree gchar *null_len_tag = joind_secret_tag(NULL, 5);

	g_assert_cmpstr(null_tag, ==, "<secret:none>");
	g_assert_cmpstr(empty_tag, ==, "<secret:none>");
	g_assert_cmpstr(null_len_tag, ==, "<secret:none>");
}

static void
test_tag_shape_and_stability(void)
{
	const gchar *secret = "correct horse battery staple";
	g_autofree gchar *a = joind_secret_tag(secret, strlen(secret));
	g_autofree gchar *b = joind_secret_tag(secret, strlen(secret));

	g_assert_true(is_tag(a));
	g_assert_cmpstr(a, ==, b);
}

static void
test_tag_distinguishes(void)
{
	/* Near misses of one another: one byte, one bit, a prefix, a NUL. */
	static const struct {
		const gchar *data;
		gsize len;
	} values[] = {
	        {"md5pass", 7}, {"md5pasS", 7}, {"md5pas", 6}, {"md5pass\0", 8},
	        {"Md5pass", 7}, {"\x01", 1},    {"\x00", 1},   {"\x03", 1},
	};
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (gsize i = 0; i < G_N_ELEMENTS(values); i++) {
		gchar *tag = joind_secret_tag(values[i].data, values[i].len);

		g_assert_true(is_tag(tag));
		/* A collision of these 32-bit tags has a chance of about 1e-8. */
		g_assert_false(g_hash_table_contains(seen, tag));
		g_hash_table_add(seen, tag);
	}
}

static void
test_tag_uses_len_not_nul(void)
{
	g_autofree gchar *prefix = joind_secret_tag("secretXYZ", 6);
	g_autofree gchar *whole = joind_secret_tag("secret", 6);

	g_assert_cmpstr(prefix, ==, whole);
}

static void
test_tag_hides_secret(void)
{
	/* A hex secret would be the likeliest to leak into a hex tag. */
	const gchar *secret = "deadbeef";
	g_autofree gchar *tag = joind_secret_tag(secret, strlen(secret));
	g_autofree gchar *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, secret, -1);
	g_autofree gchar *sha_prefix = g_strndup(sha, 8);
	g_autofree gchar *md5 = g_compute_checksum_for_string(G_CHECKSUM_MD5, secret, -1);
	g_autofree gchar *md5_prefix = g_strndup(md5, 8);

	g_assert_true(is_tag(tag));
	g_assert_null(strstr(tag, secret));
	/* Keyed: not a prefix of a plain hash an attacker could precompute
	 * (chance of a false failure: 2^-32 per comparison). */
	g_assert_null(strstr(tag, sha_prefix));
	g_assert_null(strstr(tag, md5_prefix));
}

static void
test_tag_differs_across_processes(void)
{
	const gchar *secret = "md5pass";
	g_autofree gchar *here = joind_secret_tag(secret, strlen(secret));
	g_autofree gchar *pattern = NULL;

	if (g_test_subprocess()) {
		g_autofree gchar *there = joind_secret_tag(secret, strlen(secret));

		g_assert_true(is_tag(there));
		g_print("tag=%s\n", there);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_passed();
	g_test_trap_assert_stdout("tag=<secret:*>\n");
	/* Each process draws its own key, so the same secret gets another tag
	 * (chance of a false failure: 2^-32). */
	pattern = g_strdup_printf("*%s*", here);
	g_test_trap_assert_stdout_unmatched(pattern);
}

static void
test_clear(void)
{
	guint8 buf[64];
	guint8 zero[sizeof(buf)] = {0};

	memset(buf, 0xa5, sizeof(buf));
	joind_secret_clear(buf + 8, 32);
	for (gsize i = 0; i < sizeof(buf); i++)
		g_assert_cmpuint(buf[i], ==, (i >= 8 && i < 40) ? 0 : 0xa5);
	joind_secret_clear(buf, sizeof(buf));
	g_assert_cmpmem(buf, sizeof(buf), zero, sizeof(zero));
	/* NULL and zero length are no-ops, not crashes. */
	joind_secret_clear(NULL, 16);
	joind_secret_clear(buf, 0);
}

/* The binary is linked with -Wl,--wrap=g_free: joind_secret_wipe()'s
 * g_free() lands here first, where the block can still be read. */
void __real_g_free(gpointer mem);
void __wrap_g_free(gpointer mem);

static struct {
	gconstpointer watched;
	gsize len;
	gboolean freed;
	gboolean zero;
} wipe_seen;

void
__wrap_g_free(gpointer mem)
{
	if (mem != NULL && mem == wipe_seen.watched) {
		const guint8 *p = mem;

		wipe_seen.freed = TRUE;
		wipe_seen.zero = TRUE;
		for (gsize i = 0; i < wipe_seen.len; i++)
			wipe_seen.zero = wipe_seen.zero && p[i] == 0;
	}
	__real_g_free(mem);
}

static void
wipe_watched(const gchar *value)
{
	gchar *secret = g_strdup(value);

	memset(&wipe_seen, 0, sizeof(wipe_seen));
	wipe_seen.watched = secret;
	wipe_seen.len = strlen(value) + 1;
	joind_secret_wipe(secret);
	wipe_seen.watched = NULL;
	g_assert_true(wipe_seen.freed);
	g_assert_true(wipe_seen.zero);
}

static void
test_wipe(void)
{
	/* Overwritten (the NUL too: nothing of it is left), then freed. */
	wipe_watched("peappass");
	wipe_watched("x");
	wipe_watched("");
	joind_secret_wipe(NULL);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/secret/tag/empty", test_tag_empty);
	g_test_add_func("/secret/tag/shape-and-stability", test_tag_shape_and_stability);
	g_test_add_func("/secret/tag/distinguishes", test_tag_distinguishes);
	g_test_add_func("/secret/tag/uses-len-not-nul", test_tag_uses_len_not_nul);
	g_test_add_func("/secret/tag/hides-secret", test_tag_hides_secret);
	g_test_add_func("/secret/tag/differs-across-processes", test_tag_differs_across_processes);
	g_test_add_func("/secret/clear", test_clear);
	g_test_add_func("/secret/wipe", test_wipe);
	return g_test_run();
}
