/* test-profile-store.c - the live store in a temporary directory: loading,
 * saving and removing, and reloading on real inotify events driven by a
 * GMainLoop, with exactly one signal per change. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <glib/gstdio.h>

#include "eap-md5.h"
#include "eap-tls.h"
#include "joind-error.h"
#include "joind-profile-keys.h"
#include "joind-profile-store.h"
#include "profile-keys.h"
#include "test-dir.h"

/* Longer than the store's settle time (100 ms): a second signal for the
 * same change would show up in it. */
#define QUIET_MS 400
#define WAIT_MS  5000

#define PSK_TEXT   "[Security]\nPassphrase=correct horse\n"
#define PSK_TEXT_2 "[Security]\nPassphrase=battery staple\n"
#define WIRED_TEXT "[Match]\nInterface=enp*\n[Security]\nEAP-Method=MD5\nEAP-Identity=bob\n"

typedef struct {
	JoindProfileChange change;
	gchar *path;
	JoindProfile *profile;
} Seen;

typedef struct {
	gchar *root;
	gchar *dir; /* the state directory, root/state */
	JoindProfileStore *store;
	GPtrArray *seen;          /* Seen */
	GPtrArray *warnings;      /* gchar *: the store's g_warning()s */
	GPtrArray *logs;          /* gchar *: everything it logged, debug included */
	GPtrArray *error_signals; /* gchar *: basenames of "profile-error" */
	GMainLoop *loop;
	guint target;
	guint log_handler;
} Fixture;

static void
seen_free(gpointer data)
{
	Seen *s = data;

	g_free(s->path);
	g_object_unref(s->profile);
	g_free(s);
}

static void
capture_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer user_data)
{
	Fixture *f = user_data;

	g_ptr_array_add(f->logs, g_strdup(message));
	if ((level & G_LOG_LEVEL_WARNING) == 0)
		return;
	g_test_message("warning: %s", message);
	g_ptr_array_add(f->warnings, g_strdup(message));
}

/* Warnings of the store are what these tests look at, not failures. */
static gboolean
warnings_not_fatal(const gchar *domain, GLogLevelFlags level, const gchar *message,
                   gpointer user_data)
{
	return !(g_strcmp0(domain, "joind") == 0 && (level & G_LOG_LEVEL_WARNING) != 0);
}

static void
on_profile_changed(JoindProfileStore *store, JoindProfile *profile, gint change, Fixture *f)
{
	Seen *s = g_new0(Seen, 1);

	s->change = (JoindProfileChange)change;
	s->path = g_strdup(joind_profile_get_path(profile));
	s->profile = g_object_ref(profile);
	g_ptr_array_add(f->seen, s);
	if (f->seen->len >= f->target && g_main_loop_is_running(f->loop))
		g_main_loop_quit(f->loop);
}

static void
on_profile_error(JoindProfileStore *store, const gchar *path, Fixture *f)
{
	g_autofree gchar *base = g_path_get_basename(path);

	g_ptr_array_add(f->error_signals, g_steal_pointer(&base));
}

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->root = g_dir_make_tmp("joind-store-XXXXXX", NULL);
	g_assert_nonnull(f->root);
	f->dir = g_build_filename(f->root, "state", NULL);
	f->seen = g_ptr_array_new_with_free_func(seen_free);
	f->warnings = g_ptr_array_new_with_free_func(g_free);
	f->loop = g_main_loop_new(NULL, FALSE);
	f->logs = g_ptr_array_new_with_free_func(g_free);
	f->error_signals = g_ptr_array_new_with_free_func(g_free);
	f->log_handler = g_log_set_handler(
	        "joind", G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION, capture_log,
	        f);
	g_test_log_set_fatal_handler(warnings_not_fatal, NULL);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_clear_object(&f->store);
	g_log_remove_handler("joind", f->log_handler);
	g_ptr_array_unref(f->seen);
	g_ptr_array_unref(f->warnings);
	g_ptr_array_unref(f->logs);
	g_ptr_array_unref(f->error_signals);
	g_main_loop_unref(f->loop);
	test_dir_remove_tree(f->root);
	g_free(f->dir);
	g_free(f->root);
}

static gboolean
quit_loop(gpointer user_data)
{
	g_main_loop_quit(user_data);
	return G_SOURCE_REMOVE;
}

static void
run_for(Fixture *f, guint ms)
{
	f->target = G_MAXUINT;
	g_timeout_add(ms, quit_loop, f->loop);
	g_main_loop_run(f->loop);
}

/* Runs the loop until n signals were seen in all (or WAIT_MS passed), then
 * a quiet time, and checks that exactly n came. */
static void
expect_signals(Fixture *f, guint n)
{
	if (f->seen->len < n) {
		guint timeout = g_timeout_add(WAIT_MS, quit_loop, f->loop);
		f->target = n;
		g_main_loop_run(f->loop);
		if (f->seen->len >= n)
			g_source_remove(timeout);
	}
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, n);
}

static void
assert_seen(Fixture *f, guint i, JoindProfileChange change, const gchar *basename)
{
	Seen *s;
	g_autofree gchar *base = NULL;

	g_assert_cmpuint(i, <, f->seen->len);
	s = g_ptr_array_index(f->seen, i);
	base = g_path_get_basename(s->path);
	g_assert_cmpstr(base, ==, basename);
	g_assert_cmpint(s->change, ==, change);
}

static void
clear_seen(Fixture *f)
{
	g_ptr_array_set_size(f->seen, 0);
	g_ptr_array_set_size(f->warnings, 0);
}

static gchar *
state_path(Fixture *f, const gchar *name)
{
	return g_build_filename(f->dir, name, NULL);
}

