/* joind-profile-manager-draft.c - D-Bus settings turned into a profile
 * file's text.
 *
 * Keys go into a GKeyFile (which escapes values and keeps the comments of
 * a file being updated); embedded PEMs are kept aside and written after
 * the groups in iwd's form, "[@pem@name]" followed by the PEM text, which
 * GKeyFile could not hold. Whether the result is a valid profile is for
 * the file loader to say: this only makes sure that every name and value
 * lands in the file as one key and nothing else.
 */
#include "joind-profile-manager-draft.h"

#include <stdlib.h>
#include <string.h>

#include "joind-error.h"
#include "joind-keyfile.h"
#include "joind-profile-private.h"
#include "joind-secret.h"

#define PEM_GROUP_PREFIX "@pem@"
#define EMBED_PREFIX     "embed:"
#define SSID_SETTING     "Settings.SSID"
#define SSID_MAX_LEN     32
#define BUNDLE_SUFFIX    "-ClientKeyBundle"
#define BUNDLE_MAX_LEN   (1024 * 1024)

struct _JoindProfileDraft {
	GKeyFile *keyfile;
	GHashTable *pems;    /* name -> PEM text (may be a private key: wiped) */
	GHashTable *bundles; /* "Group.Key" -> GBytes: bundles given as bytes */
	GBytes *ssid;
};

JoindProfileDraft *
joind_profile_draft_new(void)
{
	JoindProfileDraft *self = g_new0(JoindProfileDraft, 1);

	self->keyfile = g_key_file_new();
	self->pems = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                   (GDestroyNotify)joind_secret_wipe);
	self->bundles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                      (GDestroyNotify)g_bytes_unref);
	return self;
}

void
joind_profile_draft_free(JoindProfileDraft *self)
{
	if (self == NULL)
		return;
	/* A draft whose file did not parse has none of these. */
	g_clear_pointer(&self->keyfile, g_key_file_unref);
	g_clear_pointer(&self->pems, g_hash_table_unref);
	g_clear_pointer(&self->bundles, g_hash_table_unref);
	g_clear_pointer(&self->ssid, g_bytes_unref);
	g_free(self);
}

JoindProfileDraft *
joind_profile_draft_new_from_text(const gchar *path, const guint8 *data, gsize len, GError **error)
{
	g_autoptr(JoindProfileDraft) self = g_new0(JoindProfileDraft, 1);
	g_autoptr(GHashTable) pems = NULL;
	GHashTableIter iter;
	gpointer name, text;

	self->keyfile = joind_keyfile_parse(path, data, len, &pems, error);
	if (self->keyfile == NULL)
		return NULL;
	self->pems = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                   (GDestroyNotify)joind_secret_wipe);
	self->bundles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                      (GDestroyNotify)g_bytes_unref);
	if (pems == NULL)
		return g_steal_pointer(&self);
	/* The parser leaves each PEM group empty in the key file; the text is
	 * written back after the groups. */
	g_hash_table_iter_init(&iter, pems);
	while (g_hash_table_iter_next(&iter, &name, &text)) {
		g_autofree gchar *group = g_strconcat(PEM_GROUP_PREFIX, name, NULL);

		g_key_file_remove_group(self->keyfile, group, NULL);
		g_hash_table_insert(self->pems, g_strdup(name), g_strdup(text));
	}
	return g_steal_pointer(&self);
}

/* ---- names ---------------------------------------------------------------- */

gboolean
joind_profile_draft_name_is_valid(const gchar *name, gsize len, const gchar *extra)
{
	if (len == 0)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isalnum(name[i]) &&
		    (name[i] == '\0' || strchr(extra, name[i]) == NULL))
			return FALSE;
	}
	return TRUE;
}

