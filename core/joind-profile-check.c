/* joind-profile-check.c - a profile file's groups and keys against
 * iwd.network(5) (iwd 2.3) and joind's additions.
 *
 * The core knows its own keys (AutoConnect and Hidden, which KnownNetwork1
 * shows; the EAP keys through the method registry, each method checking
 * its own with joind_eap_check_profile()); every other key is a plugin's,
 * checked by the kind of value its plugin declared (joind-profile-keys.h).
 * Unknown keys and groups are
 * warned about with their line, never silently dropped: they stay in the
 * file when joind rewrites it, as do [Network], [IPv4] and [IPv6], whose IP
 * settings joind leaves to the network manager.
 */
#include "joind-profile-check.h"

#include <string.h>

#include "joind-eap-method.h"
#include "joind-keyfile.h"
#include "joind-mac.h"
#include "joind-profile-keys.h"
#include "joind-profile-private.h"
#include "joind-secret.h"

#define MAC_LEN 6

/* The core's own [Settings] keys: KnownNetwork1 shows them. */
static const gchar *const core_settings[] = {"AutoConnect", "Hidden", NULL};

static void check_declared(JoindProfileCheck *check, const JoindProfileKey *declared,
                           const gchar *group, const gchar *key, const gchar *value);

static const gchar *const tls_versions[] = {"1.0", "1.1", "1.2", "1.3", NULL};

typedef struct {
	guint line;
	gchar *text;
} CheckNote;

static void
check_note_free(gpointer data)
{
	CheckNote *note = data;

	g_free(note->text);
	g_free(note);
}

static void G_GNUC_PRINTF(5, 0)
        check_note_v(JoindProfileCheck *check, GPtrArray *notes, const gchar *group,
                     const gchar *key, const gchar *format, va_list args)
{
	CheckNote *note = g_new0(CheckNote, 1);
	g_autofree gchar *text = g_strdup_vprintf(format, args);

	note->line = joind_keyfile_find_line(check->contents, group, key);
	if (note->line > 0)
		note->text = g_strdup_printf("%s:%u: %s", check->path, note->line, text);
	else
		note->text = g_strdup_printf("%s: %s", check->path, text);
	g_ptr_array_add(notes, note);
}

void
joind_profile_check_fail(JoindProfileCheck *check, const gchar *group, const gchar *key,
                         const gchar *format, ...)
{
	va_list args;

	va_start(args, format);
	check_note_v(check, check->problems, group, key, format, args);
	va_end(args);
}

void
joind_profile_check_warn(JoindProfileCheck *check, const gchar *group, const gchar *key,
                         const gchar *format, ...)
{
	va_list args;

	va_start(args, format);
	check_note_v(check, check->warnings, group, key, format, args);
	va_end(args);
}

