/* joind-known-state.c - the core's memory of known networks, kept in
 * <state-dir>/state.json (json-glib).
 *
 * The file is what joind learned, not what anybody configured: when it is
 * unreadable it is set aside (state.json.bad) and joind starts afresh
 * rather than refusing to run. It is rewritten only when its text would
 * change, so a quiet daemon never touches the disk.
 */
#include "joind-known-state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "joind-file.h"
#include "joind-known.h"
#include "joind-profile-private.h"

#define STATE_FILE   "state.json"
#define SSID_MAX_LEN 32
#define FREQ_MAX_MHZ 100000
#define SOURCE_USER  "user"
#define SOURCE_ADMIN "admin"
/* Thousands of networks take well under a megabyte; a larger file is not
 * one joind wrote, and reading it whole would cost that much memory. */
#define STATE_MAX_BYTES (16 * 1024 * 1024)

typedef struct {
	GArray *freqs; /* guint32, most recent first */
	gint64 last_connected;
	gboolean user_saved;
} Entry;

struct _JoindKnownState {
	gchar *path;          /* NULL: memory only */
	GHashTable *entries;  /* id -> Entry */
	gchar *on_disk;       /* the text last read or written */
	gchar *write_problem; /* the last write failure reported */
};

static void
entry_free(gpointer data)
{
	Entry *entry = data;

	g_array_unref(entry->freqs);
	g_free(entry);
}

static Entry *
entry_new(void)
{
	Entry *entry = g_new0(Entry, 1);

	entry->freqs = g_array_new(FALSE, FALSE, sizeof(guint32));
	return entry;
}

/* ---- ids and times ------------------------------------------------------ */

gchar *
joind_known_network_id(const guint8 *ssid, gsize ssid_len, JoindProfileType type)
{
	const gchar *ext = joind_profile_type_to_extension(type);
	g_autofree gchar *hex = NULL;

	if (ssid == NULL || ssid_len == 0 || ssid_len > SSID_MAX_LEN || ext == NULL ||
	    type == JOIND_PROFILE_TYPE_WIRED)
		return NULL;
	hex = joind_ssid_hex(ssid, ssid_len);
	return g_strdup_printf("%s_%s", hex, ext);
}

gchar *
joind_known_network_id_for_profile(JoindProfile *profile)
{
	GBytes *ssid = joind_profile_get_ssid(profile);
	gsize len = 0;
	const guint8 *data;

	if (ssid == NULL)
		return NULL;
	data = g_bytes_get_data(ssid, &len);
	return joind_known_network_id(data, len, joind_profile_get_profile_type(profile));
}

/* Is id one that joind_known_network_id() can give? */
static gboolean
id_is_valid(const gchar *id)
{
	const gchar *sep = strchr(id, '_');
	gsize hex_len = sep != NULL ? (gsize)(sep - id) : 0;

	if (hex_len == 0 || hex_len % 2 != 0 || hex_len > SSID_MAX_LEN * 2)
		return FALSE;
	for (gsize i = 0; i < hex_len; i++) {
		if (!g_ascii_isdigit(id[i]) && (id[i] < 'a' || id[i] > 'f'))
			return FALSE;
	}
	return strcmp(sep + 1, "open") == 0 || strcmp(sep + 1, "psk") == 0 ||
	       strcmp(sep + 1, "8021x") == 0;
}

gboolean
joind_known_network_id_parse(const gchar *id, guint8 *ssid, gsize *ssid_len, JoindProfileType *type)
{
	const gchar *sep;
	gsize len;

	if (id == NULL || !id_is_valid(id))
		return FALSE;
	sep = strchr(id, '_');
	len = (gsize)(sep - id) / 2;
	for (gsize i = 0; i < len; i++)
		ssid[i] = (guint8)(g_ascii_xdigit_value(id[2 * i]) << 4 |
		                   g_ascii_xdigit_value(id[2 * i + 1]));
	*ssid_len = len;
	if (strcmp(sep + 1, "open") == 0)
		*type = JOIND_PROFILE_TYPE_OPEN;
	else if (strcmp(sep + 1, "psk") == 0)
		*type = JOIND_PROFILE_TYPE_PSK;
	else
		*type = JOIND_PROFILE_TYPE_8021X;
	return TRUE;
}

gchar *
joind_known_time_to_string(gint64 unix_time)
{
	g_autoptr(GDateTime) dt = NULL;

	if (unix_time <= 0)
		return g_strdup("");
	dt = g_date_time_new_from_unix_utc(unix_time);
	return dt != NULL ? g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ") : g_strdup("");
}

/* ---- the file ----------------------------------------------------------- */

static gint
compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const gchar *const *)a, *(const gchar *const *)b);
}