/* "Group.Key" -> group, key. */
static gboolean
split_name(const gchar *name, gchar **group, gchar **key, GError **error)
{
	const gchar *dot = strchr(name, '.');

	/* Keys: iwd's rule, which the loader demands too. Groups: stricter
	 * than the loader, so that no PEM group is named (those are made from
	 * bytes). */
	if (dot == NULL || !joind_profile_draft_name_is_valid(name, (gsize)(dot - name), "-_") ||
	    !joind_profile_draft_name_is_valid(dot + 1, strlen(dot + 1), "-_.")) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "“%s” is not a setting name: expected Group.Key (such as "
		            "Security.EAP-Method), made of letters, digits, “-”, “_” and “.”",
		            g_utf8_validate(name, -1, NULL) ? name : "?");
		return FALSE;
	}
	*group = g_strndup(name, (gsize)(dot - name));
	*key = g_strdup(dot + 1);
	return TRUE;
}

static gboolean
key_is_pem(const gchar *key)
{
	return g_str_has_suffix(key, "-CACert") || g_str_has_suffix(key, "-ClientCert") ||
	       g_str_has_suffix(key, "-ClientKey");
}

/* ---- embedded PEMs -------------------------------------------------------- */

static gboolean
draft_references_pem(JoindProfileDraft *self, const gchar *name)
{
	g_autofree gchar *wanted = g_strconcat(EMBED_PREFIX, name, NULL);
	g_auto(GStrv) groups = g_key_file_get_groups(self->keyfile, NULL);

	for (guint i = 0; groups[i] != NULL; i++) {
		g_auto(GStrv) keys = g_key_file_get_keys(self->keyfile, groups[i], NULL, NULL);

		for (guint j = 0; keys != NULL && keys[j] != NULL; j++) {
			g_autofree gchar *value =
			        g_key_file_get_value(self->keyfile, groups[i], keys[j], NULL);

			if (g_strcmp0(value, wanted) == 0)
				return TRUE;
		}
	}
	return FALSE;
}

/* Before key is set or removed: the PEM it embeds goes with it unless
 * another key still refers to it. */
static void
draft_release_key(JoindProfileDraft *self, const gchar *group, const gchar *key)
{
	g_autofree gchar *old = g_key_file_get_value(self->keyfile, group, key, NULL);

	if (old == NULL || !g_str_has_prefix(old, EMBED_PREFIX))
		return;
	g_key_file_remove_key(self->keyfile, group, key, NULL);
	if (!draft_references_pem(self, old + strlen(EMBED_PREFIX)))
		g_hash_table_remove(self->pems, old + strlen(EMBED_PREFIX));
}

static void
string_wipe_free(GString *text)
{
	joind_secret_clear(text->str, text->len);
	g_string_free(text, TRUE);
}

/* PEM text that stays one embedded group: text, with a BEGIN line, no
 * line that would start a group. Lines are trimmed, empty ones dropped. */
static gchar *
pem_text(const gchar *name, GBytes *bytes, GError **error)
{
	gsize len = 0;
	const gchar *data = g_bytes_get_data(bytes, &len);
	const gchar *line, *end;
	GString *text;

	if (data == NULL || memchr(data, '\0', len) != NULL ||
	    !g_utf8_validate_len(data, len, NULL) ||
	    g_strstr_len(data, (gssize)len, "-----BEGIN ") == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: bytes given for a certificate or key must be PEM text "
		            "(“-----BEGIN ...”); give a DER or PKCS#12 file as a path",
		            name);
		return NULL;
	}
	text = g_string_sized_new(len + 1);
	line = data;
	end = data + len;
	while (line < end) {
		const gchar *nl = memchr(line, '\n', (gsize)(end - line));
		const gchar *s = line, *e = nl != NULL ? nl : end;

		line = e + 1;
		while (s < e && g_ascii_isspace(*s))
			s++;
		while (e > s && g_ascii_isspace(e[-1]))
			e--;
		if (s < e && *s == '[') {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "%s: a line of PEM text cannot start with “[”", name);
			string_wipe_free(text);
			return NULL;
		}
		if (s < e) {
			g_string_append_len(text, s, e - s);
			g_string_append_c(text, '\n');
		}
	}
	return g_string_free(text, FALSE);
}

/* ---- PKCS#12 bundles -------------------------------------------------------- */

/* iwd's ClientKeyBundle is a path only: bytes are kept aside until the
 * manager has written them to a file beside the profile and pointed the
 * key at it (joind_profile_draft_place_bundle). */