gchar *
joind_profile_check_show(const gchar *key, const gchar *value)
{
	gchar *shown;

	if (joind_profile_key_is_secret(key))
		return g_strdup("(hidden)");
	if (g_utf8_strlen(value, -1) > 48) {
		g_autofree gchar *head = g_utf8_substring(value, 0, 48);
		shown = g_strconcat(head, "…", NULL);
	} else {
		shown = g_strdup(value);
	}
	for (gchar *p = shown; *p != '\0'; p++) {
		if ((guchar)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	return shown;
}

static gboolean
str_in_list(const gchar *value, const gchar *const *list)
{
	for (guint i = 0; list[i] != NULL; i++) {
		if (g_ascii_strcasecmp(value, list[i]) == 0)
			return TRUE;
	}
	return FALSE;
}

static void
check_boolean(JoindProfileCheck *check, const gchar *group, const gchar *key)
{
	GKeyFile *kf = check->keyfile;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *raw = NULL;
	g_autofree gchar *shown = NULL;

	if (!joind_keyfile_has_key(kf, group, key))
		return;
	g_key_file_get_boolean(kf, group, key, &error);
	if (error == NULL)
		return;
	raw = g_key_file_get_value(kf, group, key, NULL);
	shown = joind_profile_check_show(key, raw != NULL ? raw : "");
	joind_profile_check_fail(check, group, key, "%s: “%s” is not a boolean (use true or false)",
	                         key, shown);
}

gchar *
joind_profile_check_get_string(JoindProfileCheck *check, const gchar *group, const gchar *key)
{
	GKeyFile *kf = check->keyfile;
	g_autoptr(GError) error = NULL;
	gchar *value;

	if (!joind_keyfile_has_key(kf, group, key))
		return NULL;
	/* GKeyFile returns a value even when it sets an error for it. */
	value = g_key_file_get_string(kf, group, key, &error);
	if (error != NULL) {
		joind_secret_wipe(value);
		value = NULL;
		joind_profile_check_fail(
		        check, group, key,
		        "%s: invalid escape sequence (a backslash may only be followed by "
		        "s, n, t, r or another backslash)",
		        key);
	}
	return value;
}

/* Escape errors were reported while reading all of [Security]. */
static gchar *
security_string(JoindProfileCheck *check, const gchar *key)
{
	g_autoptr(GError) error = NULL;
	gchar *value = g_key_file_get_string(check->keyfile, "Security", key, &error);

	if (error != NULL) {
		joind_secret_wipe(value);
		return NULL;
	}
	return value;
}

/* The EAP method registry checks the methods named and each method its own
 * keys; its sentences name file and line already. */
static void
check_eap_methods(JoindProfileCheck *check)
{
	g_autoptr(GError) error = NULL;
	CheckNote *note;

	if (joind_eap_check_profile(check->profile, "EAP-", &error))
		return;
	note = g_new0(CheckNote, 1);
	note->line = joind_keyfile_find_line(check->contents, "Security", "EAP-Method");
	note->text = g_strdup(error->message);
	g_ptr_array_add(check->problems, note);
}

/* Certificates and keys: an absolute path, or iwd's embed:<name>. */
static void
check_pem_reference(JoindProfileCheck *check, const gchar *key, const gchar *value)
{
	g_autofree gchar *shown = joind_profile_check_show(key, value);

	if (g_str_has_prefix(value, "embed:")) {
		const gchar *name = value + strlen("embed:");
		if (check->pems == NULL || !g_hash_table_contains(check->pems, name))
			joind_profile_check_fail(
			        check, "Security", key,
			        "%s: “%s” names no embedded PEM of this file (no [@pem@name] "
			        "group by that name)",
			        key, shown);
		return;
	}
	/* A relative path is fine: the EAP engine resolves it against the
	 * profile's own directory (a profile and its certificates travel
	 * together). */
}

static void
check_tls_version(JoindProfileCheck *check, const gchar *key, const gchar *value)
{
	g_autofree gchar *shown = NULL;
	g_autofree gchar *max_key = NULL;
	g_autofree gchar *max = NULL;

	if (!str_in_list(value, tls_versions)) {
		shown = joind_profile_check_show(key, value);
		joind_profile_check_fail(check, "Security", key,
		                         "%s: “%s” is not a TLS version (1.0 to 1.3)", key, shown);
		return;
	}
	if (!g_str_has_suffix(key, "-Min"))
		return;
	max_key = g_strdup_printf("%.*sMax", (int)(strlen(key) - strlen("Min")), key);
	max = security_string(check, max_key);
	if (max != NULL && str_in_list(max, tls_versions) && strcmp(value, max) > 0)
		joind_profile_check_fail(check, "Security", key, "%s is above %s", key, max_key);
}

static void
check_eap_key(JoindProfileCheck *check, const gchar *key, const gchar *value)
{
	if (strcmp(key, "EAP-Method") == 0)
		check_eap_methods(check);
	else if (g_str_has_suffix(key, "-CACert") || g_str_has_suffix(key, "-ClientCert") ||
	         g_str_has_suffix(key, "-ClientKey") || g_str_has_suffix(key, "-ClientKeyBundle"))
		check_pem_reference(check, key, value);
	else if (g_str_has_suffix(key, "-Version-Min") || g_str_has_suffix(key, "-Version-Max"))
		check_tls_version(check, key, value);
	else if (g_str_has_suffix(key, "-ServerDomainMask") && value[0] == '\0')
		joind_profile_check_fail(check, "Security", key, "%s is empty", key);
	else if (strcmp(key, "EAP-RememberCredentials") == 0 ||
	         g_str_has_suffix(key, "-FastReauthentication") ||
	         g_str_has_suffix(key, "-SystemCA"))
		check_boolean(check, "Security", key);
}

/* Reads every [Security] value once: bad escapes are reported for all keys,
 * EAP keys are checked in 802.1X profiles, unknown keys warned about. */
/* iwd's systemd-creds encryption of [Security] (SystemdEncrypt): the
 * secrets sit in EncryptedSecurity, sealed with a key joind cannot use. */
static gboolean
security_is_encrypted(JoindProfileCheck *check, const gchar *key)
{
	if (strcmp(key, "EncryptedSecurity") != 0 && strcmp(key, "EncryptedSalt") != 0)
		return FALSE;
	joind_profile_check_fail(check, "Security", key,
	                         "%s: this profile's [Security] group is encrypted with "
	                         "systemd-creds (iwd's SystemdEncrypt); joind does not support "
	                         "systemd-creds encrypted profiles: provision the profile "
	                         "unencrypted (mode 0600)",
	                         key);
	return TRUE;
}

/* Known keys are checked further; others are warned about (and kept). */
static gboolean
security_key_is_known(JoindProfileCheck *check, const gchar *key)
{
	gboolean eap =
	        check->type == JOIND_PROFILE_TYPE_8021X || check->type == JOIND_PROFILE_TYPE_WIRED;

	if (security_is_encrypted(check, key))
		return FALSE;
	if (eap && joind_eap_key_is_known(key))
		return TRUE;
	if (joind_profile_keys_lookup(check->type, "Security", key) != NULL)
		return TRUE;
	joind_profile_check_warn(check, "Security", key,
	                         "[Security] %s is not a key of a .%s profile joind knows "
	                         "(iwd.network(5)): it is ignored",
	                         key, joind_profile_type_to_extension(check->type));
	return FALSE;
}

static void
check_security(JoindProfileCheck *check)
{
	JoindProfileType type = check->type;
	gboolean eap = type == JOIND_PROFILE_TYPE_8021X || type == JOIND_PROFILE_TYPE_WIRED;
	g_auto(GStrv) keys = g_key_file_get_keys(check->keyfile, "Security", NULL, NULL);

	for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
		gchar *value = joind_profile_check_get_string(check, "Security", keys[i]);
		const JoindProfileKey *declared =
		        joind_profile_keys_lookup(type, "Security", keys[i]);

		if (security_key_is_known(check, keys[i]) && value != NULL && declared != NULL)
			check_declared(check, declared, "Security", keys[i], value);
		else if (value != NULL && eap)
			check_eap_key(check, keys[i], value);
		joind_secret_wipe(value);
	}
	/* Encrypted: what it lacks is said by the encryption's sentence. */
	if (joind_keyfile_has_key(check->keyfile, "Security", "EncryptedSecurity"))
		return;
	if (eap && !joind_keyfile_has_key(check->keyfile, "Security", "EAP-Method"))
		joind_profile_check_fail(
		        check, "Security", NULL,
		        "EAP-Method= is missing from [Security]: an 802.1X profile names its "
		        "EAP method (TLS, PEAP, TTLS, MD5, ...)");
}

static gint
check_note_compare(gconstpointer a, gconstpointer b)
{
	const CheckNote *na = *(const CheckNote *const *)a;
	const CheckNote *nb = *(const CheckNote *const *)b;

	return (na->line > nb->line) - (na->line < nb->line);
}

/* g_ptr_array_sort is stable: notes of one line keep their order. */
gchar *
joind_profile_check_join(GPtrArray *notes)
{
	GString *text = g_string_new(NULL);

	g_ptr_array_sort(notes, check_note_compare);
	for (guint i = 0; i < notes->len; i++) {
		const CheckNote *note = g_ptr_array_index(notes, i);
		if (i > 0)
			g_string_append_c(text, '\n');
		g_string_append(text, note->text);
	}
	return g_string_free(text, FALSE);
}

/* ---- [Settings] ---------------------------------------------------------- */

/* A station's own address (AddressOverride, as iwd): unicast, not all
 * zero. */
static void
check_unicast_address(JoindProfileCheck *check, const gchar *group, const gchar *key,
                      const gchar *value)
{
	static const guint8 zero[MAC_LEN] = {0};
	guint8 mac[MAC_LEN];
	g_autofree gchar *shown = joind_profile_check_show(key, value);

	if (!joind_mac_parse(value, mac))
		joind_profile_check_fail(check, group, key,
		                         "%s: “%s” is not a MAC address (expected six hexadecimal "
		                         "bytes such as 02:00:5e:10:00:01)",
		                         key, shown);
	else if ((mac[0] & 0x01) != 0 || memcmp(mac, zero, MAC_LEN) == 0)
		joind_profile_check_fail(check, group, key,
		                         "%s: “%s” is a %s address; a station needs a unicast one",
		                         key, shown, (mac[0] & 0x01) != 0 ? "multicast" : "zero");
}

static void
check_words(JoindProfileCheck *check, const JoindProfileKey *declared, const gchar *group,
            const gchar *key, const gchar *value)
{
	g_auto(GStrv) words = g_strsplit(value, ",", -1);
	g_autofree gchar *allowed = g_strjoinv(", ", (gchar **)declared->choices);

	for (guint i = 0; words[i] != NULL; i++) {
		g_strstrip(words[i]);
		if (words[i][0] == '\0' || g_strv_contains(declared->choices, words[i]))
			continue;
		g_autofree gchar *shown = joind_profile_check_show(key, words[i]);
		joind_profile_check_fail(check, group, key,
		                         "%s: “%s” is not %s (%s; comma-separated)", key, shown,
		                         declared->what, allowed);
	}
}

/* IEEE 802.11 Annex J: 8 to 63 characters, each in ASCII 32..126. */
static gboolean
passphrase_is_valid(const gchar *passphrase)
{
	gsize len = strlen(passphrase);

	if (len < 8 || len > 63)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if ((guchar)passphrase[i] < 32 || (guchar)passphrase[i] > 126)
			return FALSE;
	}
	return TRUE;
}