static void
build_entry(JsonBuilder *b, Entry *entry)
{
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "frequencies");
	json_builder_begin_array(b);
	for (guint i = 0; i < entry->freqs->len; i++)
		json_builder_add_int_value(b, g_array_index(entry->freqs, guint32, i));
	json_builder_end_array(b);
	if (entry->last_connected > 0) {
		g_autofree gchar *when = joind_known_time_to_string(entry->last_connected);

		json_builder_set_member_name(b, "last_connected");
		json_builder_add_string_value(b, when);
	}
	json_builder_set_member_name(b, "source");
	json_builder_add_string_value(b, entry->user_saved ? SOURCE_USER : SOURCE_ADMIN);
	json_builder_end_object(b);
}

/* The file's text, networks sorted by id so that equal memories give
 * equal text. */
static gchar *
state_to_json(JoindKnownState *self)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree gpointer *ids = NULL;
	guint n = 0;

	ids = g_hash_table_get_keys_as_array(self->entries, &n);
	qsort(ids, n, sizeof(gpointer), compare_strings);
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "version");
	json_builder_add_int_value(b, JOIND_KNOWN_STATE_VERSION);
	json_builder_set_member_name(b, "networks");
	json_builder_begin_object(b);
	for (guint i = 0; i < n; i++) {
		json_builder_set_member_name(b, ids[i]);
		build_entry(b, g_hash_table_lookup(self->entries, ids[i]));
	}
	json_builder_end_object(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	return json_to_string(root, TRUE);
}

/* Writes the memory when its text differs from the file's. */
static void
state_save(JoindKnownState *self)
{
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	if (self->path == NULL)
		return;
	text = state_to_json(self);
	if (g_strcmp0(text, self->on_disk) == 0)
		return;
	if (!joind_file_write_atomically(self->path, text, strlen(text), &error)) {
		/* note_seen may come often: say it once per reason. */
		if (g_strcmp0(self->write_problem, error->message) != 0)
			g_warning("%s; what joind learned is kept in memory only", error->message);
		g_free(self->write_problem);
		self->write_problem = g_strdup(error->message);
		return;
	}
	if (self->write_problem != NULL)
		g_info("%s written again", self->path);
	g_clear_pointer(&self->write_problem, g_free);
	g_free(self->on_disk);
	self->on_disk = g_steal_pointer(&text);
}

/* ---- reading it back ---------------------------------------------------- */

static gboolean
parse_frequencies(JsonNode *node, Entry *entry, const gchar *id, GError **error)
{
	JsonArray *array;

	if (!JSON_NODE_HOLDS_ARRAY(node)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "networks.%s.frequencies is not an array", id);
		return FALSE;
	}
	array = json_node_get_array(node);
	for (guint i = 0; i < json_array_get_length(array); i++) {
		JsonNode *item = json_array_get_element(array, i);
		gint64 mhz = JSON_NODE_HOLDS_VALUE(item) &&
		                             json_node_get_value_type(item) == G_TYPE_INT64
		                     ? json_node_get_int(item)
		                     : -1;
		guint32 freq = (guint32)mhz;
		gboolean seen = FALSE;

		if (mhz <= 0 || mhz > FREQ_MAX_MHZ) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "networks.%s.frequencies[%u] is not a frequency in MHz", id, i);
			return FALSE;
		}
		/* Tolerated, not fatal: repeats and more than joind keeps. */
		for (guint j = 0; j < entry->freqs->len && !seen; j++)
			seen = g_array_index(entry->freqs, guint32, j) == freq;
		if (!seen && entry->freqs->len < JOIND_KNOWN_MAX_FREQUENCIES)
			g_array_append_val(entry->freqs, freq);
	}
	return TRUE;
}

static gboolean
parse_string_member(JsonObject *obj, const gchar *member, const gchar *id, const gchar **value,
                    GError **error)
{
	JsonNode *node = json_object_get_member(obj, member);

	*value = NULL;
	if (node == NULL)
		return TRUE;
	if (!JSON_NODE_HOLDS_VALUE(node) || json_node_get_value_type(node) != G_TYPE_STRING) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "networks.%s.%s is not a string", id, member);
		return FALSE;
	}
	*value = json_node_get_string(node);
	return TRUE;
}