static gboolean
draft_set_bundle(JoindProfileDraft *self, const gchar *name, const gchar *group, const gchar *key,
                 GBytes *bytes, GError **error)
{
	gsize len = g_bytes_get_size(bytes);
	const guint8 *data = g_bytes_get_data(bytes, NULL);

	/* DER (a SEQUENCE) or PEM text: the engine reads either from the file. */
	if (len == 0 || len > BUNDLE_MAX_LEN ||
	    (data[0] != 0x30 &&
	     g_strstr_len((const gchar *)data, (gssize)len, "-----BEGIN ") == NULL)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: bytes given for a key bundle must be a PKCS#12 file (DER) or PEM "
		            "text, at most %d bytes",
		            name, BUNDLE_MAX_LEN);
		return FALSE;
	}
	draft_release_key(self, group, key);
	g_key_file_remove_key(self->keyfile, group, key, NULL);
	g_hash_table_replace(self->bundles, g_strdup(name), g_bytes_ref(bytes));
	return TRUE;
}

GHashTable *
joind_profile_draft_get_bundles(JoindProfileDraft *self)
{
	return self->bundles;
}

void
joind_profile_draft_place_bundle(JoindProfileDraft *self, const gchar *name, const gchar *path)
{
	g_autofree gchar *group = g_strndup(name, (gsize)(strchr(name, '.') - name));

	g_key_file_set_string(self->keyfile, group, strchr(name, '.') + 1, path);
}

gchar **
joind_profile_draft_bundle_paths(JoindProfileDraft *self)
{
	g_auto(GStrv) groups = g_key_file_get_groups(self->keyfile, NULL);
	GPtrArray *paths = g_ptr_array_new();

	for (guint i = 0; groups[i] != NULL; i++) {
		g_auto(GStrv) keys = g_key_file_get_keys(self->keyfile, groups[i], NULL, NULL);

		for (guint j = 0; keys != NULL && keys[j] != NULL; j++) {
			gchar *value;

			if (!g_str_has_suffix(keys[j], BUNDLE_SUFFIX))
				continue;
			value = g_key_file_get_string(self->keyfile, groups[i], keys[j], NULL);
			if (value != NULL && !g_str_has_prefix(value, EMBED_PREFIX))
				g_ptr_array_add(paths, value);
			else
				g_free(value);
		}
	}
	g_ptr_array_add(paths, NULL);
	return (gchar **)g_ptr_array_free(paths, FALSE);
}

/* ---- setting ---------------------------------------------------------------- */

static gboolean
draft_set_bytes(JoindProfileDraft *self, const gchar *name, const gchar *group, const gchar *key,
                GVariant *value, gboolean allow_ssid, GError **error)
{
	g_autoptr(GBytes) bytes = g_variant_get_data_as_bytes(value);
	g_autofree gchar *reference = NULL;
	gchar *pem;

	if (strcmp(name, SSID_SETTING) == 0 && !allow_ssid) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: the SSID names the profile and cannot be changed", name);
		return FALSE;
	}
	if (strcmp(name, SSID_SETTING) == 0) {
		if (g_bytes_get_size(bytes) == 0 || g_bytes_get_size(bytes) > SSID_MAX_LEN) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "%s: an SSID has 1 to %d bytes", name, SSID_MAX_LEN);
			return FALSE;
		}
		g_clear_pointer(&self->ssid, g_bytes_unref);
		self->ssid = g_steal_pointer(&bytes);
		return TRUE;
	}
	if (g_str_has_suffix(key, BUNDLE_SUFFIX))
		return draft_set_bundle(self, name, group, key, bytes, error);
	if (!key_is_pem(key)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: bytes are taken for certificates and keys (PEM text), key "
		            "bundles (PKCS#12) and Settings.SSID only",
		            name);
		return FALSE;
	}
	pem = pem_text(name, bytes, error);
	if (pem == NULL)
		return FALSE;
	draft_release_key(self, group, key);
	g_hash_table_replace(self->pems, g_strdup(key), pem);
	reference = g_strconcat(EMBED_PREFIX, key, NULL);
	g_key_file_set_string(self->keyfile, group, key, reference);
	return TRUE;
}

