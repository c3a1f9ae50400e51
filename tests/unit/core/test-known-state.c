/* test-known-state.c - state.json: what joind learned about known networks
 * survives a restart, keeps the most recent frequencies first and at most
 * JOIND_KNOWN_MAX_FREQUENCIES of them, is set aside when corrupt or
 * wrongly shaped, is written only when it changes, survives a directory it
 * cannot write to, and forgets networks whose profiles are gone. */
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "joind-known-state.h"
#include "joind-known.h"

#define HOME     ((const guint8 *)"Home")
#define HOME_LEN 4
#define CAFE     ((const guint8 *)"\xc3\xa9t\xc3\xa9")
#define CAFE_LEN 5
/* 2026-12-03T11:00:00Z */
#define T1 G_GINT64_CONSTANT(1796295600)

typedef struct {
	gchar *dir;
	gchar *path; /* dir/state.json */
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	f->dir = g_dir_make_tmp("joind-known-XXXXXX", &error);
	g_assert_no_error(error);
	f->path = g_build_filename(f->dir, "state.json", NULL);
}

static void
remove_tree(const gchar *path)
{
	g_autoptr(GDir) dir = NULL;
	const gchar *name;

	if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
		dir = g_dir_open(path, 0, NULL);
		while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
			g_autofree gchar *child = g_build_filename(path, name, NULL);
			remove_tree(child);
		}
	}
	g_assert_cmpint(g_remove(path), ==, 0);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	remove_tree(f->dir);
	g_free(f->path);
	g_free(f->dir);
}

static JoindKnownState *
state_open(Fixture *f)
{
	JoindKnownState *state = joind_known_state_new(f->dir);

	joind_known_state_load(state);
	return state;
}

static void
assert_freqs(JoindKnownState *state, const guint8 *ssid, gsize len, JoindProfileType type,
             const guint32 *want, guint n_want)
{
	g_autoptr(GArray) got = joind_known_state_get_frequencies(state, ssid, len, type);

	g_assert_cmpuint(got->len, ==, n_want);
	for (guint i = 0; i < n_want; i++)
		g_assert_cmpuint(g_array_index(got, guint32, i), ==, want[i]);
}

static ino_t
file_inode(const gchar *path)
{
	GStatBuf st;

	g_assert_cmpint(g_stat(path, &st), ==, 0);
	return st.st_ino;
}

static void
test_ids(void)
{
	g_autofree gchar *home = joind_known_network_id(HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK);
	g_autofree gchar *cafe = joind_known_network_id(CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN);
	g_autofree gchar *x = joind_known_network_id(HOME, HOME_LEN, JOIND_PROFILE_TYPE_8021X);
	g_autofree gchar *when = joind_known_time_to_string(T1);
	g_autofree gchar *never = joind_known_time_to_string(0);

	g_assert_cmpstr(home, ==, "486f6d65_psk");
	g_assert_cmpstr(cafe, ==, "c3a974c3a9_open");
	g_assert_cmpstr(x, ==, "486f6d65_8021x");
	g_assert_null(joind_known_network_id(HOME, HOME_LEN, JOIND_PROFILE_TYPE_WIRED));
	g_assert_null(joind_known_network_id(HOME, 0, JOIND_PROFILE_TYPE_PSK));
	g_assert_null(joind_known_network_id((const guint8 *)"0123456789abcdef0123456789abcdef!",
	                                     33, JOIND_PROFILE_TYPE_PSK));
	g_assert_cmpstr(when, ==, "2026-12-03T11:00:00Z");
	g_assert_cmpstr(never, ==, "");
}