/* Rename-based, like most tools (and GLib) write files. */
static void
put_file(Fixture *f, const gchar *name, const gchar *text)
{
	g_autofree gchar *path = state_path(f, name);
	g_autofree gchar *parent = g_path_get_dirname(path);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(g_mkdir_with_parents(parent, 0700), ==, 0);
	g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error);
	g_assert_no_error(error);
}

static void
load_store(Fixture *f)
{
	g_autoptr(GError) error = NULL;

	f->store = joind_profile_store_new(f->dir);
	g_signal_connect(f->store, "profile-changed", G_CALLBACK(on_profile_changed), f);
	g_signal_connect(f->store, "profile-error", G_CALLBACK(on_profile_error), f);
	g_assert_true(joind_profile_store_load(f->store, &error));
	g_assert_no_error(error);
}

static gchar *
profile_string(JoindProfile *profile, const gchar *group, const gchar *key)
{
	return joind_profile_get_string(profile, group, key);
}

static gboolean
warnings_contain(Fixture *f, const gchar *fragment)
{
	for (guint i = 0; i < f->warnings->len; i++) {
		if (strstr(g_ptr_array_index(f->warnings, i), fragment) != NULL)
			return TRUE;
	}
	return FALSE;
}

static void
assert_no_secret_logged(Fixture *f, const gchar *secret)
{
	g_assert_cmpuint(f->logs->len, >=, f->warnings->len);
	for (guint i = 0; i < f->logs->len; i++)
		g_assert_null(strstr(g_ptr_array_index(f->logs, i), secret));
}

/* ---- Loading ------------------------------------------------------------- */

static void
test_load(Fixture *f, gconstpointer data)
{
	g_autoptr(GPtrArray) psk = NULL;
	g_autoptr(GPtrArray) wired = NULL;
	g_autoptr(JoindProfile) cafe = NULL;
	g_autofree gchar *dir_psk = state_path(f, "somedir.psk");

	put_file(f, "home.psk", PSK_TEXT);
	put_file(f, "=636166c3a9.psk", PSK_TEXT_2);
	put_file(f, "Free Wifi.open", "[Settings]\nAutoConnect=false\n");
	put_file(f, "corp.8021x", "[Security]\nEAP-Method=TLS\n");
	put_file(f, "bad.psk", "[Security]\nPassphrase=Zq9Sec\n");
	put_file(f, "caf\xc3\xa9.open", "");
	put_file(f, "state.json", "{}");
	put_file(f, "home.psk~", "junk");
	put_file(f, "wired/office.8021x", WIRED_TEXT);
	put_file(f, "wired/nomatch.8021x", "[Security]\nEAP-Method=MD5\n");
	put_file(f, "wired/README", "notes");
	g_assert_cmpint(g_mkdir(dir_psk, 0700), ==, 0);

	load_store(f);

	/* Loaded: every good file, once; sorted lists; SSID names decoded. */
	g_assert_cmpuint(f->seen->len, ==, 6);
	for (guint i = 0; i < f->seen->len; i++)
		g_assert_cmpint(((Seen *)g_ptr_array_index(f->seen, i))->change, ==,
		                JOIND_PROFILE_CHANGE_ADDED);
	psk = joind_profile_store_list(f->store, JOIND_PROFILE_TYPE_PSK);
	g_assert_cmpuint(psk->len, ==, 2);
	g_assert_cmpstr(joind_profile_get_name(g_ptr_array_index(psk, 0)), ==, "caf\xc3\xa9");
	g_assert_cmpstr(joind_profile_get_name(g_ptr_array_index(psk, 1)), ==, "home");
	wired = joind_profile_store_list(f->store, JOIND_PROFILE_TYPE_WIRED);
	g_assert_cmpuint(wired->len, ==, 2);
	cafe = joind_profile_store_find_network(f->store, (const guint8 *)"caf\xc3\xa9", 5,
	                                        JOIND_PROFILE_TYPE_PSK);
	g_assert_nonnull(cafe);
	g_assert_null(joind_profile_store_find_network(f->store, (const guint8 *)"caf\xc3\xa9", 5,
	                                               JOIND_PROFILE_TYPE_OPEN));
	g_assert_null(joind_profile_store_find_network(f->store, (const guint8 *)"bad", 3,
	                                               JOIND_PROFILE_TYPE_PSK));

	/* Reported: the bad file with its line, the misnamed one with the right
	 * name, the directory, the wired profile that matches nothing. */
	g_assert_true(warnings_contain(f, "bad.psk:2: Passphrase:"));
	g_assert_true(warnings_contain(f, "caf\xc3\xa9.open: not a profile name"));
	g_assert_true(warnings_contain(f, "“=636166c3a9.open”"));
	g_assert_true(warnings_contain(f, "somedir.psk: not a regular file"));
	g_assert_true(warnings_contain(f, "nomatch.8021x: no Interface= or MACAddress="));
	g_assert_cmpuint(f->warnings->len, ==, 4);
	assert_no_secret_logged(f, "Zq9Sec");

	/* Watching starts quietly. */
	expect_signals(f, 6);
}