static gboolean
hex256_is_valid(const gchar *text)
{
	if (strlen(text) != 64)
		return FALSE;
	for (guint i = 0; i < 64; i++) {
		if (!g_ascii_isxdigit(text[i]))
			return FALSE;
	}
	return TRUE;
}

/* A key a plugin declared, by the kind of value it takes; a secret's
 * value is never quoted. */
static void
check_declared(JoindProfileCheck *check, const JoindProfileKey *declared, const gchar *group,
               const gchar *key, const gchar *value)
{
	switch (declared->type) {
	case JOIND_PROFILE_KEY_BOOL:
		check_boolean(check, group, key);
		break;
	case JOIND_PROFILE_KEY_WORDS:
		check_words(check, declared, group, key, value);
		break;
	case JOIND_PROFILE_KEY_UNICAST_ADDRESS:
		check_unicast_address(check, group, key, value);
		break;
	case JOIND_PROFILE_KEY_PASSPHRASE:
		if (!passphrase_is_valid(value))
			joind_profile_check_fail(check, group, key,
			                         "%s: a WPA passphrase is 8 to 63 printable ASCII "
			                         "characters (the value is not shown)",
			                         key);
		break;
	case JOIND_PROFILE_KEY_HEX256:
		if (!hex256_is_valid(value))
			joind_profile_check_fail(
			        check, group, key,
			        "%s: expected 64 hexadecimal digits (the 256-bit key; "
			        "the value is not shown)",
			        key);
		break;
	case JOIND_PROFILE_KEY_TEXT:
		break;
	}
}

