/* joind-profile.c - one provisioning file: parsed, checked, queried.
 *
 * A JoindProfile is an immutable snapshot of one file. Checking happens
 * once, when the file is parsed, so that a person editing it learns about
 * every obviously wrong value at once, each with its line; values the core
 * does not know about are left to the rooms that use them.
 *
 * A daemon may hold thousands of profiles and uses few of them at a time,
 * so a snapshot keeps only the file's text and what every scan and every
 * KnownNetwork1 object asks for ([Settings] Hidden and AutoConnect); the
 * GKeyFile is rebuilt from the text for the rare other question (connect,
 * ListProfiles, UpdateProfile) and dropped after it.
 */
#include "joind-profile-private.h"

#include <string.h>

#include "joind-keyfile.h"
#include "joind-mac.h"
#include "joind-profile-check.h"
#include "joind-secret.h"
#include "joind-station.h"

#define MAC_LEN 6

typedef struct {
	guint8 bytes[MAC_LEN];
} MacAddress;

struct _JoindProfile {
	GObject parent_instance;

	JoindProfileType type;
	/* [Settings] Hidden and AutoConnect, read once (SettingState). */
	guint8 hidden;
	guint8 autoconnect;
	GBytes *ssid;
	gchar *name;
	gchar *path;
	/* The file's text: the keys are read from it, it gives line numbers
	 * and tells real changes from rewrites with the same bytes. It holds
	 * secrets: wiped when freed. */
	gchar *contents;
	gsize contents_len;
	GHashTable *pems;         /* embedded PEM name -> text, or NULL */
	GPtrArray *match_ifnames; /* GPatternSpec; NULL but for wired profiles */
	GArray *match_macs;       /* MacAddress; NULL but for wired profiles */
	gchar *warnings;
};

/* A boolean key kept in the snapshot: absent (or not a boolean: the caller's
 * default applies, as g_key_file_get_boolean() failing would give), false or
 * true. */
typedef enum {
	SETTING_ABSENT,
	SETTING_FALSE,
	SETTING_TRUE,
} SettingState;

#define SETTINGS_GROUP "Settings"

G_DEFINE_FINAL_TYPE(JoindProfile, joind_profile, G_TYPE_OBJECT)

static void
joind_profile_finalize(GObject *object)
{
	JoindProfile *self = JOIND_PROFILE(object);

	g_clear_pointer(&self->ssid, g_bytes_unref);
	g_free(self->name);
	g_free(self->path);
	if (self->contents != NULL)
		joind_secret_clear(self->contents, self->contents_len);
	g_free(self->contents);
	g_clear_pointer(&self->pems, g_hash_table_unref);
	g_clear_pointer(&self->match_ifnames, g_ptr_array_unref);
	g_clear_pointer(&self->match_macs, g_array_unref);
	g_free(self->warnings);
	G_OBJECT_CLASS(joind_profile_parent_class)->finalize(object);
}

static void
joind_profile_class_init(JoindProfileClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = joind_profile_finalize;
}

static void
joind_profile_init(JoindProfile *self)
{
}

gboolean
joind_profile_key_is_secret(const gchar *key)
{
	return strstr(key, "Passphrase") != NULL || strstr(key, "Password") != NULL ||
	       strstr(key, "PreSharedKey") != NULL || strstr(key, "Secret") != NULL ||
	       g_str_has_suffix(key, "-Hash") || g_str_has_prefix(key, "SAE-PT");
}

const gchar *
joind_profile_type_to_extension(JoindProfileType type)
{
	switch (type) {
	case JOIND_PROFILE_TYPE_OPEN:
		return "open";
	case JOIND_PROFILE_TYPE_PSK:
		return "psk";
	case JOIND_PROFILE_TYPE_8021X:
	case JOIND_PROFILE_TYPE_WIRED:
		return "8021x";
	case JOIND_PROFILE_TYPE_AP:
		return "ap";
	}
	return NULL;
}

/* ---- Checking (the rest is in joind-profile-check.c) ----------------------- */

static gboolean
parse_mac(const gchar *text, MacAddress *mac)
{
	return joind_mac_parse(text, mac->bytes);
}