static Entry *
parse_entry(const gchar *id, JsonNode *node, GError **error)
{
	g_autoptr(GDateTime) dt = NULL;
	Entry *entry = entry_new();
	JsonObject *obj = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	JsonNode *freqs = obj != NULL ? json_object_get_member(obj, "frequencies") : NULL;
	const gchar *when = NULL, *source = NULL;

	if (!id_is_valid(id)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "“%s” is not a network id (<ssid-hex>_open|psk|8021x)", id);
		goto fail;
	}
	if (obj == NULL) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "networks.%s is not an object", id);
		goto fail;
	}
	if ((freqs != NULL && !parse_frequencies(freqs, entry, id, error)) ||
	    !parse_string_member(obj, "last_connected", id, &when, error) ||
	    !parse_string_member(obj, "source", id, &source, error))
		goto fail;
	if (when != NULL && *when != '\0') {
		dt = g_date_time_new_from_iso8601(when, NULL);
		if (dt == NULL) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "networks.%s.last_connected is not an ISO 8601 time", id);
			goto fail;
		}
		/* No time before 1970 is ever written ("never" is no member at
		 * all): read one as never, as the next write would have it. */
		entry->last_connected = MAX(g_date_time_to_unix(dt), 0);
	}
	if (source != NULL && strcmp(source, SOURCE_USER) != 0 &&
	    strcmp(source, SOURCE_ADMIN) != 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "networks.%s.source is neither “user” nor “admin”", id);
		goto fail;
	}
	entry->user_saved = g_strcmp0(source, SOURCE_USER) == 0;
	return entry;

/* cleanup: the half-read entry */
fail:
	entry_free(entry);
	return NULL;
}

/* Fills entries from the file's text; on error entries may hold part. */
static gboolean
parse_state(const gchar *text, gsize len, GHashTable *entries, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonObject *root, *networks;
	JsonNode *version, *node;
	g_autoptr(GList) ids = NULL;

	if (!json_parser_load_from_data(parser, text, (gssize)len, error))
		return FALSE;
	node = json_parser_get_root(parser);
	root = node != NULL && JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	version = root != NULL ? json_object_get_member(root, "version") : NULL;
	node = root != NULL ? json_object_get_member(root, "networks") : NULL;
	if (root == NULL || version == NULL || !JSON_NODE_HOLDS_VALUE(version) ||
	    json_node_get_value_type(version) != G_TYPE_INT64) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		                    "not an object with a numeric “version”");
		return FALSE;
	}
	if (json_node_get_int(version) != JOIND_KNOWN_STATE_VERSION) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "version %" G_GINT64_FORMAT " is not one this joind reads (%d)",
		            json_node_get_int(version), JOIND_KNOWN_STATE_VERSION);
		return FALSE;
	}
	if (node == NULL || !JSON_NODE_HOLDS_OBJECT(node)) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		                    "“networks” is missing or not an object");
		return FALSE;
	}
	networks = json_node_get_object(node);
	ids = json_object_get_members(networks);
	for (GList *l = ids; l != NULL; l = l->next) {
		Entry *entry =
		        parse_entry(l->data, json_object_get_member(networks, l->data), error);
		if (entry == NULL)
			return FALSE;
		g_hash_table_replace(entries, g_strdup(l->data), entry);
	}
	return TRUE;
}

/* A file joind cannot use is kept for a person to look at, out of the way
 * of the next write. */
static void
state_set_aside(JoindKnownState *self, const gchar *why)
{
	g_autofree gchar *bad = g_strconcat(self->path, ".bad", NULL);

	if (g_rename(self->path, bad) < 0) {
		g_warning("%s: %s; starting with no memory of known networks (could not "
		          "rename it to %s: %s)",
		          self->path, why, bad, g_strerror(errno));
		return;
	}
	g_warning("%s: %s; set aside as %s, starting with no memory of known networks", self->path,
	          why, bad);
}

typedef enum {
	STATE_FILE_ABSENT,
	STATE_FILE_TOO_LARGE,
	STATE_FILE_READABLE,
} StateFile;

/* What stat() tells of the file before reading it. Absence is the usual
 * case (no network joined yet) and is told here: GLib's error for a
 * missing file converts the file name and strerror() to UTF-8, and in a
 * daemon's C locale that maps iconv's modules (some 28 KiB resident). */
static StateFile
state_file_check(const gchar *path)
{
	GStatBuf st;

	if (g_stat(path, &st) < 0)
		return errno == ENOENT ? STATE_FILE_ABSENT : STATE_FILE_READABLE;
	if (S_ISREG(st.st_mode) && st.st_size > STATE_MAX_BYTES)
		return STATE_FILE_TOO_LARGE;
	return STATE_FILE_READABLE;
}

