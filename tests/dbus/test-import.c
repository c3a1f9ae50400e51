/* test-import.c - `joinctl import` against the real daemon on a private
 * bus: eduroam CAT-style files (tests/unit/client/data/) become one 802.1X
 * profile per SSID and a wired profile for IEEE 802.3, written 0600 with
 * the CA (and the client certificate) embedded, the wired one with the
 * Match arguments given; ListProfiles shows the
 * settings and never the password; a profile of the same name is refused
 * without --replace and rewritten with it; a malformed file, a user name
 * the provider does not take, a secret on the command line and a file
 * without a method joind supports are refused with nothing written. No
 * secret appears in joinctl's output or the daemon's debug log. A hostile
 * file's strings (C0 controls through &#27; or raw, bidi overrides) reach
 * the terminal escaped, in imports that succeed and in errors.
 */
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "joinctl-run.h"
#include "test-daemon.h"

#define SECRET_PASSWORD "import-sekrit-pw"
#define USER            "alice@example.edu"

typedef struct {
	gchar *dir; /* the daemon's state directory */
	gchar *pass_file;
	TestDaemon *daemon;
	GString *output; /* everything joinctl printed, for the secret check */
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *arg = NULL;

	f->dir = g_dir_make_tmp("joind-import-XXXXXX", &error);
	g_assert_no_error(error);
	f->output = g_string_new(NULL);
	f->pass_file = g_build_filename(g_get_tmp_dir(), "joind-import-pass-XXXXXX", NULL);
	g_close(g_mkstemp(f->pass_file), NULL);
	g_assert_true(g_file_set_contents(f->pass_file, SECRET_PASSWORD "\n", -1, NULL));
	arg = g_strdup_printf("--state-dir=%s", f->dir);
	f->daemon = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"),
	                              (const gchar *const[]){arg, "--plugins=eap-*", NULL});
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_autofree gchar *rm = g_strdup_printf("rm -rf '%s'", f->dir);
	g_autofree gchar *log = test_daemon_get_log(f->daemon);

	g_assert_null(strstr(f->output->str, SECRET_PASSWORD));
	g_assert_null(strstr(f->output->str, "PRIVATE KEY"));
	g_assert_null(strstr(log, SECRET_PASSWORD));
	g_assert_cmpint(test_daemon_stop(f->daemon), ==, 0);
	test_run(rm);
	g_remove(f->pass_file);
	g_free(f->pass_file);
	g_string_free(f->output, TRUE);
	g_free(f->dir);
}

static gchar *
data_file(const gchar *name)
{
	return g_build_filename(g_getenv("JOIND_SOURCE_ROOT"), "tests", "unit", "client", "data",
	                        name, NULL);
}

#define IMPORT(f, r, ...)                                                            \
	do {                                                                         \
		run_joinctl(r, NULL, "--session", __VA_ARGS__, NULL);                \
		g_string_append_printf((f)->output, "%s\n%s\n", (r)->out, (r)->err); \
	} while (0)

static gchar *
read_state_file(Fixture *f, const gchar *name)
{
	g_autofree gchar *path = g_build_filename(f->dir, name, NULL);
	gchar *text = NULL;
	GStatBuf st;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 07777, ==, 0600);
	return text;
}

/* `joinctl --json profile list`, as a map from "kind/name" to settings. */
static JsonObject *
listed(Fixture *f)
{
	g_auto(Run) list = {0};
	g_autoptr(JsonNode) root = NULL;
	JsonObject *by_name = json_object_new();
	JsonArray *array;

	IMPORT(f, &list, "--json", "profile", "list");
	g_assert_cmpint(list.status, ==, 0);
	root = parse_json(list.out);
	array = json_node_get_array(root);
	for (guint i = 0; i < json_array_get_length(array); i++) {
		JsonObject *p = json_array_get_object_element(array, i);
		g_autofree gchar *key =
		        g_strdup_printf("%s/%s", json_object_get_string_member(p, "kind"),
		                        json_object_get_string_member(p, "name"));

		json_object_set_object_member(
		        by_name, key,
		        json_object_ref(json_object_get_object_member(p, "settings")));
	}
	return by_name;
}

static const gchar *
setting(JsonObject *profiles, const gchar *profile, const gchar *key)
{
	JsonObject *settings = json_object_get_object_member(profiles, profile);

	g_assert_nonnull(settings);
	return json_object_has_member(settings, key) ? json_object_get_string_member(settings, key)
	                                             : NULL;
}