/* [Settings]: the core's keys, and those the plugins declared. */
static void
check_settings(JoindProfileCheck *check)
{
	g_auto(GStrv) keys = g_key_file_get_keys(check->keyfile, "Settings", NULL, NULL);

	for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
		g_autofree gchar *value =
		        joind_profile_check_get_string(check, "Settings", keys[i]);
		const JoindProfileKey *declared =
		        joind_profile_keys_lookup(check->type, "Settings", keys[i]);

		if (g_strv_contains(core_settings, keys[i]))
			check_boolean(check, "Settings", keys[i]);
		else if (declared != NULL && value != NULL)
			check_declared(check, declared, "Settings", keys[i], value);
		else if (declared == NULL)
			joind_profile_check_warn(check, "Settings", keys[i],
			                         "[Settings] %s is not a key joind knows "
			                         "(iwd.network(5)): it is ignored",
			                         keys[i]);
	}
}

/* ---- Groups -------------------------------------------------------------- */

/* [Network], [IPv4], [IPv6]: iwd's own network configuration, which joind
 * leaves to the network manager (systemd-networkd, NetworkManager, ...).
 * Said once per reading of the file, at debug level: it is not a fault. */
static gboolean
group_is_ip_configuration(const gchar *group)
{
	return strcmp(group, "Network") == 0 || strcmp(group, "IPv4") == 0 ||
	       strcmp(group, "IPv6") == 0;
}