static gint
compare_entries(const void *a, const void *b)
{
	const gchar *name_a = NULL, *name_b = NULL;

	g_variant_get_child(*(GVariant *const *)a, 0, "&s", &name_a);
	g_variant_get_child(*(GVariant *const *)b, 0, "&s", &name_b);
	return strcmp(name_a, name_b);
}

/* A value's text as the file spells it; NULL for a type a file cannot hold. */
static gchar *
value_text(GVariant *value)
{
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_STRING))
		return g_variant_dup_string(value, NULL);
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN))
		return g_strdup(g_variant_get_boolean(value) ? "true" : "false");
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_INT32))
		return g_strdup_printf("%" G_GINT32_FORMAT, g_variant_get_int32(value));
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_UINT32))
		return g_strdup_printf("%" G_GUINT32_FORMAT, g_variant_get_uint32(value));
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_INT64))
		return g_strdup_printf("%" G_GINT64_FORMAT, g_variant_get_int64(value));
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_UINT64))
		return g_strdup_printf("%" G_GUINT64_FORMAT, g_variant_get_uint64(value));
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_INT16))
		return g_strdup_printf("%d", g_variant_get_int16(value));
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_UINT16))
		return g_strdup_printf("%u", g_variant_get_uint16(value));
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_BYTE))
		return g_strdup_printf("%u", g_variant_get_byte(value));
	return NULL;
}

static gboolean
draft_set_one(JoindProfileDraft *self, const gchar *name, GVariant *value, gboolean allow_ssid,
              GError **error)
{
	g_autofree gchar *group = NULL;
	g_autofree gchar *key = NULL;
	gchar *text;

	if (!split_name(name, &group, &key, error))
		return FALSE;
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_BYTESTRING))
		return draft_set_bytes(self, name, group, key, value, allow_ssid, error);
	if (strcmp(name, SSID_SETTING) == 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            allow_ssid ? "%s: the SSID is given as bytes"
		                       : "%s: the SSID names the profile and cannot be changed",
		            name);
		return FALSE;
	}
	text = value_text(value);
	if (text == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: a string, boolean, integer or byte array is expected, not “%s”",
		            name, g_variant_get_type_string(value));
		return FALSE;
	}
	draft_release_key(self, group, key);
	g_hash_table_remove(self->bundles, name);
	g_key_file_set_string(self->keyfile, group, key, text);
	joind_secret_wipe(text);
	return TRUE;
}

/* In the order of their names, so that the same settings make the same
 * file whatever order they came in. */
gboolean
joind_profile_draft_set(JoindProfileDraft *self, GVariant *settings, gboolean allow_ssid,
                        GError **error)
{
	gsize n = g_variant_n_children(settings);
	g_autofree GVariant **entries = g_new0(GVariant *, n + 1);
	gboolean ok = TRUE;

	for (gsize i = 0; i < n; i++)
		entries[i] = g_variant_get_child_value(settings, i);
	qsort(entries, n, sizeof(GVariant *), compare_entries);
	for (gsize i = 0; i < n; i++) {
		const gchar *name = NULL;
		g_autoptr(GVariant) value = NULL;

		g_variant_get(entries[i], "{&sv}", &name, &value);
		ok = ok && draft_set_one(self, name, value, allow_ssid, error);
		g_variant_unref(entries[i]);
	}
	return ok;
}

gboolean
joind_profile_draft_unset(JoindProfileDraft *self, const gchar *const *names, GError **error)
{
	for (guint i = 0; names != NULL && names[i] != NULL; i++) {
		g_autofree gchar *group = NULL;
		g_autofree gchar *key = NULL;

		if (strcmp(names[i], SSID_SETTING) == 0) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "%s: the SSID names the profile and cannot be removed",
			            names[i]);
			return FALSE;
		}
		if (!split_name(names[i], &group, &key, error))
			return FALSE;
		draft_release_key(self, group, key);
		g_hash_table_remove(self->bundles, names[i]);
		g_key_file_remove_key(self->keyfile, group, key, NULL);
	}
	return TRUE;
}