static void
assert_peap_profile(JsonObject *profiles, const gchar *name)
{
	JsonObject *settings = json_object_get_object_member(profiles, name);

	g_assert_cmpstr(setting(profiles, name, "Security.EAP-Method"), ==, "PEAP");
	g_assert_cmpstr(setting(profiles, name, "Security.EAP-Identity"), ==,
	                "anonymous@example.edu");
	g_assert_cmpstr(setting(profiles, name, "Security.EAP-PEAP-CACert"), ==,
	                "embed:EAP-PEAP-CACert");
	g_assert_cmpstr(setting(profiles, name, "Security.EAP-PEAP-ServerDomainMask"), ==,
	                "radius1.example.edu;*.radius1.example.edu;radius2.example.edu;"
	                "*.radius2.example.edu");
	g_assert_cmpstr(setting(profiles, name, "Security.EAP-PEAP-Phase2-Method"), ==, "MSCHAPV2");
	g_assert_cmpstr(setting(profiles, name, "Security.EAP-PEAP-Phase2-Identity"), ==, USER);
	g_assert_true(
	        json_object_get_boolean_member(settings, "Security.HasEAP-PEAP-Phase2-Password"));
	g_assert_false(json_object_has_member(settings, "Security.EAP-PEAP-Phase2-Password"));
}

static void
test_peap_ssids(Fixture *f, gconstpointer data)
{
	g_autofree gchar *file = data_file("peap-mschapv2.eap-config");
	g_auto(Run) first = {0}, again = {0}, replaced = {0};
	g_autoptr(JsonNode) root = NULL;
	g_autoptr(JsonObject) profiles = NULL;
	g_autofree gchar *text = NULL;
	JsonArray *written;

	IMPORT(f, &first, "--json", "import", file, "--username", USER, "--passphrase-file",
	       f->pass_file);
	g_assert_cmpint(first.status, ==, 0);
	g_assert_nonnull(strstr(first.err, "Passpoint"));
	root = parse_json(first.out);
	g_assert_cmpstr(json_object_get_string_member(json_node_get_object(root), "method"), ==,
	                "PEAP/EAP-MSCHAPv2");
	written = json_object_get_array_member(json_node_get_object(root), "profiles");
	g_assert_cmpuint(json_array_get_length(written), ==, 2);
	text = read_state_file(f, "eduroam-5G.8021x");
	g_assert_nonnull(strstr(text, "EAP-PEAP-Phase2-Password=" SECRET_PASSWORD "\n"));
	g_assert_nonnull(strstr(text, "[@pem@EAP-PEAP-CACert]\n-----BEGIN CERTIFICATE-----"));
	profiles = listed(f);
	assert_peap_profile(profiles, "8021x/eduroam");
	assert_peap_profile(profiles, "8021x/eduroam-5G");

	IMPORT(f, &again, "import", file, "--username", USER, "--passphrase-file", f->pass_file);
	g_assert_cmpint(again.status, ==, 10);
	g_assert_nonnull(strstr(again.err, "exist already"));
	g_assert_nonnull(strstr(again.err, "--replace"));
	IMPORT(f, &replaced, "import", file, "--username", USER, "--passphrase-file", f->pass_file,
	       "--replace");
	g_assert_cmpint(replaced.status, ==, 0);
	g_assert_nonnull(strstr(replaced.out, "Replaced 8021x profile 'eduroam'"));
}

static void
test_wired(Fixture *f, gconstpointer data)
{
	g_autofree gchar *file = data_file("wired.eap-config");
	g_auto(Run) run = {0};
	g_autoptr(JsonObject) profiles = NULL;
	g_autofree gchar *text = NULL;

	IMPORT(f, &run, "import", file, "Match.Interface=eth*", "--username", USER,
	       "--passphrase-file", f->pass_file);
	g_assert_cmpint(run.status, ==, 0);
	profiles = listed(f);
	g_assert_cmpuint(json_object_get_size(profiles), ==, 2);
	g_assert_cmpstr(setting(profiles, "wired/campus-lan", "Match.Interface"), ==, "eth*");
	g_assert_null(setting(profiles, "8021x/eduroam", "Match.Interface"));
	assert_peap_profile(profiles, "8021x/eduroam");
	assert_peap_profile(profiles, "wired/campus-lan");
	text = read_state_file(f, "wired/campus-lan.8021x");
	g_assert_nonnull(strstr(text, "EAP-Method=PEAP\n"));
}