static void
test_create_dirs(Fixture *f, gconstpointer data)
{
	g_autofree gchar *nested = g_build_filename(f->root, "a", "b", NULL);
	g_autofree gchar *wired = g_build_filename(nested, "wired", NULL);
	struct stat st;

	g_free(f->dir);
	f->dir = g_strdup(nested);
	load_store(f);
	g_assert_cmpint(g_stat(nested, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 0777, ==, 0700);
	g_assert_cmpint(g_stat(wired, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 0777, ==, 0700);
	g_assert_cmpuint(f->seen->len, ==, 0);
	g_assert_cmpuint(f->warnings->len, ==, 0);
}

static void
test_load_fails(Fixture *f, gconstpointer data)
{
	g_autofree gchar *file = g_build_filename(f->root, "plain-file", NULL);
	g_autoptr(JoindProfileStore) store = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(file, "", 0, NULL));
	store = joind_profile_store_new(file);
	g_assert_false(joind_profile_store_load(store, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_nonnull(strstr(error->message, file));
}

static void
test_world_readable(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");

	put_file(f, "home.psk", PSK_TEXT);
	put_file(f, "open.open", "");
	g_assert_cmpint(g_chmod(path, 0644), ==, 0);
	load_store(f);
	g_assert_cmpuint(f->seen->len, ==, 2);
	g_assert_cmpuint(f->warnings->len, ==, 1);
	g_assert_true(warnings_contain(f, "home.psk: readable by other users"));
}

static void
test_find_wired_order(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindProfile) a = NULL;
	g_autoptr(JoindProfile) b = NULL;

	put_file(f, "wired/b.8021x", "[Match]\nInterface=eth0\n[Security]\nEAP-Method=MD5\n");
	put_file(f, "wired/a.8021x", "[Match]\nInterface=eth*\n[Security]\nEAP-Method=TLS\n");
	put_file(f, "wired/c.8021x",
	         "[Match]\nMACAddress=02:00:00:00:00:0c\n[Security]\nEAP-Method=TLS\n");
	load_store(f);
	/* Several matches: the first by file name. */
	a = joind_profile_store_find_wired(f->store, "eth0", "02:00:00:00:00:0c");
	g_assert_cmpstr(joind_profile_get_name(a), ==, "a");
	b = joind_profile_store_find_wired(f->store, "enp1s0", "02:00:00:00:00:0C");
	g_assert_cmpstr(joind_profile_get_name(b), ==, "c");
	g_assert_null(joind_profile_store_find_wired(f->store, "enp1s0", "02:00:00:00:00:0d"));
}

/* ---- Saving and removing ------------------------------------------------- */

static GKeyFile *
psk_keyfile(const gchar *passphrase)
{
	GKeyFile *kf = g_key_file_new();

	g_key_file_set_string(kf, "Security", "Passphrase", passphrase);
	return kf;
}

static guint
count_entries(const gchar *dir_path)
{
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	guint n = 0;

	while (dir != NULL && g_dir_read_name(dir) != NULL)
		n++;
	return n;
}

static void save_again(Fixture *f, GKeyFile *kf, const gchar *path, const gchar *expected);

static void
test_save(Fixture *f, gconstpointer data)
{
	g_autoptr(GKeyFile) kf = psk_keyfile("correct horse");
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) found = NULL;
	g_autofree gchar *path = state_path(f, "home.psk");
	g_autofree gchar *expected = g_key_file_to_data(kf, NULL, NULL);
	g_autofree gchar *written = NULL;
	g_autofree gchar *pass = NULL;
	struct stat st;
	mode_t old_umask;

	load_store(f);
	/* Mode 0600 whatever the umask. */
	old_umask = umask(0);
	g_assert_true(joind_profile_store_save_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK, kf, &error));
	umask(old_umask);
	g_assert_no_error(error);

	/* The store knows at once, without waiting for the monitor. */
	g_assert_cmpuint(f->seen->len, ==, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "home.psk");
	found = joind_profile_store_find_network(f->store, (const guint8 *)"home", 4,
	                                         JOIND_PROFILE_TYPE_PSK);
	g_assert_nonnull(found);
	pass = profile_string(found, "Security", "Passphrase");
	g_assert_cmpstr(pass, ==, "correct horse");

	/* On disk: the content, 0600, and no temporary file left. */
	g_assert_true(g_file_get_contents(path, &written, NULL, NULL));
	g_assert_cmpstr(written, ==, expected);
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 0777, ==, 0600);
	g_assert_cmpuint(count_entries(f->dir), ==, 2); /* home.psk, wired */

	/* The monitor's echo of our own write changes nothing. */
	expect_signals(f, 1);
	g_assert_cmpuint(f->warnings->len, ==, 0);

	save_again(f, kf, path, expected);
}

/* test_save, continued: the same again changes nothing; something else is
 * CHANGED, through a new file renamed over the old one (a new inode: atomic
 * replacement). */
static void
save_again(Fixture *f, GKeyFile *kf, const gchar *path, const gchar *expected)
{
	g_autoptr(GError) error = NULL;
	struct stat before, after;
	gchar old_text[256];
	int old_fd;

	g_assert_true(joind_profile_store_save_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK, kf, &error));
	g_assert_cmpuint(f->seen->len, ==, 1);
	old_fd = g_open(path, O_RDONLY, 0);
	g_assert_cmpint(fstat(old_fd, &before), ==, 0);
	g_key_file_set_boolean(kf, "Settings", "AutoConnect", FALSE);
	g_assert_true(joind_profile_store_save_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK, kf, &error));
	g_assert_cmpuint(f->seen->len, ==, 2);
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_CHANGED, "home.psk");
	g_assert_cmpint(g_stat(path, &after), ==, 0);
	g_assert_cmpuint(after.st_ino, !=, before.st_ino);
	g_assert_cmpint(after.st_mode & 0777, ==, 0600);
	/* A reader of the old file still has all of it. */
	g_assert_cmpint(read(old_fd, old_text, sizeof(old_text)), ==, (gssize)strlen(expected));
	g_assert_cmpmem(old_text, strlen(expected), expected, strlen(expected));
	close(old_fd);
	g_assert_false(joind_profile_get_boolean(((Seen *)g_ptr_array_index(f->seen, 1))->profile,
	                                         "Settings", "AutoConnect", TRUE));
	expect_signals(f, 2);
	g_assert_cmpuint(count_entries(f->dir), ==, 2);
}

