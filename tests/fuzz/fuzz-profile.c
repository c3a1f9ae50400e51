/* fuzz-profile.c - the profile parser (key-file syntax, embedded PEMs, value
 * checks, [Match]) and the SSID <-> file name codec.
 *
 * Besides "no crash", it checks the invariants the store relies on: every
 * refusal names the file; what our line scan accepts GKeyFile accepts too
 * (else the error could not name the line); a file name maps back to the
 * SSID it came from, and an accepted name is the canonical one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "joind-keyfile.h"
#include "joind-profile-keys.h"
#include "joind-profile-private.h"
#include "joind-profile-store.h"
#include "profile-keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_PATH "/fuzz/state/fuzz.psk"

static void
check(gboolean ok, const gchar *what)
{
	if (!ok) {
		g_printerr("fuzz-profile: invariant broken: %s\n", what);
		abort();
	}
}

static void
exercise(JoindProfile *p)
{
	static const gchar *const keys[][2] = {
	        {"Security", "Passphrase"}, {"Security", "PreSharedKey"},
	        {"Security", "EAP-Method"}, {"Settings", "AutoConnect"},
	        {"Match", "Interface"},     {"Match", "MACAddress"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
		g_autofree gchar *value = joind_profile_get_string(p, keys[i][0], keys[i][1]);
		guint line = joind_profile_get_line(p, keys[i][0], keys[i][1]);

		check((value != NULL) == joind_profile_has_key(p, keys[i][0], keys[i][1]),
		      "get_string and has_key agree");
		check(value == NULL || line > 0, "a key that is there has a line");
		(void)joind_profile_get_boolean(p, keys[i][0], keys[i][1], TRUE);
	}
	(void)joind_profile_matches_link(p, "eth0", "02:00:00:00:00:01");
	(void)joind_profile_matches_link(p, NULL, NULL);
	(void)joind_profile_get_embedded_pem(p, "ca");
	(void)joind_profile_get_warnings(p);
	(void)joind_profile_holds_secrets(p);
	check(joind_profile_get_name(p) != NULL, "a profile has a name");
}

/* What EAP-RememberCredentials does to an accepted file: the result loads,
 * reads back the values set, and differs from the original only by them. */
static void
exercise_update(JoindProfile *p, const uint8_t *data, size_t size)
{
	const gchar *const keys[] = {"EAP-Password", "EAP-Identity", NULL};
	const gchar *const values[] = {" a\\b\nc\t ", "x=y", NULL};
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) updated = NULL;
	g_auto(GStrv) changed = NULL;
	gsize len = 0;
	gchar *text = joind_keyfile_set_strings((const gchar *)data, size, "Security", keys, values,
	                                        &len);

	updated = joind_profile_parse(FUZZ_PATH, joind_profile_get_profile_type(p),
	                              joind_profile_get_ssid(p), (const guint8 *)text, len, &error);
	g_free(text);
	check(updated != NULL, "a file with keys set still loads");
	for (guint i = 0; keys[i] != NULL; i++) {
		g_autofree gchar *value = joind_profile_get_string(updated, "Security", keys[i]);
		check(g_strcmp0(value, values[i]) == 0, "a value set reads back");
	}
	changed = joind_profile_security_changes(p, updated);
	check(changed != NULL, "setting keys changes only [Security]");
	for (guint i = 0; changed[i] != NULL; i++)
		check(g_strv_contains(keys, changed[i]), "setting keys changes only those keys");
}

static void
fuzz_parser(const uint8_t *data, size_t size)
{
	static const JoindProfileType types[] = {
	        JOIND_PROFILE_TYPE_OPEN,
	        JOIND_PROFILE_TYPE_PSK,
	        JOIND_PROFILE_TYPE_8021X,
	        JOIND_PROFILE_TYPE_WIRED,
	};
	g_autoptr(GBytes) ssid = g_bytes_new("fuzz", 4);

	for (guint i = 0; i < G_N_ELEMENTS(types); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JoindProfile) p = joind_profile_parse(
		        FUZZ_PATH, types[i], types[i] == JOIND_PROFILE_TYPE_WIRED ? NULL : ssid,
		        data, size, &error);

		if (p != NULL) {
			check(error == NULL, "no error with a profile");
			check(joind_profile_has_contents(p, data, size),
			      "a profile keeps its bytes");
			exercise(p);
			if (types[i] == JOIND_PROFILE_TYPE_WIRED)
				exercise_update(p, data, size);
			continue;
		}
		check(error != NULL, "an error without a profile");
		check(g_str_has_prefix(error->message, FUZZ_PATH), "every refusal names the file");
		check(strcmp(error->message, FUZZ_PATH ": not a valid key file") != 0,
		      "GKeyFile accepts what the line scan accepts");
	}
}

static void
fuzz_names(const uint8_t *data, size_t size)
{
	g_autofree gchar *basename = g_strndup((const gchar *)data, size);
	g_autoptr(GBytes) ssid = NULL;
	JoindProfileType type = JOIND_PROFILE_TYPE_OPEN;

	if (size >= 1 && size <= 32) {
		g_autofree gchar *name =
		        joind_profile_ssid_to_filename(data, size, JOIND_PROFILE_TYPE_PSK);
		g_autoptr(GBytes) back = NULL;

		check(name != NULL && strchr(name, '/') == NULL, "an SSID gives a file name");
		check(joind_profile_filename_to_ssid(name, &back, &type), "the name parses back");
		check(type == JOIND_PROFILE_TYPE_PSK && g_bytes_get_size(back) == size &&
		              memcmp(g_bytes_get_data(back, NULL), data, size) == 0,
		      "the name gives back the SSID");
	}
	if (joind_profile_filename_to_ssid(basename, &ssid, &type)) {
		g_autofree gchar *again = joind_profile_ssid_to_filename(
		        g_bytes_get_data(ssid, NULL), g_bytes_get_size(ssid), type);
		check(g_strcmp0(again, basename) == 0, "an accepted name is the canonical one");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* As the loader declares them from the WiFi plugin's manifest. */
	joind_profile_keys_declare(wifi_profile_keys);
	fuzz_parser(data, size);
	fuzz_names(data, size);
	return 0;
}