static void
check_match_interface(JoindProfileCheck *check, const gchar *value)
{
	g_auto(GStrv) globs = g_strsplit_set(value, " \t", -1);

	for (guint i = 0; globs[i] != NULL; i++) {
		if (globs[i][0] != '\0')
			g_ptr_array_add(check->profile->match_ifnames,
			                g_pattern_spec_new(globs[i]));
	}
	if (check->profile->match_ifnames->len == 0)
		joind_profile_check_fail(check, "Match", "Interface",
		                         "Interface= is empty (expected a name or a "
		                         "glob such as enp*)");
}

static void
check_match_mac(JoindProfileCheck *check, const gchar *value)
{
	g_auto(GStrv) words = g_strsplit_set(value, " \t", -1);
	guint n = 0;

	for (guint i = 0; words[i] != NULL; i++) {
		MacAddress mac;

		if (words[i][0] == '\0')
			continue;
		n++;
		if (parse_mac(words[i], &mac)) {
			g_array_append_val(check->profile->match_macs, mac);
			continue;
		}
		g_autofree gchar *shown = joind_profile_check_show("MACAddress", words[i]);
		joind_profile_check_fail(
		        check, "Match", "MACAddress",
		        "MACAddress: “%s” is not a MAC address (expected six hexadecimal "
		        "bytes such as 02:00:5e:10:00:01)",
		        shown);
	}
	if (n == 0)
		joind_profile_check_fail(check, "Match", "MACAddress", "MACAddress= is empty");
}

static void
check_match(JoindProfileCheck *check)
{
	JoindProfile *self = check->profile;
	g_auto(GStrv) keys = g_key_file_get_keys(check->keyfile, "Match", NULL, NULL);
	guint problems = check->problems->len;

	self->match_ifnames = g_ptr_array_new_with_free_func((GDestroyNotify)g_pattern_spec_free);
	self->match_macs = g_array_new(FALSE, TRUE, sizeof(MacAddress));

	for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
		g_autofree gchar *value = joind_profile_check_get_string(check, "Match", keys[i]);

		if (value == NULL)
			continue;
		if (strcmp(keys[i], "Interface") == 0)
			check_match_interface(check, value);
		else if (strcmp(keys[i], "MACAddress") == 0)
			check_match_mac(check, value);
		else
			joind_profile_check_warn(
			        check, "Match", keys[i],
			        "[Match] %s= is not a match joind knows (Interface, MACAddress): "
			        "it is ignored",
			        keys[i]);
	}
	if (check->problems->len == problems && self->match_ifnames->len == 0 &&
	    self->match_macs->len == 0)
		joind_profile_check_warn(
		        check, "Match", NULL,
		        "no Interface= or MACAddress= in a [Match] section: this profile "
		        "matches no port");
}

static gboolean
profile_check(JoindProfile *self, GKeyFile *keyfile, GError **error)
{
	JoindProfileCheck check = {
	        .profile = self,
	        .path = self->path,
	        .contents = self->contents,
	        .keyfile = keyfile,
	        .pems = self->pems,
	        .type = self->type,
	};
	gboolean ok;

	joind_profile_check_init(&check);
	if (self->type == JOIND_PROFILE_TYPE_AP)
		joind_profile_check_ap(&check);
	else
		joind_profile_check_file(&check);
	if (self->type == JOIND_PROFILE_TYPE_WIRED)
		check_match(&check);
	if (check.warnings->len > 0)
		self->warnings = joind_profile_check_join(check.warnings);
	ok = check.problems->len == 0;
	if (!ok) {
		g_autofree gchar *text = joind_profile_check_join(check.problems);
		g_set_error_literal(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE, text);
	}
	joind_profile_check_clear(&check);
	return ok;
}

/* ---- Making profiles ----------------------------------------------------- */

static gchar *
profile_name(const gchar *path, JoindProfileType type, GBytes *ssid)
{
	g_autofree gchar *base = g_path_get_basename(path);
	const gchar *dot;

	if (type != JOIND_PROFILE_TYPE_WIRED && ssid != NULL)
		return joind_ssid_to_display(g_bytes_get_data(ssid, NULL), g_bytes_get_size(ssid));
	dot = strrchr(base, '.');
	if (dot != NULL && dot != base &&
	    strcmp(dot + 1, joind_profile_type_to_extension(type)) == 0)
		return g_strndup(base, (gsize)(dot - base));
	return g_steal_pointer(&base);
}