static void
test_tls_pkcs12(Fixture *f, gconstpointer data)
{
	g_autofree gchar *file = data_file("tls-pkcs12.eap-config");
	g_auto(Run) run = {0};
	g_autoptr(JsonObject) profiles = NULL;
	g_autofree gchar *text = NULL;

	/* The file holds the certificate's passphrase: nothing is asked. */
	IMPORT(f, &run, "import", file);
	g_assert_cmpint(run.status, ==, 0);
	profiles = listed(f);
	g_assert_cmpstr(setting(profiles, "8021x/eduroam", "Security.EAP-Method"), ==, "TLS");
	g_assert_cmpstr(setting(profiles, "8021x/eduroam", "Security.EAP-TLS-ClientCert"), ==,
	                "embed:EAP-TLS-ClientCert");
	g_assert_cmpstr(setting(profiles, "8021x/eduroam", "Security.EAP-TLS-ClientKey"), ==,
	                "embed:EAP-TLS-ClientKey");
	text = read_state_file(f, "eduroam.8021x");
	g_assert_nonnull(strstr(text, "[@pem@EAP-TLS-ClientKey]\n-----BEGIN PRIVATE KEY-----"));
}

static void
assert_nothing_written(Fixture *f)
{
	g_autoptr(GDir) dir = g_dir_open(f->dir, 0, NULL);
	const gchar *name;

	while ((name = g_dir_read_name(dir)) != NULL) {
		if (g_str_has_suffix(name, ".8021x"))
			g_error("%s was written", name);
	}
}

static void
test_refused(Fixture *f, gconstpointer data)
{
	g_autofree gchar *peap = data_file("peap-mschapv2.eap-config");
	g_autofree gchar *hostile = g_build_filename(f->dir, "hostile.eap-config", NULL);
	g_autofree gchar *fast = g_build_filename(f->dir, "fast.eap-config", NULL);
	g_auto(Run) doctype = {0}, no_user = {0}, bad_user = {0}, argv_secret = {0},
	            unsupported = {0}, missing = {0};

	g_assert_true(g_file_set_contents(
	        hostile,
	        "<?xml version=\"1.0\"?>\n<!DOCTYPE l [<!ENTITY a \"aaaaaaaa\">]>\n"
	        "<EAPIdentityProviderList>&a;</EAPIdentityProviderList>\n",
	        -1, NULL));
	IMPORT(f, &doctype, "import", hostile, "--username", USER);
	g_assert_cmpint(doctype.status, ==, 2);
	g_assert_nonnull(strstr(doctype.err, "line 2:1: <!DOCTYPE> and entity declarations"));
	IMPORT(f, &no_user, "import", peap, "--passphrase-file", f->pass_file);
	g_assert_cmpint(no_user.status, ==, 2);
	g_assert_nonnull(strstr(no_user.err, "--username"));
	IMPORT(f, &bad_user, "import", peap, "--username", "alice", "--passphrase-file",
	       f->pass_file);
	g_assert_cmpint(bad_user.status, ==, 2);
	g_assert_nonnull(strstr(bad_user.err, "user@example.edu"));
	IMPORT(f, &argv_secret, "import", peap, "--username", USER, "--password", "x");
	g_assert_cmpint(argv_secret.status, ==, 2);
	g_assert_true(g_file_set_contents(
	        fast,
	        "<EAPIdentityProviderList><EAPIdentityProvider><AuthenticationMethods>"
	        "<AuthenticationMethod><EAPMethod><Type>43</Type></EAPMethod>"
	        "</AuthenticationMethod></AuthenticationMethods><CredentialApplicability>"
	        "<IEEE80211><SSID>eduroam</SSID></IEEE80211></CredentialApplicability>"
	        "</EAPIdentityProvider></EAPIdentityProviderList>",
	        -1, NULL));
	IMPORT(f, &unsupported, "import", fast, "--username", USER);
	g_assert_cmpint(unsupported.status, ==, 5);
	g_assert_nonnull(strstr(unsupported.err, "EAP type 43"));
	IMPORT(f, &missing, "import", "/nonexistent.eap-config");
	g_assert_cmpint(missing.status, ==, 2);
	assert_nothing_written(f);
}