/* Everything noted comes back after a restart, and the file reads well. */
static void
test_round_trip(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindKnownState) state = state_open(f);
	g_autoptr(JoindKnownState) again = NULL;
	g_autofree gchar *text = NULL;
	const guint32 home[] = {2437, 5180};
	const guint32 cafe[] = {2412};

	g_assert_false(g_file_test(f->path, G_FILE_TEST_EXISTS)); /* nothing learned yet */
	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437, T1);
	joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 5180);
	joind_known_state_set_user_saved(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, TRUE);
	joind_known_state_note_seen(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, 2412);
	g_clear_pointer(&state, joind_known_state_free);

	g_assert_true(g_file_get_contents(f->path, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, "\"version\" : 1"));
	g_assert_nonnull(strstr(text, "\"486f6d65_psk\""));
	g_assert_nonnull(strstr(text, "\"2026-12-03T11:00:00Z\""));
	g_assert_nonnull(strstr(text, "\"user\""));

	again = state_open(f);
	g_assert_cmpuint(joind_known_state_get_n_networks(again), ==, 2);
	assert_freqs(again, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, home, 2);
	assert_freqs(again, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, cafe, 1);
	g_assert_cmpint(
	        joind_known_state_get_last_connected(again, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK),
	        ==, T1);
	g_assert_cmpint(joind_known_state_get_last_connected(again, CAFE, CAFE_LEN,
	                                                     JOIND_PROFILE_TYPE_OPEN),
	                ==, 0);
	g_assert_true(
	        joind_known_state_get_user_saved(again, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK));
	g_assert_false(
	        joind_known_state_get_user_saved(again, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN));
	/* The same network with another security is another network. */
	assert_freqs(again, HOME, HOME_LEN, JOIND_PROFILE_TYPE_OPEN, NULL, 0);
}

/* Only a change is written: the file is replaced (new inode) by a change,
 * and left alone by notes that change nothing. */
static void
test_written_only_on_change(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindKnownState) state = state_open(f);
	ino_t before;

	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437, T1);
	before = file_inode(f->path);
	joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437);
	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437, T1);
	joind_known_state_set_user_saved(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, FALSE);
	joind_known_state_remove(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN);
	g_assert_cmpuint(file_inode(f->path), ==, before);
	g_clear_pointer(&state, joind_known_state_free);

	/* Nor does loading it write it again. */
	state = state_open(f);
	g_assert_cmpuint(file_inode(f->path), ==, before);
	joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 5180);
	g_assert_cmpuint(file_inode(f->path), !=, before);
}

/* Connections put their frequency first; sightings add new ones at the
 * back; at most JOIND_KNOWN_MAX_FREQUENCIES are kept, the oldest dropped. */
static void
test_mru_and_cap(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindKnownState) state = state_open(f);
	g_autoptr(JoindKnownState) again = NULL;
	const guint32 after_seen[] = {2412, 5180, 2437};
	const guint32 after_reconnect[] = {2437, 2412, 5180};
	guint32 capped[JOIND_KNOWN_MAX_FREQUENCIES];

	G_STATIC_ASSERT(JOIND_KNOWN_MAX_FREQUENCIES == 8);
	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2412, T1);
	joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 5180);
	joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437);
	joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 5180);
	assert_freqs(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, after_seen, 3);
	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437,
	                                 T1 + 60);
	assert_freqs(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, after_reconnect, 3);
	g_assert_cmpint(
	        joind_known_state_get_last_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK),
	        ==, T1 + 60);

	/* Ten connections on ten channels: the last eight, newest first. */
	for (guint i = 0; i < 10; i++)
		joind_known_state_note_connected(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN,
		                                 5180 + 20 * i, T1 + i);
	for (guint i = 0; i < JOIND_KNOWN_MAX_FREQUENCIES; i++)
		capped[i] = 5180 + 20 * (9 - i);
	assert_freqs(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, capped,
	             JOIND_KNOWN_MAX_FREQUENCIES);
	/* Full: a sighting of a new channel does not push a connected one out. */
	joind_known_state_note_seen(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, 2412);
	assert_freqs(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, capped,
	             JOIND_KNOWN_MAX_FREQUENCIES);
	/* The order survives a restart. */
	again = state_open(f);
	assert_freqs(again, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, capped,
	             JOIND_KNOWN_MAX_FREQUENCIES);
	assert_freqs(again, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, after_reconnect, 3);
}