static guint8
setting_read(GKeyFile *kf, const gchar *key)
{
	g_autoptr(GError) error = NULL;
	gboolean value;

	/* Most files set neither key: asking first spares a GError (and its
	 * formatted message) per absent key at start. */
	if (!joind_keyfile_has_key(kf, SETTINGS_GROUP, key))
		return SETTING_ABSENT;
	value = g_key_file_get_boolean(kf, SETTINGS_GROUP, key, &error);
	if (error != NULL)
		return SETTING_ABSENT;
	return value ? SETTING_TRUE : SETTING_FALSE;
}

JoindProfile *
joind_profile_parse(const gchar *path, JoindProfileType type, GBytes *ssid, const guint8 *data,
                    gsize len, GError **error)
{
	g_autoptr(JoindProfile) self = NULL;
	g_autoptr(GKeyFile) kf = NULL;
	GHashTable *pems = NULL;

	g_return_val_if_fail(path != NULL, NULL);
	g_return_val_if_fail(data != NULL || len == 0, NULL);

	kf = joind_keyfile_parse(path, data != NULL ? data : (const guint8 *)"", len, &pems, error);
	if (kf == NULL)
		return NULL;
	self = g_object_new(JOIND_TYPE_PROFILE, NULL);
	self->type = type;
	self->path = g_strdup(path);
	self->pems = pems;
	self->contents = g_strndup((const gchar *)data, len);
	self->contents_len = len;
	self->ssid = ssid != NULL ? g_bytes_ref(ssid) : NULL;
	self->name = profile_name(path, type, ssid);
	self->hidden = setting_read(kf, "Hidden");
	self->autoconnect = setting_read(kf, "AutoConnect");
	if (!profile_check(self, kf, error))
		return NULL;
	return g_steal_pointer(&self);
}

JoindProfile *
joind_profile_load(const gchar *path, JoindProfileType type, GBytes *ssid, GError **error)
{
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;
	JoindProfile *profile;

	if (!g_file_get_contents(path, &data, &len, &local)) {
		g_set_error(error, G_FILE_ERROR, local->code, "%s: %s", path, local->message);
		return NULL;
	}
	profile = joind_profile_parse(path, type, ssid, (const guint8 *)data, len, error);
	joind_secret_clear(data, len);
	return profile;
}

/* ---- Queries ------------------------------------------------------------- */

/* The file's keys, read again from its text (which parsed when the
 * snapshot was made, so it parses now). */
static GKeyFile *
profile_keyfile(JoindProfile *self)
{
	GKeyFile *kf = joind_keyfile_parse(self->path, (const guint8 *)self->contents,
	                                   self->contents_len, NULL, NULL);

	return kf != NULL ? kf : g_key_file_new();
}

gboolean
joind_profile_has_contents(JoindProfile *self, const guint8 *data, gsize len)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), FALSE);
	return self->contents_len == len && (len == 0 || memcmp(self->contents, data, len) == 0);
}

const gchar *
joind_profile_get_warnings(JoindProfile *self)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), NULL);
	return self->warnings;
}

gboolean
joind_profile_holds_secrets(JoindProfile *self)
{
	g_autoptr(GKeyFile) kf = NULL;
	g_auto(GStrv) groups = NULL;

	g_return_val_if_fail(JOIND_IS_PROFILE(self), FALSE);
	if (self->pems != NULL && g_hash_table_size(self->pems) > 0)
		return TRUE; /* may be a private key */
	kf = profile_keyfile(self);
	groups = g_key_file_get_groups(kf, NULL);
	for (guint i = 0; groups[i] != NULL; i++) {
		g_auto(GStrv) keys = g_key_file_get_keys(kf, groups[i], NULL, NULL);
		for (guint j = 0; keys != NULL && keys[j] != NULL; j++) {
			if (joind_profile_key_is_secret(keys[j]))
				return TRUE;
		}
	}
	return FALSE;
}