/* peap-mschapv2.eap-config with each FROM replaced by its TO, written to
 * the state directory as name. */
static gchar *
hostile_copy(Fixture *f, const gchar *name, ...)
{
	g_autofree gchar *source = data_file("peap-mschapv2.eap-config");
	gchar *text = NULL;
	gchar *copy = g_build_filename(f->dir, name, NULL);
	const gchar *from;
	va_list args;

	g_assert_true(g_file_get_contents(source, &text, NULL, NULL));
	va_start(args, name);
	while ((from = va_arg(args, const gchar *)) != NULL) {
		g_auto(GStrv) parts = g_strsplit(text, from, -1);

		g_assert_cmpuint(g_strv_length(parts), >, 1);
		g_free(text);
		text = g_strjoinv(va_arg(args, const gchar *), parts);
	}
	va_end(args);
	g_assert_true(g_file_set_contents(copy, text, -1, NULL));
	g_free(text);
	return copy;
}

/* Nothing that moves a terminal's cursor, retitles it, rings it or
 * reorders its text. */
static void
assert_printable(const gchar *text)
{
	static const gunichar bidi[] = {0x202e, 0x2066};

	for (const gchar *p = text; *p != '\0'; p++)
		g_assert_false((guchar)*p < 0x20 && *p != '\n' && *p != '\t');
	for (guint i = 0; i < G_N_ELEMENTS(bidi); i++) {
		gchar utf8[8] = {0};

		g_unichar_to_utf8(bidi[i], utf8);
		g_assert_null(strstr(text, utf8));
	}
}

static void
test_escaped(Fixture *f, gconstpointer data)
{
	/* Element text refuses C0 controls; bidi overrides pass. */
	g_autofree gchar *named = hostile_copy(f, "named.eap-config", "Example University",
	                                       "Example&#x202E;ytisrevinU&#x2066; x", NULL);
	/* Attribute values take C0 controls, raw or as references; without a
	 * display name the provider's ID is printed. */
	g_autofree gchar *by_id =
	        hostile_copy(f, "id.eap-config", "ID=\"example.edu\"",
	                     "ID=\"ex&#27;]0;owned&#7;\x1b[2J&#x202E;\"",
	                     "<DisplayName lang=\"en\">Example University</DisplayName>", "", NULL);
	g_autofree gchar *bad_format = hostile_copy(f, "format.eap-config", "format=\"X.509\"",
	                                            "format=\"X&#27;[31m.509&#x202E;\"", NULL);
	g_auto(Run) imported = {0}, imported_id = {0}, refused = {0};

	IMPORT(f, &imported, "import", named, "--username", USER, "--passphrase-file",
	       f->pass_file);
	g_assert_cmpint(imported.status, ==, 0);
	assert_printable(imported.out);
	assert_printable(imported.err);
	g_assert_nonnull(strstr(imported.out, "Example\\u202eytisrevinU\\u2066 x"));
	IMPORT(f, &imported_id, "import", by_id, "--username", USER, "--passphrase-file",
	       f->pass_file, "--replace");
	g_assert_cmpint(imported_id.status, ==, 0);
	assert_printable(imported_id.out);
	assert_printable(imported_id.err);
	g_assert_nonnull(strstr(imported_id.out, "ex\\x1b]0;owned\\x07\\x1b[2J\\u202e"));
	IMPORT(f, &refused, "import", bad_format, "--username", USER, "--passphrase-file",
	       f->pass_file, "--replace");
	g_assert_cmpint(refused.status, ==, 2);
	assert_printable(refused.out);
	assert_printable(refused.err);
	g_assert_nonnull(strstr(refused.err, "X\\x1b[31m.509\\u202e"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/import/peap-ssids", Fixture, NULL, fixture_setup, test_peap_ssids,
	           fixture_teardown);
	g_test_add("/import/wired", Fixture, NULL, fixture_setup, test_wired, fixture_teardown);
	g_test_add("/import/tls-pkcs12", Fixture, NULL, fixture_setup, test_tls_pkcs12,
	           fixture_teardown);
	g_test_add("/import/refused", Fixture, NULL, fixture_setup, test_refused, fixture_teardown);
	g_test_add("/import/escaped", Fixture, NULL, fixture_setup, test_escaped, fixture_teardown);
	return g_test_run();
}