static void
test_save_hex_name(Fixture *f, gconstpointer data)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autofree gchar *path = state_path(f, "=ff41.open");
	const guint8 ssid[] = {0xff, 'A'};

	load_store(f);
	g_key_file_set_boolean(kf, "Settings", "Hidden", TRUE);
	g_assert_true(joind_profile_store_save_network(f->store, ssid, sizeof(ssid),
	                                               JOIND_PROFILE_TYPE_OPEN, kf, &error));
	g_assert_no_error(error);
	g_assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "=ff41.open");
	g_assert_cmpstr(joind_profile_get_name(((Seen *)g_ptr_array_index(f->seen, 0))->profile),
	                ==, "\\xffA");
	expect_signals(f, 1);
}

static void
test_save_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(GKeyFile) good = psk_keyfile("correct horse");
	g_autoptr(GKeyFile) bad = psk_keyfile("Zq9Sec");
	g_autoptr(GError) error = NULL;
	g_autofree gchar *path = state_path(f, "home.psk");
	g_autofree gchar *written = NULL;
	g_autofree gchar *expected = g_key_file_to_data(good, NULL, NULL);
	const gchar long_ssid[] = "abcdefghijklmnopqrstuvwxyz0123456";

	load_store(f);
	g_assert_true(joind_profile_store_save_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK, good, &error));
	/* A bad profile is not written: the error names the line, not the secret. */
	g_assert_false(joind_profile_store_save_network(f->store, (const guint8 *)"home", 4,
	                                                JOIND_PROFILE_TYPE_PSK, bad, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "home.psk:2: Passphrase:"));
	g_assert_null(strstr(error->message, "Zq9Sec"));
	g_clear_error(&error);
	g_assert_true(g_file_get_contents(path, &written, NULL, NULL));
	g_assert_cmpstr(written, ==, expected);

	g_assert_false(joind_profile_store_save_network(f->store, (const guint8 *)long_ssid, 33,
	                                                JOIND_PROFILE_TYPE_PSK, good, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(joind_profile_store_save_network(f->store, (const guint8 *)"x", 1,
	                                                JOIND_PROFILE_TYPE_WIRED, good, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_cmpuint(count_entries(f->dir), ==, 2);
	expect_signals(f, 1);
}

static void
test_remove(Fixture *f, gconstpointer data)
{
	g_autoptr(GKeyFile) kf = psk_keyfile("correct horse");
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	g_autofree gchar *path = state_path(f, "home.psk");

	load_store(f);
	g_assert_true(joind_profile_store_save_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK, kf, &error));
	profile = joind_profile_store_find_network(f->store, (const guint8 *)"home", 4,
	                                           JOIND_PROFILE_TYPE_PSK);
	g_assert_true(joind_profile_store_remove(f->store, profile, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f->seen->len, ==, 2);
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_REMOVED, "home.psk");
	g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	g_assert_null(joind_profile_store_find_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK));
	/* The monitor's echoes of the write and of the removal: nothing. */
	expect_signals(f, 2);
	g_assert_false(joind_profile_store_remove(f->store, profile, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
}

/* ---- Live changes -------------------------------------------------------- */

static JoindProfile *
last_profile(Fixture *f)
{
	return ((Seen *)g_ptr_array_index(f->seen, f->seen->len - 1))->profile;
}

static void
test_live_add_remove(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");
	g_autofree gchar *pass = NULL;

	load_store(f);
	put_file(f, "home.psk", PSK_TEXT);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "home.psk");
	pass = profile_string(last_profile(f), "Security", "Passphrase");
	g_assert_cmpstr(pass, ==, "correct horse");

	g_assert_cmpint(g_unlink(path), ==, 0);
	expect_signals(f, 2);
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_REMOVED, "home.psk");
	g_assert_cmpuint(f->warnings->len, ==, 0);
}

static void
write_all(int fd, const gchar *text)
{
	g_assert_cmpint(write(fd, text, strlen(text)), ==, (gssize)strlen(text));
}

static void
test_live_edit_in_place(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");
	g_autofree gchar *pass = NULL;
	int fd;

	put_file(f, "home.psk", PSK_TEXT);
	load_store(f);
	clear_seen(f);

	/* Truncate and write half a file: it must not be read yet (it would be
	 * a syntax error), however long the writer takes. */
	fd = g_open(path, O_WRONLY | O_TRUNC, 0);
	g_assert_cmpint(fd, >=, 0);
	write_all(fd, "[Security]\nPassph");
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	g_assert_cmpuint(f->warnings->len, ==, 0);
	write_all(fd, "rase=battery staple\n");
	g_assert_cmpint(close(fd), ==, 0);

	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_CHANGED, "home.psk");
	pass = profile_string(last_profile(f), "Security", "Passphrase");
	g_assert_cmpstr(pass, ==, "battery staple");
	g_assert_cmpuint(f->warnings->len, ==, 0);
}

/* A writer that never closes (or writes through mmap) gives no sign of
 * being done: once it has been quiet for a while, the file is read. */
static void
test_live_held_open(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");
	int fd;

	load_store(f);
	fd = g_open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	g_assert_cmpint(fd, >=, 0);
	write_all(fd, PSK_TEXT);
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "home.psk");
	g_assert_cmpint(close(fd), ==, 0);
	expect_signals(f, 1);
}

/* Runs the loop for at most ms, until n signals came. */
static void
wait_signals(Fixture *f, guint n, guint ms)
{
	guint timeout = g_timeout_add(ms, quit_loop, f->loop);

	f->target = n;
	g_main_loop_run(f->loop);
	if (f->seen->len >= n)
		g_source_remove(timeout);
}

/* A hard link or a symbolic link is complete when it appears: read after
 * the settle time, not after the 2 s a file being written gets to go
 * quiet (the 1.5 s bound leaves the settle time fifteen-fold slack). */