typedef struct {
	const gchar *text;
	const gchar *why; /* a glob for the reason the warning gives */
} BadFile;

static const BadFile bad_files[] = {
        {"{\"version\": 1, \"networks\": {", "*state.json*set aside as*state.json.bad*"},
        {"", "*state.json*set aside*"},
        {"[1, 2]", "*numeric “version”*set aside*"},
        {"{\"networks\": {}}", "*numeric “version”*"},
        {"{\"version\": \"1\", \"networks\": {}}", "*numeric “version”*"},
        {"{\"version\": 2, \"networks\": {}}", "*version 2 is not one this joind reads*"},
        {"{\"version\": 1, \"networks\": []}", "*“networks” is missing or not an object*"},
        {"{\"version\": 1}", "*“networks” is missing*"},
        {"{\"version\": 1, \"networks\": {\"Home_psk\": {}}}", "*“Home_psk” is not a network id*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_wep\": {}}}", "*not a network id*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_psk\": 7}}",
         "*networks.486f6d65_psk is not an object*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_psk\": {\"frequencies\": 2437}}}",
         "*frequencies is not an array*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_psk\": {\"frequencies\": [2437, \"x\"]}}}",
         "*frequencies[1] is not a frequency in MHz*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_psk\": {\"frequencies\": [-5]}}}",
         "*frequencies[0] is not a frequency*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_psk\": {\"last_connected\": \"noon\"}}}",
         "*last_connected is not an ISO 8601 time*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_psk\": {\"last_connected\": 5}}}",
         "*last_connected is not a string*"},
        {"{\"version\": 1, \"networks\": {\"486f6d65_psk\": {\"source\": \"root\"}}}",
         "*source is neither*"},
};

/* A file joind cannot use: one warning naming it and why, the file kept as
 * state.json.bad, an empty memory, and a fresh file on the next change. */
static void
test_corrupt(Fixture *f, gconstpointer data)
{
	g_autofree gchar *bad_path = g_strconcat(f->path, ".bad", NULL);

	for (guint i = 0; i < G_N_ELEMENTS(bad_files); i++) {
		g_autoptr(JoindKnownState) state = NULL;
		g_autofree gchar *kept = NULL;
		g_autofree gchar *fresh = NULL;

		g_test_message("bad file %u: %s", i, bad_files[i].text);
		g_assert_true(g_file_set_contents(f->path, bad_files[i].text, -1, NULL));
		g_test_expect_message("joind", G_LOG_LEVEL_WARNING, bad_files[i].why);
		state = state_open(f);
		g_test_assert_expected_messages();
		g_assert_cmpuint(joind_known_state_get_n_networks(state), ==, 0);
		g_assert_false(g_file_test(f->path, G_FILE_TEST_EXISTS));
		g_assert_true(g_file_get_contents(bad_path, &kept, NULL, NULL));
		g_assert_cmpstr(kept, ==, bad_files[i].text);
		joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437);
		g_assert_true(g_file_get_contents(f->path, &fresh, NULL, NULL));
		g_assert_nonnull(strstr(fresh, "486f6d65_psk"));
	}
}

/* Tolerated: unknown members (a newer joind's additions), repeated
 * frequencies, more of them than joind keeps, no frequencies at all. */
static void
test_tolerated(Fixture *f, gconstpointer data)
{
	const gchar *text = "{\"version\": 1, \"written_by\": \"joind 9\", \"networks\": {"
	                    "\"486f6d65_psk\": {\"frequencies\": [1, 2, 2, 3, 4, 5, 6, 7, 8, 9],"
	                    " \"rank\": 3, \"last_connected\": \"2026-12-03T12:00:00+01:00\"},"
	                    "\"c3a974c3a9_open\": {}}}";
	const guint32 want[] = {1, 2, 3, 4, 5, 6, 7, 8};
	g_autoptr(JoindKnownState) state = NULL;

	g_assert_true(g_file_set_contents(f->path, text, -1, NULL));
	state = state_open(f);
	g_assert_cmpuint(joind_known_state_get_n_networks(state), ==, 2);
	assert_freqs(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, want, G_N_ELEMENTS(want));
	g_assert_cmpint(
	        joind_known_state_get_last_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK),
	        ==, T1);
	assert_freqs(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, NULL, 0);
}

