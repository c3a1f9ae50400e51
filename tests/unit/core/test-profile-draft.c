/* test-profile-draft.c - D-Bus settings turned into a profile file's text
 * (joind-profile-manager-draft.c): names and values that cannot go into a
 * file are refused, PEM bytes are embedded and dropped again with the key
 * that refers to them, an existing file keeps its comments and other
 * groups, and the listing of a file never carries a secret or PEM text.
 */
#include <string.h>

#include "joind-error.h"
#include "joind-profile-manager-draft.h"

#define CA_PEM "-----BEGIN CERTIFICATE-----\nQ0FCT0RZ\n-----END CERTIFICATE-----\n"

static GVariant *
bytes(const gchar *data, gsize len)
{
	return g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, data, len, 1);
}

static gchar *
text_of(JoindProfileDraft *draft)
{
	gsize len = 0;
	gchar *text = joind_profile_draft_to_text(draft, &len);

	g_assert_cmpuint(strlen(text), ==, len);
	return text;
}

/* set refuses settings, naming them; expected is part of the message. */
static void
expect_refused(GVariant *settings, gboolean allow_ssid, const gchar *expected)
{
	g_autoptr(JoindProfileDraft) draft = joind_profile_draft_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) held = g_variant_ref_sink(settings);

	g_assert_false(joind_profile_draft_set(draft, held, allow_ssid, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	if (strstr(error->message, expected) == NULL)
		g_error("“%s” does not say “%s”", error->message, expected);
}

static void
test_refused(void)
{
	static const gchar nul_pem[] = "-----BEGIN X-----\0";
	GVariantDict d;

	expect_refused(g_variant_new_parsed("{'Passphrase': <'x'>}"), TRUE, "“Passphrase”");
	expect_refused(g_variant_new_parsed("{'Security.Pass word': <'x'>}"), TRUE,
	               "is not a setting name");
	expect_refused(g_variant_new_parsed("{'@pem@x.y': <'x'>}"), TRUE, "is not a setting name");
	expect_refused(g_variant_new_parsed("{'Security.X\\n[Y]': <'x'>}"), TRUE,
	               "is not a setting name");
	expect_refused(g_variant_new_parsed("{'Settings.AutoConnect': <1.5>}"), TRUE, "not “d”");
	expect_refused(g_variant_new_parsed("{'Settings.SSID': <'Home'>}"), TRUE, "as bytes");
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Settings.SSID", bytes("Home", 4));
	expect_refused(g_variant_dict_end(&d), FALSE, "cannot be changed");
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Settings.SSID", bytes("", 0));
	expect_refused(g_variant_dict_end(&d), TRUE, "1 to 32 bytes");
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Security.EAP-Identity", bytes("me", 2));
	expect_refused(g_variant_dict_end(&d), TRUE, "certificates and keys");
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-CACert", bytes("\x30\x82\x01", 3));
	expect_refused(g_variant_dict_end(&d), TRUE, "must be PEM text");
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-CACert",
	                            bytes(nul_pem, sizeof(nul_pem) - 1));
	expect_refused(g_variant_dict_end(&d), TRUE, "must be PEM text");
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-CACert",
	                            bytes("-----BEGIN X-----\n[Security]\n", 29));
	expect_refused(g_variant_dict_end(&d), TRUE, "cannot start with “[”");
}

/* Values escaped by GKeyFile stay one key: a newline cannot start a group. */
static void
test_values(void)
{
	g_autoptr(JoindProfileDraft) draft = joind_profile_draft_new();
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(GVariant) settings = g_variant_ref_sink(
	        g_variant_new_parsed("{'Security.EAP-Identity': <'a\\n[Security]\\nX=1'>, "
	                             "'Settings.AutoConnect': <false>, 'Settings.N': <int32 -3>, "
	                             "'Settings.U': <uint64 7>}"));

	g_assert_true(joind_profile_draft_set(draft, settings, TRUE, &error));
	g_assert_no_error(error);
	text = text_of(draft);
	g_assert_cmpstr(text, ==,
	                "[Security]\nEAP-Identity=a\\n[Security]\\nX=1\n\n[Settings]\n"
	                "AutoConnect=false\nN=-3\nU=7\n");
}

