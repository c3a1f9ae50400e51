/* fuzz-known-state.c - state.json as joind reads it at start.
 *
 * The input is the file's content: the target writes it to state.json in a
 * directory of its own and loads it through the core's loader. The file is
 * joind's, but a crash on a torn or hand-edited one would stop the daemon
 * from coming up, so it gets the treatment of data off the wire. A file
 * that is refused is set aside with nothing remembered; one that is taken
 * must give, network by network, what its text says within joind's limits,
 * and what joind then writes back must read the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "joind-known-state.h"
#include "joind-known.h"

#define EXTRA     ((const guint8 *)"fuzz")
#define EXTRA_LEN 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void);

/* json-glib 1.6 takes a text of several top-level values as the first one
 * and never frees the others: its leak, not the loader's (the parser and
 * every node it hands out stay checked). GLib and json-glib are built
 * without frame pointers, so only the slow unwinder sees the json-glib
 * frame the suppression names. */
const char *
__lsan_default_suppressions(void)
{
	return "leak:json_parser_load_from_data\n";
}

const char *
__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

static gchar *dir, *path, *bad;

static GLogWriterOutput
drop_log(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
	/* A refused file is reported with g_warning by design; a critical
	 * or an error would be a bug, so those still abort. */
	if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR))
		abort();
	return G_LOG_WRITER_HANDLED;
}

static void
remove_dir(void)
{
	g_remove(path);
	g_remove(bad);
	g_rmdir(dir);
}

static void
setup_once(void)
{
	if (dir != NULL)
		return;
	g_log_set_writer_func(drop_log, NULL, NULL);
	/* Every input is written and read back, with an fsync each time:
	 * memory-backed when the machine offers it, or the target crawls. */
	dir = g_strdup("/dev/shm/fuzz-known-state-XXXXXX");
	if (g_mkdtemp(dir) == NULL) {
		g_free(dir);
		dir = g_dir_make_tmp("fuzz-known-state-XXXXXX", NULL);
	}
	if (dir == NULL)
		abort();
	path = g_build_filename(dir, "state.json", NULL);
	bad = g_strconcat(path, ".bad", NULL);
	atexit(remove_dir);
}

static void
write_file(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
}

/* An id of the file that joind would give a network: its SSID and type. */
static gboolean
id_to_network(const gchar *id, guint8 *ssid, gsize *len, JoindProfileType *type)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};
	const gchar *sep = strchr(id, '_');
	gsize hex_len = sep != NULL ? (gsize)(sep - id) : 0;

	if (hex_len == 0 || hex_len % 2 != 0 || hex_len > 64)
		return FALSE;
	for (gsize i = 0; i < hex_len / 2; i++) {
		gint hi = g_ascii_xdigit_value(id[2 * i]), lo = g_ascii_xdigit_value(id[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return FALSE;
		ssid[i] = (guint8)(hi << 4 | lo);
	}
	*len = hex_len / 2;
	for (gsize i = 0; i < G_N_ELEMENTS(types); i++) {
		g_autofree gchar *want = joind_known_network_id(ssid, *len, types[i]);

		if (g_strcmp0(want, id) == 0) {
			*type = types[i];
			return TRUE;
		}
	}
	return FALSE;
}

/* The ids the text names, the way json-glib reads them. */
static GPtrArray *
ids_of(const gchar *text, gsize len)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	JsonNode *root, *networks;
	g_autoptr(GList) members = NULL;

	if (!json_parser_load_from_data(parser, text, (gssize)len, NULL))
		abort(); /* the loader took it */
	root = json_parser_get_root(parser);
	networks = json_object_get_member(json_node_get_object(root), "networks");
	members = json_object_get_members(json_node_get_object(networks));
	for (GList *l = members; l != NULL; l = l->next)
		g_ptr_array_add(ids, g_strdup(l->data));
	return ids;
}

/* Each named network is remembered within limits, and the same in b. */
static void
check_networks(GPtrArray *ids, JoindKnownState *a, JoindKnownState *b)
{
	for (guint i = 0; i < ids->len; i++) {
		guint8 ssid[32];
		gsize len;
		JoindProfileType type;
		g_autoptr(GArray) fa = NULL;
		g_autoptr(GArray) fb = NULL;

		if (!id_to_network(ids->pdata[i], ssid, &len, &type))
			abort(); /* the loader takes only ids joind gives */
		fa = joind_known_state_get_frequencies(a, ssid, len, type);
		fb = joind_known_state_get_frequencies(b, ssid, len, type);
		if (fa->len > JOIND_KNOWN_MAX_FREQUENCIES || fa->len != fb->len)
			abort();
		for (guint j = 0; j < fa->len; j++) {
			guint32 freq = g_array_index(fa, guint32, j);
			if (freq == 0 || freq > 100000 || freq != g_array_index(fb, guint32, j))
				abort();
		}
		if (joind_known_state_get_last_connected(a, ssid, len, type) !=
		            joind_known_state_get_last_connected(b, ssid, len, type) ||
		    joind_known_state_get_user_saved(a, ssid, len, type) !=
		            joind_known_state_get_user_saved(b, ssid, len, type))
			abort();
	}
}

static gboolean
ids_contain(GPtrArray *ids, const gchar *id)
{
	for (guint i = 0; i < ids->len; i++)
		if (strcmp(ids->pdata[i], id) == 0)
			return TRUE;
	return FALSE;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(JoindKnownState) state = NULL;
	g_autoptr(JoindKnownState) again = NULL;
	g_autoptr(GPtrArray) ids = NULL;
	g_autofree gchar *extra = joind_known_network_id(EXTRA, EXTRA_LEN, JOIND_PROFILE_TYPE_PSK);
	guint n;

	setup_once();
	g_remove(bad);
	write_file(data, size);
	state = joind_known_state_new(dir);
	joind_known_state_load(state);
	n = joind_known_state_get_n_networks(state);
	if (g_file_test(bad, G_FILE_TEST_EXISTS)) {
		/* Refused: set aside, nothing half-remembered. */
		if (n != 0 || g_file_test(path, G_FILE_TEST_EXISTS))
			abort();
		return 0;
	}
	ids = ids_of((const gchar *)data, size);
	if (ids->len != n)
		abort();
	/* What joind writes after a change reads back as the same memory. */
	joind_known_state_note_connected(state, EXTRA, EXTRA_LEN, JOIND_PROFILE_TYPE_PSK, 2412,
	                                 G_GINT64_CONSTANT(1796295600));
	if (joind_known_state_get_n_networks(state) != n + (ids_contain(ids, extra) ? 0 : 1))
		abort();
	again = joind_known_state_new(dir);
	joind_known_state_load(again);
	if (g_file_test(bad, G_FILE_TEST_EXISTS) ||
	    joind_known_state_get_n_networks(again) != joind_known_state_get_n_networks(state))
		abort();
	g_ptr_array_add(ids, g_steal_pointer(&extra));
	check_networks(ids, state, again);
	return 0;
}