static void
test_live_linked(Fixture *f, gconstpointer data)
{
	g_autofree gchar *outside = g_build_filename(f->root, "cafe.psk", NULL);
	g_autofree gchar *hard = state_path(f, "home.psk");
	g_autofree gchar *soft = state_path(f, "cafe.psk");
	g_autoptr(GError) error = NULL;

	load_store(f);
	g_file_set_contents_full(outside, PSK_TEXT, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600,
	                         &error);
	g_assert_no_error(error);
	g_assert_cmpint(link(outside, hard), ==, 0);
	wait_signals(f, 1, 1500);
	g_assert_cmpuint(f->seen->len, ==, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "home.psk");
	g_assert_cmpint(symlink(outside, soft), ==, 0);
	wait_signals(f, 2, 1500);
	g_assert_cmpuint(f->seen->len, ==, 2);
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_ADDED, "cafe.psk");
	expect_signals(f, 2);
}

static void
test_live_same_bytes(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");

	put_file(f, "home.psk", PSK_TEXT);
	load_store(f);
	clear_seen(f);
	/* Rewritten with the same text, and touched: no change. */
	put_file(f, "home.psk", PSK_TEXT);
	g_assert_cmpint(g_utime(path, NULL), ==, 0);
	g_assert_cmpint(g_chmod(path, 0600), ==, 0);
	expect_signals(f, 0);
	g_assert_cmpuint(f->warnings->len, ==, 0);
}

static void
test_live_rename_into_place(Fixture *f, gconstpointer data)
{
	g_autofree gchar *tmp = state_path(f, ".home.psk.partial");
	g_autofree gchar *home = state_path(f, "home.psk");
	g_autofree gchar *work = state_path(f, "work.psk");
	g_autofree gchar *outside_dir = g_build_filename(f->root, "outside", NULL);
	g_autofree gchar *outside = g_build_filename(outside_dir, "office.psk", NULL);
	g_autofree gchar *office = state_path(f, "office.psk");

	load_store(f);
	/* Written under a hidden name (ignored), then renamed into place. */
	put_file(f, ".home.psk.partial", PSK_TEXT);
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	g_assert_cmpint(g_rename(tmp, home), ==, 0);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "home.psk");

	/* Moved in from another directory. */
	g_assert_cmpint(g_mkdir(outside_dir, 0700), ==, 0);
	g_assert_true(g_file_set_contents_full(outside, PSK_TEXT_2, -1, 0, 0600, NULL));
	g_assert_cmpint(g_rename(outside, office), ==, 0);
	expect_signals(f, 2);
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_ADDED, "office.psk");

	/* Renamed to another network: two profiles changed, one signal each. */
	g_assert_cmpint(g_rename(home, work), ==, 0);
	expect_signals(f, 4);
	assert_seen(f, 2, JOIND_PROFILE_CHANGE_REMOVED, "home.psk");
	assert_seen(f, 3, JOIND_PROFILE_CHANGE_ADDED, "work.psk");

	/* Moved out. */
	g_assert_cmpint(g_rename(office, outside), ==, 0);
	expect_signals(f, 5);
	assert_seen(f, 4, JOIND_PROFILE_CHANGE_REMOVED, "office.psk");
	g_assert_cmpuint(f->warnings->len, ==, 0);
}

/* vim with backupcopy=no, and others: the file is renamed to a backup, a
 * new one is written, the backup deleted. One edit, one signal. */
static void
test_live_editor_backup(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");
	g_autofree gchar *backup = state_path(f, "home.psk~");
	g_autofree gchar *pass = NULL;
	int fd;

	put_file(f, "home.psk", PSK_TEXT);
	load_store(f);
	clear_seen(f);

	g_assert_cmpint(g_rename(path, backup), ==, 0);
	/* The editor takes a moment: the store waits for things to settle
	 * rather than report a removal. */
	run_for(f, 20);
	fd = g_open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	g_assert_cmpint(fd, >=, 0);
	write_all(fd, "[Security]\n");
	write_all(fd, "Passphrase=battery staple\n");
	g_assert_cmpint(close(fd), ==, 0);
	g_assert_cmpint(g_unlink(backup), ==, 0);

	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_CHANGED, "home.psk");
	pass = profile_string(last_profile(f), "Security", "Passphrase");
	g_assert_cmpstr(pass, ==, "battery staple");
	g_assert_cmpuint(f->warnings->len, ==, 0);
}

/* gedit, GLib, joind: a temporary file renamed over the old one. */
static void
test_live_editor_replace(Fixture *f, gconstpointer data)
{
	g_autofree gchar *tmp = state_path(f, ".goutputstream-ABC123");
	g_autofree gchar *path = state_path(f, "home.psk");

	put_file(f, "home.psk", PSK_TEXT);
	load_store(f);
	clear_seen(f);
	g_assert_true(g_file_set_contents_full(tmp, PSK_TEXT_2, -1, 0, 0600, NULL));
	g_assert_cmpint(g_rename(tmp, path), ==, 0);
	put_file(f, "home.psk", PSK_TEXT_2); /* and once more, the same bytes */
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_CHANGED, "home.psk");
}

/* The error recorded for name, or NULL. */
static const gchar *
error_of(Fixture *f, const gchar *name)
{
	g_autofree gchar *path = state_path(f, name);

	return joind_profile_store_get_error(f->store, path);
}

static void
assert_passphrase(Fixture *f, const gchar *expected)
{
	g_autoptr(JoindProfile) held = joind_profile_store_find_network(
	        f->store, (const guint8 *)"home", 4, JOIND_PROFILE_TYPE_PSK);
	g_autofree gchar *pass = NULL;

	g_assert_nonnull(held);
	pass = profile_string(held, "Security", "Passphrase");
	g_assert_cmpstr(pass, ==, expected);
}