JoindProfileType
joind_profile_get_profile_type(JoindProfile *self)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), JOIND_PROFILE_TYPE_OPEN);
	return self->type;
}

GBytes *
joind_profile_get_ssid(JoindProfile *self)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), NULL);
	return self->ssid;
}

const gchar *
joind_profile_get_name(JoindProfile *self)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), NULL);
	return self->name;
}

const gchar *
joind_profile_get_path(JoindProfile *self)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), NULL);
	return self->path;
}

gchar *
joind_profile_get_string(JoindProfile *self, const gchar *group, const gchar *key)
{
	g_autoptr(GKeyFile) kf = NULL;

	g_return_val_if_fail(JOIND_IS_PROFILE(self), NULL);
	kf = profile_keyfile(self);
	return g_key_file_get_string(kf, group, key, NULL);
}

/* The kept [Settings] boolean that group and key name, NULL for others. */
static const guint8 *
profile_kept_setting(JoindProfile *self, const gchar *group, const gchar *key)
{
	if (g_strcmp0(group, SETTINGS_GROUP) != 0 || key == NULL)
		return NULL;
	if (strcmp(key, "Hidden") == 0)
		return &self->hidden;
	if (strcmp(key, "AutoConnect") == 0)
		return &self->autoconnect;
	return NULL;
}

gboolean
joind_profile_get_boolean(JoindProfile *self, const gchar *group, const gchar *key,
                          gboolean default_value)
{
	g_autoptr(GKeyFile) kf = NULL;
	g_autoptr(GError) error = NULL;
	const guint8 *kept;
	gboolean value;

	g_return_val_if_fail(JOIND_IS_PROFILE(self), default_value);
	kept = profile_kept_setting(self, group, key);
	if (kept != NULL)
		return *kept == SETTING_ABSENT ? default_value : *kept == SETTING_TRUE;
	kf = profile_keyfile(self);
	value = g_key_file_get_boolean(kf, group, key, &error);
	return error == NULL ? value : default_value;
}

gboolean
joind_profile_has_key(JoindProfile *self, const gchar *group, const gchar *key)
{
	g_autoptr(GKeyFile) kf = NULL;

	g_return_val_if_fail(JOIND_IS_PROFILE(self), FALSE);
	kf = profile_keyfile(self);
	return joind_keyfile_has_key(kf, group, key);
}

guint
joind_profile_get_line(JoindProfile *self, const gchar *group, const gchar *key)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), 0);
	return joind_keyfile_find_line(self->contents, group, key);
}

gchar *
joind_profile_describe_key(JoindProfile *self, const gchar *group, const gchar *key)
{
	guint line;

	g_return_val_if_fail(JOIND_IS_PROFILE(self), NULL);
	line = joind_keyfile_find_line(self->contents, group, key);
	if (line > 0)
		return g_strdup_printf("%s:%u: %s", self->path, line, key);
	return g_strdup_printf("%s: %s", self->path, key);
}

const gchar *
joind_profile_get_embedded_pem(JoindProfile *self, const gchar *name)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), NULL);
	if (self->pems == NULL || name == NULL)
		return NULL;
	return g_hash_table_lookup(self->pems, name);
}

static gboolean
match_interface(JoindProfile *self, const gchar *ifname)
{
	if (ifname == NULL)
		return FALSE;
	for (guint i = 0; i < self->match_ifnames->len; i++) {
		if (g_pattern_spec_match_string(g_ptr_array_index(self->match_ifnames, i), ifname))
			return TRUE;
	}
	return FALSE;
}

static gboolean
match_address(JoindProfile *self, const gchar *address)
{
	MacAddress mac;

	if (!parse_mac(address, &mac))
		return FALSE;
	for (guint i = 0; i < self->match_macs->len; i++) {
		if (memcmp(&g_array_index(self->match_macs, MacAddress, i), &mac, sizeof(mac)) == 0)
			return TRUE;
	}
	return FALSE;
}

gboolean
joind_profile_matches_link(JoindProfile *self, const gchar *ifname, const gchar *address)
{
	g_return_val_if_fail(JOIND_IS_PROFILE(self), FALSE);

	if (self->type != JOIND_PROFILE_TYPE_WIRED || self->match_ifnames == NULL)
		return FALSE;
	if (self->match_ifnames->len == 0 && self->match_macs->len == 0)
		return FALSE;
	if (self->match_ifnames->len > 0 && !match_interface(self, ifname))
		return FALSE;
	if (self->match_macs->len > 0 && !match_address(self, address))
		return FALSE;
	return TRUE;
}