void
joind_known_state_load(JoindKnownState *self)
{
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	g_hash_table_remove_all(self->entries);
	g_clear_pointer(&self->on_disk, g_free);
	if (self->path == NULL)
		return;
	switch (state_file_check(self->path)) {
	case STATE_FILE_ABSENT:
		return;
	case STATE_FILE_TOO_LARGE:
		state_set_aside(self, "larger than 16 MiB, the most joind reads");
		return;
	case STATE_FILE_READABLE:
		break;
	}
	if (!g_file_get_contents(self->path, &text, &len, &error)) {
		if (g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return;
		if (g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_ISDIR))
			state_set_aside(self, "not a regular file");
		else
			g_warning("%s; starting with no memory of known networks", error->message);
		return;
	}
	if (!parse_state(text, len, self->entries, &error)) {
		g_hash_table_remove_all(self->entries);
		state_set_aside(self, error->message);
		return;
	}
	self->on_disk = g_steal_pointer(&text);
	g_debug("%s: %u known networks remembered", self->path, g_hash_table_size(self->entries));
}

/* ---- the memory --------------------------------------------------------- */

JoindKnownState *
joind_known_state_new(const gchar *state_dir)
{
	JoindKnownState *self = g_new0(JoindKnownState, 1);

	self->path = state_dir != NULL ? g_build_filename(state_dir, STATE_FILE, NULL) : NULL;
	self->entries = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, entry_free);
	return self;
}

void
joind_known_state_free(JoindKnownState *self)
{
	if (self == NULL)
		return;
	g_hash_table_unref(self->entries);
	g_free(self->path);
	g_free(self->on_disk);
	g_free(self->write_problem);
	g_free(self);
}

const gchar *
joind_known_state_get_path(JoindKnownState *self)
{
	return self->path;
}

static Entry *
entry_lookup(JoindKnownState *self, const guint8 *ssid, gsize ssid_len, JoindProfileType type,
             gboolean create)
{
	g_autofree gchar *id = joind_known_network_id(ssid, ssid_len, type);
	Entry *entry;

	if (id == NULL)
		return NULL;
	entry = g_hash_table_lookup(self->entries, id);
	if (entry == NULL && create) {
		entry = entry_new();
		g_hash_table_insert(self->entries, g_steal_pointer(&id), entry);
	}
	return entry;
}

static gint
freq_index(GArray *freqs, guint32 freq)
{
	for (guint i = 0; i < freqs->len; i++)
		if (g_array_index(freqs, guint32, i) == freq)
			return (gint)i;
	return -1;
}

void
joind_known_state_note_connected(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, guint32 freq, gint64 now)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, TRUE);
	gint at;

	if (entry == NULL)
		return;
	at = freq_index(entry->freqs, freq);
	if (at >= 0)
		g_array_remove_index(entry->freqs, (guint)at);
	g_array_prepend_val(entry->freqs, freq);
	if (entry->freqs->len > JOIND_KNOWN_MAX_FREQUENCIES)
		g_array_set_size(entry->freqs, JOIND_KNOWN_MAX_FREQUENCIES);
	entry->last_connected = now;
	state_save(self);
}

void
joind_known_state_note_seen(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                            JoindProfileType type, guint32 freq)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, TRUE);

	if (entry == NULL || freq_index(entry->freqs, freq) >= 0 ||
	    entry->freqs->len >= JOIND_KNOWN_MAX_FREQUENCIES)
		return;
	g_array_append_val(entry->freqs, freq);
	state_save(self);
}

void
joind_known_state_set_user_saved(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, gboolean user_saved)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, user_saved);

	if (entry == NULL || entry->user_saved == user_saved)
		return;
	entry->user_saved = user_saved;
	state_save(self);
}

void
joind_known_state_remove(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                         JoindProfileType type)
{
	g_autofree gchar *id = joind_known_network_id(ssid, ssid_len, type);

	if (id != NULL && g_hash_table_remove(self->entries, id))
		state_save(self);
}

void
joind_known_state_retain(JoindKnownState *self, GHashTable *ids)
{
	GHashTableIter iter;
	gpointer id;
	guint dropped = 0;

	g_hash_table_iter_init(&iter, self->entries);
	while (g_hash_table_iter_next(&iter, &id, NULL)) {
		if (g_hash_table_contains(ids, id))
			continue;
		g_debug("known network %s has no profile any more; forgetting it", (gchar *)id);
		g_hash_table_iter_remove(&iter);
		dropped++;
	}
	if (dropped > 0)
		state_save(self);
}

GArray *
joind_known_state_get_frequencies(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                  JoindProfileType type)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, FALSE);
	GArray *copy = g_array_new(FALSE, FALSE, sizeof(guint32));

	if (entry != NULL)
		g_array_append_vals(copy, entry->freqs->data, entry->freqs->len);
	return copy;
}

gint64
joind_known_state_get_last_connected(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                     JoindProfileType type)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, FALSE);

	return entry != NULL ? entry->last_connected : 0;
}

gboolean
joind_known_state_get_user_saved(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, FALSE);

	return entry != NULL && entry->user_saved;
}

guint
joind_known_state_get_n_networks(JoindKnownState *self)
{
	return g_hash_table_size(self->entries);
}