static void
test_live_bad_then_fixed(Fixture *f, gconstpointer data)
{
	put_file(f, "home.psk", PSK_TEXT);
	load_store(f);
	clear_seen(f);

	/* Broken: the last good version stays, the file is reported and
	 * recorded with its line. */
	put_file(f, "home.psk", "[Security]\nPassphrase=Zq9Sec\n");
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	assert_passphrase(f, "correct horse");
	g_assert_cmpuint(f->warnings->len, ==, 1);
	g_assert_true(warnings_contain(f, "home.psk:2: Passphrase:"));
	g_assert_nonnull(strstr(error_of(f, "home.psk"), "home.psk:2: Passphrase:"));
	g_assert_null(strstr(error_of(f, "home.psk"), "Zq9Sec"));
	g_assert_cmpuint(f->error_signals->len, ==, 1);
	assert_no_secret_logged(f, "Zq9Sec");

	/* The same broken text again: not reported twice. */
	put_file(f, "home.psk", "[Security]\nPassphrase=Zq9Sec\n");
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	g_assert_cmpuint(f->warnings->len, ==, 1);
	g_assert_cmpuint(f->error_signals->len, ==, 1);

	/* Another mistake, a syntax error this time: its line is recorded. */
	put_file(f, "home.psk", "[Security]\nPassphrase=correct horse\n[Settings\n");
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	g_assert_nonnull(strstr(error_of(f, "home.psk"), "home.psk:3:"));
	g_assert_cmpuint(f->error_signals->len, ==, 2);

	/* Fixed: picked up, the error cleared. */
	put_file(f, "home.psk", PSK_TEXT_2);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_CHANGED, "home.psk");
	assert_passphrase(f, "battery staple");
	g_assert_null(error_of(f, "home.psk"));
	g_assert_cmpuint(f->error_signals->len, ==, 3);
}

/* Broken, then put back as it was: nothing changed but the error, which
 * goes. Broken again and deleted: forgotten, the error with it. */
static void
test_live_bad_then_restored(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");

	put_file(f, "home.psk", PSK_TEXT);
	load_store(f);
	clear_seen(f);
	put_file(f, "home.psk", "[Security\n");
	run_for(f, QUIET_MS);
	g_assert_nonnull(error_of(f, "home.psk"));
	put_file(f, "home.psk", PSK_TEXT);
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	g_assert_null(error_of(f, "home.psk"));
	g_assert_cmpuint(f->error_signals->len, ==, 2);

	/* Deleted while broken: forgotten, the error with it. */
	put_file(f, "home.psk", "[Security\n");
	run_for(f, QUIET_MS);
	g_assert_nonnull(error_of(f, "home.psk"));
	g_assert_cmpint(g_unlink(path), ==, 0);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_REMOVED, "home.psk");
	g_assert_null(error_of(f, "home.psk"));
	g_assert_null(joind_profile_store_find_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK));
}

/* A file that is there but cannot be read (here a directory, then a FIFO,
 * in its place: root reads any mode) keeps the profile; removing it
 * forgets it. */
static void
test_live_unreadable(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = state_path(f, "home.psk");

	put_file(f, "home.psk", PSK_TEXT);
	load_store(f);
	clear_seen(f);

	g_assert_cmpint(g_unlink(path), ==, 0);
	g_assert_cmpint(g_mkdir(path, 0700), ==, 0);
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	assert_passphrase(f, "correct horse");
	g_assert_nonnull(strstr(error_of(f, "home.psk"), path));
	/* A reload reads it again and keeps it too. */
	joind_profile_store_reload(f->store);
	g_assert_cmpuint(f->seen->len, ==, 0);
	assert_passphrase(f, "correct horse");

	g_assert_cmpint(g_rmdir(path), ==, 0);
	g_assert_cmpint(mkfifo(path, 0600), ==, 0);
	run_for(f, QUIET_MS);
	g_assert_cmpuint(f->seen->len, ==, 0);
	assert_passphrase(f, "correct horse");
	g_assert_nonnull(strstr(error_of(f, "home.psk"), "not a regular file"));

	g_assert_cmpint(g_unlink(path), ==, 0);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_REMOVED, "home.psk");
	g_assert_null(error_of(f, "home.psk"));
}

typedef struct {
	guint n;
	gboolean held;
	gchar *last;
} ErrorList;

static void
collect_error(const gchar *path, JoindProfileType type, GBytes *ssid, const gchar *message,
              gboolean held, gpointer user_data)
{
	ErrorList *list = user_data;

	list->n++;
	list->held = held;
	g_free(list->last);
	list->last = g_path_get_basename(path);
	g_assert_cmpint(type, ==, JOIND_PROFILE_TYPE_WIRED);
	g_assert_null(ssid);
	g_assert_nonnull(strstr(message, "office.8021x:"));
}

/* Broken when joind starts: nothing to keep, but the error is recorded
 * (and listed) so that the file's state is not taken for gone. */
static void
test_load_broken(Fixture *f, gconstpointer data)
{
	ErrorList list = {0};

	put_file(f, "wired/office.8021x", "[Match]\nInterface=enp*\n[Security\n");
	load_store(f);
	g_assert_cmpuint(f->seen->len, ==, 0);
	joind_profile_store_foreach_error(f->store, collect_error, &list);
	g_assert_cmpuint(list.n, ==, 1);
	g_assert_cmpstr(list.last, ==, "office.8021x");
	g_assert_false(list.held);
	g_free(list.last);

	put_file(f, "wired/office.8021x", WIRED_TEXT);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "office.8021x");
	list = (ErrorList){0};
	joind_profile_store_foreach_error(f->store, collect_error, &list);
	g_assert_cmpuint(list.n, ==, 0);
}