GBytes *
joind_profile_draft_get_ssid(JoindProfileDraft *self)
{
	return self->ssid;
}

/* ---- output --------------------------------------------------------------- */

static gint
compare_names(const void *a, const void *b)
{
	return strcmp(*(const gchar *const *)a, *(const gchar *const *)b);
}

gchar *
joind_profile_draft_to_text(JoindProfileDraft *self, gsize *len)
{
	gsize kf_len = 0;
	gchar *kf_text = g_key_file_to_data(self->keyfile, &kf_len, NULL);
	g_autofree gpointer *names = NULL;
	guint n = 0;
	GString *text = g_string_new_len(kf_text, (gssize)kf_len);

	joind_secret_clear(kf_text, kf_len);
	g_free(kf_text);
	/* GKeyFile keeps the blank line that separated the last group from
	 * a PEM group as part of that group: dropped here, or every rewrite
	 * would add one. */
	while (g_hash_table_size(self->pems) > 0 && text->len >= 2 &&
	       text->str[text->len - 1] == '\n' && text->str[text->len - 2] == '\n')
		g_string_truncate(text, text->len - 1);
	names = g_hash_table_get_keys_as_array(self->pems, &n);
	qsort(names, n, sizeof(gpointer), compare_names);
	for (guint i = 0; i < n; i++) {
		if (text->len > 0 && text->str[text->len - 1] != '\n')
			g_string_append_c(text, '\n');
		if (text->len > 0)
			g_string_append_c(text, '\n');
		g_string_append_printf(text, "[" PEM_GROUP_PREFIX "%s]\n%s",
		                       (const gchar *)names[i],
		                       (const gchar *)g_hash_table_lookup(self->pems, names[i]));
	}
	*len = text->len;
	return g_string_free(text, FALSE);
}

/* A PKCS#11 URI (RFC 7512) may carry the token's PIN as its pin-value
 * attribute: that part is a secret like any other and never read back. */
static gchar *
value_without_pin(gchar *value)
{
	g_autoptr(GRegex) pin = NULL;
	g_autofree gchar *cut = NULL;
	gsize len;

	if (g_ascii_strncasecmp(value, "pkcs11:", strlen("pkcs11:")) != 0 ||
	    strstr(value, "pin-value=") == NULL)
		return value;
	pin = g_regex_new("([?&])pin-value=[^&]*(&|$)", 0, 0, NULL);
	cut = g_regex_replace(pin, value, -1, 0, "\\1", 0, NULL);
	joind_secret_wipe(value);
	len = strlen(cut);
	while (len > 0 && (cut[len - 1] == '&' || cut[len - 1] == '?'))
		cut[--len] = '\0';
	return g_steal_pointer(&cut);
}

static void
describe_key(JoindProfileDraft *self, GVariantBuilder *builder, const gchar *group,
             const gchar *key)
{
	g_autofree gchar *name = NULL;
	g_autofree gchar *value = NULL;

	if (joind_profile_key_is_secret(key)) {
		name = g_strdup_printf("%s.Has%s", group, key);
		g_variant_builder_add(builder, "{sv}", name, g_variant_new_boolean(TRUE));
		return;
	}
	value = g_key_file_get_string(self->keyfile, group, key, NULL);
	if (value == NULL)
		return;
	value = value_without_pin(value);
	name = g_strdup_printf("%s.%s", group, key);
	g_variant_builder_add(builder, "{sv}", name, g_variant_new_string(value));
}

void
joind_profile_draft_describe(JoindProfileDraft *self, GVariantBuilder *builder)
{
	g_auto(GStrv) groups = g_key_file_get_groups(self->keyfile, NULL);

	for (guint i = 0; groups[i] != NULL; i++) {
		g_auto(GStrv) keys = g_key_file_get_keys(self->keyfile, groups[i], NULL, NULL);

		for (guint j = 0; keys != NULL && keys[j] != NULL; j++)
			describe_key(self, builder, groups[i], keys[j]);
	}
}