static void
check_groups(JoindProfileCheck *check)
{
	g_auto(GStrv) groups = g_key_file_get_groups(check->keyfile, NULL);
	g_autoptr(GString) ip = g_string_new(NULL);

	for (guint i = 0; groups[i] != NULL; i++) {
		const gchar *g = groups[i];

		if (strcmp(g, "Settings") == 0 || strcmp(g, "Security") == 0 ||
		    g_str_has_prefix(g, "@pem@"))
			continue;
		if (strcmp(g, "Match") == 0 && check->type == JOIND_PROFILE_TYPE_WIRED)
			continue;
		if (group_is_ip_configuration(g)) {
			g_string_append_printf(ip, "%s[%s]", ip->len > 0 ? ", " : "", g);
			continue;
		}
		joind_profile_check_warn(
		        check, g, NULL,
		        "[%s] is not a group joind knows in a %s profile "
		        "(iwd.network(5)): it is ignored",
		        g, check->type == JOIND_PROFILE_TYPE_WIRED ? "wired" : "WiFi");
	}
	if (ip->len > 0)
		g_debug("%s: %s: IP configuration is left to the network manager", check->path,
		        ip->str);
}

void
joind_profile_check_init(JoindProfileCheck *check)
{
	check->problems = g_ptr_array_new_with_free_func(check_note_free);
	check->warnings = g_ptr_array_new_with_free_func(check_note_free);
}

void
joind_profile_check_clear(JoindProfileCheck *check)
{
	g_clear_pointer(&check->problems, g_ptr_array_unref);
	g_clear_pointer(&check->warnings, g_ptr_array_unref);
}

void
joind_profile_check_file(JoindProfileCheck *check)
{
	check_groups(check);
	check_settings(check);
	check_security(check);
}

/* ---- Access point profiles ------------------------------------------------ */

/* One key of an ap/<ssid>.ap profile: a declared one is checked by the
 * kind of value it takes (a choice of words is one word here: iwd's AP
 * keys hold one value each); any other is added to unknown, "[G] K". */
static void
check_ap_key(JoindProfileCheck *check, const gchar *group, const gchar *key, GString *unknown)
{
	const JoindProfileKey *declared =
	        joind_profile_keys_lookup(JOIND_PROFILE_TYPE_AP, group, key);
	gchar *value;

	if (declared == NULL) {
		g_string_append_printf(unknown, "%s[%s] %s", unknown->len > 0 ? ", " : "", group,
		                       key);
		return;
	}
	value = joind_profile_check_get_string(check, group, key);
	if (value != NULL && declared->type == JOIND_PROFILE_KEY_WORDS &&
	    strchr(value, ',') != NULL)
		joind_profile_check_fail(check, group, key, "%s takes one value", key);
	else if (value != NULL)
		check_declared(check, declared, group, key, value);
	joind_secret_wipe(value);
}

void
joind_profile_check_ap(JoindProfileCheck *check)
{
	g_auto(GStrv) groups = g_key_file_get_groups(check->keyfile, NULL);
	g_autoptr(GString) unknown = g_string_new(NULL);

	for (guint g = 0; groups[g] != NULL; g++) {
		g_auto(GStrv) keys = g_key_file_get_keys(check->keyfile, groups[g], NULL, NULL);

		if (keys == NULL || keys[0] == NULL)
			g_string_append_printf(unknown, "%s[%s]", unknown->len > 0 ? ", " : "",
			                       groups[g]);
		for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
			check_ap_key(check, groups[g], keys[k], unknown);
	}
	/* Starting without what the file asks for would not be the access
	 * point it describes: refused, not ignored. */
	if (unknown->len > 0)
		joind_profile_check_fail(check, NULL, NULL,
		                         "joind's access point does not implement %s",
		                         unknown->str);
	if (!joind_keyfile_has_key(check->keyfile, "Security", "Passphrase") &&
	    !joind_keyfile_has_key(check->keyfile, "Security", "PreSharedKey"))
		joind_profile_check_fail(check, "Security", NULL,
		                         "[Security] has neither Passphrase nor PreSharedKey: an "
		                         "access point profile needs one of them");
}