/* An existing file: comments and unknown groups kept; PEM bytes embedded
 * (CRLF and blank lines tidied), then dropped when their key is set to a
 * path; the listing gives Has<Key> for secrets and no PEM text. */
static void
test_update_embedded(void)
{
	static const gchar file[] = "# by hand\n[Security]\nEAP-Method=TLS\nEAP-Password=pw1\n"
	                            "[Network]\nNameResolvingService=none\n";
	g_autoptr(JoindProfileDraft) draft = joind_profile_draft_new_from_text(
	        "f.8021x", (const guint8 *)file, strlen(file), NULL);
	g_autofree gchar *embedded = NULL, *after = NULL, *listed = NULL;
	g_autoptr(GVariant) set = NULL, described = NULL;
	g_autoptr(GError) error = NULL;
	GVariantDict d;
	GVariantBuilder b;

	g_assert_nonnull(draft);
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-CACert",
	                            bytes("\r\n" CA_PEM "\r\n", strlen(CA_PEM) + 4));
	set = g_variant_ref_sink(g_variant_dict_end(&d));
	g_assert_true(joind_profile_draft_set(draft, set, FALSE, &error));
	embedded = text_of(draft);
	g_assert_true(g_str_has_prefix(embedded, "# by hand\n"));
	g_assert_nonnull(strstr(embedded, "EAP-TLS-CACert=embed:EAP-TLS-CACert\n"));
	g_assert_nonnull(strstr(embedded, "NameResolvingService=none\n"));
	g_assert_true(g_str_has_suffix(embedded, "\n\n[@pem@EAP-TLS-CACert]\n" CA_PEM));

	g_variant_builder_init(&b, G_VARIANT_TYPE_VARDICT);
	joind_profile_draft_describe(draft, &b);
	described = g_variant_ref_sink(g_variant_builder_end(&b));
	listed = g_variant_print(described, FALSE);
	g_assert_nonnull(strstr(listed, "'Security.HasEAP-Password': <true>"));
	g_assert_nonnull(strstr(listed, "'Security.EAP-TLS-CACert': <'embed:EAP-TLS-CACert'>"));
	g_assert_null(strstr(listed, "pw1"));
	g_assert_null(strstr(listed, "Q0FCT0RZ"));

	g_assert_true(joind_profile_draft_unset(
	        draft, (const gchar *const[]){"Security.EAP-TLS-CACert", "Nope.Nope", NULL},
	        &error));
	after = text_of(draft);
	g_assert_null(strstr(after, "@pem@"));
	g_assert_null(strstr(after, "CACert"));
}

/* A file with a PEM group rewritten over and over stays the same size:
 * the blank line before the PEM group is not kept twice. */
static void
test_rewrite_stable(void)
{
	static const gchar file[] = "[Security]\nEAP-Method=TLS\nEAP-TLS-CACert=embed:ca\n"
	                            "\n[@pem@ca]\n" CA_PEM;
	g_autofree gchar *text = g_strdup(file);

	for (guint i = 0; i < 3; i++) {
		g_autoptr(JoindProfileDraft) draft = joind_profile_draft_new_from_text(
		        "f.8021x", (const guint8 *)text, strlen(text), NULL);
		g_autofree gchar *again = NULL;

		g_assert_nonnull(draft);
		again = text_of(draft);
		g_assert_cmpstr(again, ==, file);
		g_free(text);
		text = g_steal_pointer(&again);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/profile-draft/refused", test_refused);
	g_test_add_func("/profile-draft/values", test_values);
	g_test_add_func("/profile-draft/update-embedded", test_update_embedded);
	g_test_add_func("/profile-draft/rewrite-stable", test_rewrite_stable);
	return g_test_run();
}