/* A directory that cannot hold the file (here: a regular file stands where
 * it should be, which even root cannot write into): one warning, however
 * many changes fail the same way; the memory still answers; once the
 * directory is usable the next change is written. */
static void
test_unwritable(Fixture *f, gconstpointer data)
{
	g_autofree gchar *blocked = g_build_filename(f->dir, "blocked", NULL);
	g_autofree gchar *path = g_build_filename(blocked, "state.json", NULL);
	g_autoptr(JoindKnownState) state = joind_known_state_new(blocked);
	const guint32 want[] = {2437, 5180};
	g_autofree gchar *text = NULL;

	g_assert_true(g_file_set_contents(blocked, "not a directory", -1, NULL));
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING, "*blocked/state.json*no memory*");
	joind_known_state_load(state); /* ENOTDIR: warned, not fatal */
	g_test_assert_expected_messages();
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING, "*Could not write*state.json*");
	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437, T1);
	g_test_assert_expected_messages();
	/* The same failure again: not reported again (a warning here would
	 * abort the test). */
	joind_known_state_note_seen(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 5180);
	assert_freqs(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, want, 2);

	g_assert_cmpint(g_unlink(blocked), ==, 0);
	g_assert_cmpint(g_mkdir(blocked, 0700), ==, 0);
	joind_known_state_note_seen(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, 2412);
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, "486f6d65_psk"));
	g_assert_nonnull(strstr(text, "5180"));
}

/* A network whose profile is gone is forgotten, on disk too; retain()
 * drops every network not in the set. */
static void
test_removal(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindKnownState) state = state_open(f);
	g_autoptr(JoindKnownState) again = NULL;
	g_autoptr(GHashTable) keep = g_hash_table_new(g_str_hash, g_str_equal);
	const guint32 want[] = {2412};

	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437, T1);
	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_OPEN, 2462, T1);
	joind_known_state_note_seen(state, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, 2412);
	joind_known_state_remove(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK);
	g_assert_cmpuint(joind_known_state_get_n_networks(state), ==, 2);
	assert_freqs(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, NULL, 0);
	g_assert_cmpint(
	        joind_known_state_get_last_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK),
	        ==, 0);
	again = state_open(f);
	g_assert_cmpuint(joind_known_state_get_n_networks(again), ==, 2);
	assert_freqs(again, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, NULL, 0);

	g_hash_table_add(keep, (gpointer) "c3a974c3a9_open");
	joind_known_state_retain(again, keep);
	g_clear_pointer(&again, joind_known_state_free);
	again = state_open(f);
	g_assert_cmpuint(joind_known_state_get_n_networks(again), ==, 1);
	assert_freqs(again, CAFE, CAFE_LEN, JOIND_PROFILE_TYPE_OPEN, want, 1);
}

/* No state dir: a memory only, nothing written anywhere. */
static void
test_memory_only(void)
{
	g_autoptr(JoindKnownState) state = joind_known_state_new(NULL);
	const guint32 want[] = {2437};

	joind_known_state_load(state);
	g_assert_null(joind_known_state_get_path(state));
	joind_known_state_note_connected(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, 2437, T1);
	assert_freqs(state, HOME, HOME_LEN, JOIND_PROFILE_TYPE_PSK, want, 1);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/known-state/ids", test_ids);
	g_test_add_func("/known-state/memory-only", test_memory_only);
#define ADD(name, fn) \
	g_test_add("/known-state/" name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("round-trip", test_round_trip);
	ADD("written-only-on-change", test_written_only_on_change);
	ADD("mru-and-cap", test_mru_and_cap);
	ADD("corrupt", test_corrupt);
	ADD("tolerated", test_tolerated);
	ADD("unwritable", test_unwritable);
	ADD("removal", test_removal);
#undef ADD
	return g_test_run();
}