static void
test_live_wired(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindProfile) first = NULL;
	g_autoptr(JoindProfile) second = NULL;

	load_store(f);
	put_file(f, "wired/office.8021x", WIRED_TEXT);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_ADDED, "office.8021x");
	g_assert_cmpint(joind_profile_get_profile_type(last_profile(f)), ==,
	                JOIND_PROFILE_TYPE_WIRED);
	first = joind_profile_store_find_wired(f->store, "enp1s0", "02:00:00:00:00:01");
	g_assert_true(first == last_profile(f));

	put_file(f, "wired/office.8021x", "[Match]\nInterface=eth*\n[Security]\nEAP-Method=MD5\n");
	expect_signals(f, 2);
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_CHANGED, "office.8021x");
	g_assert_null(joind_profile_store_find_wired(f->store, "enp1s0", "02:00:00:00:00:01"));
	second = joind_profile_store_find_wired(f->store, "eth0", NULL);
	g_assert_true(second == last_profile(f));
	/* The old snapshot keeps its values for whoever holds it. */
	g_assert_true(joind_profile_matches_link(first, "enp1s0", NULL));
	g_assert_cmpuint(f->warnings->len, ==, 0);
}

static void
test_live_wired_dir(Fixture *f, gconstpointer data)
{
	g_autofree gchar *wired = state_path(f, "wired");
	g_autofree gchar *aside = state_path(f, "wired.old");

	put_file(f, "wired/office.8021x", WIRED_TEXT);
	load_store(f);
	clear_seen(f);

	g_assert_cmpint(g_rename(wired, aside), ==, 0);
	expect_signals(f, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_REMOVED, "office.8021x");
	g_assert_cmpint(g_rename(aside, wired), ==, 0);
	expect_signals(f, 2);
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_ADDED, "office.8021x");

	/* Watched again: an edit in the returned directory is seen. */
	put_file(f, "wired/lab.8021x", WIRED_TEXT);
	expect_signals(f, 3);
	assert_seen(f, 2, JOIND_PROFILE_CHANGE_ADDED, "lab.8021x");

	/* Moved aside and a new one made at once, before the move was acted
	 * on: the new directory is the one watched, the old one no more. */
	clear_seen(f);
	g_assert_cmpint(g_rename(wired, aside), ==, 0);
	g_assert_cmpint(g_mkdir(wired, 0700), ==, 0);
	expect_signals(f, 2);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_REMOVED, "lab.8021x");
	assert_seen(f, 1, JOIND_PROFILE_CHANGE_REMOVED, "office.8021x");
	put_file(f, "wired/new.8021x", WIRED_TEXT);
	expect_signals(f, 3);
	assert_seen(f, 2, JOIND_PROFILE_CHANGE_ADDED, "new.8021x");
	put_file(f, "wired.old/old.8021x", WIRED_TEXT);
	expect_signals(f, 3);
}

/* Whatever happens to files holding secrets, no log line (debug included)
 * carries one. */
static void
test_secrets_not_logged(Fixture *f, gconstpointer data)
{
	g_autoptr(GKeyFile) kf = psk_keyfile("Zq9SavedSecret");
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) saved = NULL;

	put_file(f, "wired/office.8021x",
	         "[Match]\nInterface=eth*\n[Security]\nEAP-Method=MD5\nEAP-Identity=bob\n"
	         "EAP-Password=Zq9WiredSecret\n");
	put_file(f, "short.psk", "[Security]\nPassphrase=Zq9Shrt\n");
	put_file(f, "escape.psk", "[Security]\nPassphrase=Zq9Escape\\q\n");
	put_file(f, "key.psk", "[Security]\nPreSharedKey=Zq9NotHex\n");
	put_file(f, "stray.psk", "[Security]\nZq9Stray line\n");
	load_store(f);
	g_assert_true(joind_profile_store_save_network(f->store, (const guint8 *)"home", 4,
	                                               JOIND_PROFILE_TYPE_PSK, kf, &error));
	put_file(f, "wired/office.8021x",
	         "[Match]\nInterface=eth*\n[Security]\nEAP-Method=MD5\nEAP-Password=Zq9Edit\\\n");
	/* office added, home added; the broken edit keeps office */
	expect_signals(f, 2);
	saved = joind_profile_store_find_network(f->store, (const guint8 *)"home", 4,
	                                         JOIND_PROFILE_TYPE_PSK);
	g_assert_true(joind_profile_store_remove(f->store, saved, &error));
	g_assert_cmpuint(f->warnings->len, ==, 5);
	g_assert_cmpuint(f->logs->len, >, f->warnings->len); /* debug lines were seen too */
	assert_no_secret_logged(f, "Zq9");
}

static void
test_reload(Fixture *f, gconstpointer data)
{
	load_store(f);
	/* SIGHUP before the monitor's events are handled: the reload reports
	 * the change, the events that follow find nothing new. */
	put_file(f, "home.psk", PSK_TEXT);
	put_file(f, "wired/office.8021x", WIRED_TEXT);
	joind_profile_store_reload(f->store);
	g_assert_cmpuint(f->seen->len, ==, 2);
	expect_signals(f, 2);
	joind_profile_store_reload(f->store);
	g_assert_cmpuint(f->seen->len, ==, 2);
}

/* ---- Updating keys ------------------------------------------------------- */

#define WIRED_NOTED                                                                       \
	"# kept\n[Match]\nInterface=enp*\n[Security]\nEAP-Method=MD5\nEAP-Identity=bob\n" \
	"[@pem@ca]\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"