/* ---- Comparing snapshots ------------------------------------------------- */

static gboolean
pems_equal(GHashTable *a, GHashTable *b)
{
	GHashTableIter iter;
	gpointer name, pem;

	if ((a != NULL ? g_hash_table_size(a) : 0) != (b != NULL ? g_hash_table_size(b) : 0))
		return FALSE;
	if (a == NULL)
		return TRUE;
	g_hash_table_iter_init(&iter, a);
	while (g_hash_table_iter_next(&iter, &name, &pem)) {
		if (g_strcmp0(pem, g_hash_table_lookup(b, name)) != 0)
			return FALSE;
	}
	return TRUE;
}

/* Adds to changed the keys of group whose raw values differ between a and
 * b (present in one only, or not the same); keys of a first, then b's new
 * ones. */
static void
collect_changed_keys(GKeyFile *a, GKeyFile *b, const gchar *group, GPtrArray *changed)
{
	g_auto(GStrv) keys_a = g_key_file_get_keys(a, group, NULL, NULL);
	g_auto(GStrv) keys_b = g_key_file_get_keys(b, group, NULL, NULL);

	for (guint i = 0; keys_a != NULL && keys_a[i] != NULL; i++) {
		g_autofree gchar *va = g_key_file_get_value(a, group, keys_a[i], NULL);
		g_autofree gchar *vb = g_key_file_get_value(b, group, keys_a[i], NULL);

		if (g_strcmp0(va, vb) != 0)
			g_ptr_array_add(changed, g_strdup(keys_a[i]));
		joind_secret_wipe(g_steal_pointer(&va));
		joind_secret_wipe(g_steal_pointer(&vb));
	}
	for (guint i = 0; keys_b != NULL && keys_b[i] != NULL; i++) {
		if (!joind_keyfile_has_key(a, group, keys_b[i]))
			g_ptr_array_add(changed, g_strdup(keys_b[i]));
	}
}

gchar **
joind_profile_security_changes(JoindProfile *a, JoindProfile *b)
{
	g_autoptr(GKeyFile) kf_a = NULL;
	g_autoptr(GKeyFile) kf_b = NULL;
	g_auto(GStrv) groups_a = NULL;
	g_auto(GStrv) groups_b = NULL;
	g_autoptr(GPtrArray) changed = g_ptr_array_new_with_free_func(g_free);

	g_return_val_if_fail(JOIND_IS_PROFILE(a) && JOIND_IS_PROFILE(b), NULL);
	if (a->type != b->type || g_strcmp0(a->path, b->path) != 0 || !pems_equal(a->pems, b->pems))
		return NULL;
	kf_a = profile_keyfile(a);
	kf_b = profile_keyfile(b);
	groups_a = g_key_file_get_groups(kf_a, NULL);
	groups_b = g_key_file_get_groups(kf_b, NULL);
	if (g_strv_length(groups_a) != g_strv_length(groups_b))
		return NULL;
	for (guint i = 0; groups_a[i] != NULL; i++) {
		guint before = changed->len;

		if (!g_key_file_has_group(kf_b, groups_a[i]))
			return NULL;
		collect_changed_keys(kf_a, kf_b, groups_a[i], changed);
		if (changed->len != before && strcmp(groups_a[i], "Security") != 0)
			return NULL;
	}
	g_ptr_array_add(changed, NULL);
	return (gchar **)g_ptr_array_free(g_steal_pointer(&changed), FALSE);
}

gchar *
joind_ssid_hex(const guint8 *data, gsize len)
{
	static const gchar digits[] = "0123456789abcdef";
	gchar *hex = g_malloc(len * 2 + 1);

	for (gsize i = 0; i < len; i++) {
		hex[2 * i] = digits[data[i] >> 4];
		hex[2 * i + 1] = digits[data[i] & 0xf];
	}
	hex[len * 2] = '\0';
	return hex;
}