static void
test_update_keys(Fixture *f, gconstpointer data)
{
	const gchar *const keys[] = {"EAP-Password", NULL};
	const gchar *const values[] = {"hunter2 hunter2", NULL};
	g_autofree gchar *path = state_path(f, "wired/port.8021x");
	g_autofree gchar *written = NULL;
	g_autofree gchar *pass = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) before = NULL;
	struct stat st;

	put_file(f, "wired/port.8021x", WIRED_NOTED);
	g_assert_cmpint(g_chmod(path, 0644), ==, 0);
	load_store(f);
	before = joind_profile_store_find_wired(f->store, "enp1s0", NULL);
	g_assert_nonnull(before);
	clear_seen(f);

	g_assert_true(joind_profile_store_update_keys(f->store, before, "Security", keys, values,
	                                              &error));
	g_assert_no_error(error);
	/* CHANGED at once, with the new snapshot; the monitor's echo is quiet. */
	g_assert_cmpuint(f->seen->len, ==, 1);
	assert_seen(f, 0, JOIND_PROFILE_CHANGE_CHANGED, "port.8021x");
	pass = profile_string(last_profile(f), "Security", "EAP-Password");
	g_assert_cmpstr(pass, ==, values[0]);
	g_assert_nonnull(joind_profile_get_embedded_pem(last_profile(f), "ca"));
	expect_signals(f, 1);
	/* Every other line as it was; 0600 now that a secret is in it. */
	g_assert_true(g_file_get_contents(path, &written, NULL, NULL));
	g_assert_cmpstr(written, ==,
	                "# kept\n[Match]\nInterface=enp*\n[Security]\nEAP-Method=MD5\n"
	                "EAP-Identity=bob\nEAP-Password=hunter2 hunter2\n[@pem@ca]\n"
	                "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 0777, ==, 0600);
	g_assert_cmpuint(f->warnings->len, ==, 0);
	assert_no_secret_logged(f, "hunter2");

	/* The same values again: nothing to write, no signal. */
	g_assert_true(joind_profile_store_update_keys(f->store, last_profile(f), "Security", keys,
	                                              values, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f->seen->len, ==, 1);
}

/* What was read must still be what is there: an older snapshot, a file
 * edited behind the monitor's back, a removed profile or a result that
 * would not load are refused, and the file is left alone. */
static void
test_update_keys_refused(Fixture *f, gconstpointer data)
{
	const gchar *const keys[] = {"EAP-Password", NULL};
	const gchar *const values[] = {"pw", NULL};
	const gchar *const bad_keys[] = {"EAP-TLS-Version-Min", NULL};
	const gchar *const bad_values[] = {"9", NULL};
	g_autofree gchar *path = state_path(f, "wired/port.8021x");
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) old = NULL;
	g_autoptr(JoindProfile) current = NULL;

	put_file(f, "wired/port.8021x", WIRED_TEXT);
	load_store(f);
	old = joind_profile_store_find_wired(f->store, "enp1s0", NULL);

	g_assert_false(joind_profile_store_update_keys(f->store, old, "Security", bad_keys,
	                                               bad_values, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "EAP-TLS-Version-Min"));
	g_clear_error(&error);

	put_file(f, "wired/port.8021x", WIRED_TEXT "# edited\n");
	g_assert_false(
	        joind_profile_store_update_keys(f->store, old, "Security", keys, values, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_clear_error(&error);
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpstr(text, ==, WIRED_TEXT "# edited\n");

	expect_signals(f, 2); /* ADDED at load, CHANGED for the edit */
	current = joind_profile_store_find_wired(f->store, "enp1s0", NULL);
	g_assert_true(current != old);
	g_assert_false(
	        joind_profile_store_update_keys(f->store, old, "Security", keys, values, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_clear_error(&error);

	g_assert_true(joind_profile_store_remove(f->store, current, &error));
	g_assert_false(joind_profile_store_update_keys(f->store, current, "Security", keys, values,
	                                               &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* As the plugin loader declares them from the WiFi plugin's manifest. */
	joind_profile_keys_declare(wifi_profile_keys);
	/* Profiles name these; the registry checks them as files are read. */
	g_assert_true(joind_eap_register_method(&eap_md5_ops, NULL));
	g_assert_true(joind_eap_register_method(&eap_tls_ops, NULL));

#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/profile-store/load", test_load);
	ADD("/profile-store/load/create-dirs", test_create_dirs);
	ADD("/profile-store/load/fails", test_load_fails);
	ADD("/profile-store/load/world-readable", test_world_readable);
	ADD("/profile-store/find-wired-order", test_find_wired_order);
	ADD("/profile-store/save", test_save);
	ADD("/profile-store/save/hex-name", test_save_hex_name);
	ADD("/profile-store/save/refused", test_save_refused);
	ADD("/profile-store/remove", test_remove);
	ADD("/profile-store/update-keys", test_update_keys);
	ADD("/profile-store/update-keys/refused", test_update_keys_refused);
	ADD("/profile-store/live/add-remove", test_live_add_remove);
	ADD("/profile-store/live/edit-in-place", test_live_edit_in_place);
	ADD("/profile-store/live/held-open", test_live_held_open);
	ADD("/profile-store/live/linked", test_live_linked);
	ADD("/profile-store/live/same-bytes", test_live_same_bytes);
	ADD("/profile-store/live/rename-into-place", test_live_rename_into_place);
	ADD("/profile-store/live/editor-backup", test_live_editor_backup);
	ADD("/profile-store/live/editor-replace", test_live_editor_replace);
	ADD("/profile-store/live/bad-then-fixed", test_live_bad_then_fixed);
	ADD("/profile-store/live/bad-then-restored", test_live_bad_then_restored);
	ADD("/profile-store/live/unreadable", test_live_unreadable);
	ADD("/profile-store/load/broken", test_load_broken);
	ADD("/profile-store/live/wired", test_live_wired);
	ADD("/profile-store/live/wired-dir", test_live_wired_dir);
	ADD("/profile-store/reload", test_reload);
	ADD("/profile-store/secrets-not-logged", test_secrets_not_logged);
#undef ADD
	return g_test_run();
}
