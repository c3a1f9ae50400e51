/* joind-profile-store.c - the state directory's profiles, kept live.
 *
 * Files are named like iwd's (joind-profile-name.c) and watched
 * (joind-profile-watch.c); the store reads each complete file, keeps the
 * profiles that check out and reports the others once. A file that is
 * there but does not read leaves the profile last read from it in effect,
 * with the problem recorded; only a file that is gone removes it. A profile is
 * replaced only when the bytes differ: the echo of our own atomic writes
 * (joind-profile-writer.c) and rewrites with the same text change nothing.
 */
#include "joind-profile-store-private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include <glib/gstdio.h>

#include "joind-error.h"
#include "joind-file.h"
#include "joind-profile-private.h"

#define WIRED_SUBDIR "wired"
/* Far more than anyone keeps; bounds the memory a flood of files takes. */
#define STORE_MAX_PROFILES 100000

enum {
	SIGNAL_PROFILE_CHANGED,
	SIGNAL_PROFILE_ERROR,
	N_SIGNALS,
};
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE(JoindProfileStore, joind_profile_store, G_TYPE_OBJECT)

static void
joind_profile_store_dispose(GObject *object)
{
	JoindProfileStore *self = JOIND_PROFILE_STORE(object);

	joind_profile_store_unwatch(self);
	joind_profile_store_stop_timers(self);
	g_hash_table_remove_all(self->pending);
	g_hash_table_remove_all(self->profiles);
	g_hash_table_remove_all(self->errors);
	G_OBJECT_CLASS(joind_profile_store_parent_class)->dispose(object);
}

static void
joind_profile_store_finalize(GObject *object)
{
	JoindProfileStore *self = JOIND_PROFILE_STORE(object);

	g_free(self->state_dir);
	g_free(self->wired_dir);
	g_hash_table_unref(self->profiles);
	g_hash_table_unref(self->reported);
	g_hash_table_unref(self->errors);
	g_hash_table_unref(self->pending);
	g_main_context_unref(self->context);
	G_OBJECT_CLASS(joind_profile_store_parent_class)->finalize(object);
}

static void
joind_profile_store_class_init(JoindProfileStoreClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->dispose = joind_profile_store_dispose;
	object_class->finalize = joind_profile_store_finalize;
	signals[SIGNAL_PROFILE_CHANGED] =
	        g_signal_new("profile-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
	                     NULL, NULL, NULL, G_TYPE_NONE, 2, JOIND_TYPE_PROFILE, G_TYPE_INT);
	signals[SIGNAL_PROFILE_ERROR] =
	        g_signal_new("profile-error", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
store_error_free(gpointer data)
{
	StoreError *error = data;

	g_free(error->message);
	g_clear_pointer(&error->ssid, g_bytes_unref);
	g_free(error);
}

static void
joind_profile_store_init(JoindProfileStore *self)
{
	self->profiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
	self->reported = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	self->errors = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, store_error_free);
	self->pending = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->context = g_main_context_ref_thread_default();
	self->inotify_fd = self->state_wd = self->wired_wd = -1;
}

JoindProfileStore *
joind_profile_store_new(const gchar *state_dir)
{
	JoindProfileStore *self;

	g_return_val_if_fail(state_dir != NULL, NULL);
	self = g_object_new(JOIND_TYPE_PROFILE_STORE, NULL);
	self->state_dir = g_canonicalize_filename(state_dir, NULL);
	self->wired_dir = g_build_filename(self->state_dir, WIRED_SUBDIR, NULL);
	return self;
}

/* Warns about path once per distinct (message, contents): the same bad file
 * seen again through another event is not reported twice. */
static void
store_report(JoindProfileStore *self, const gchar *path, GBytes *contents, const gchar *message)
{
	g_autofree gchar *digest =
	        contents != NULL ? g_compute_checksum_for_bytes(G_CHECKSUM_SHA256, contents) : NULL;
	g_autofree gchar *key = g_strconcat(digest != NULL ? digest : "-", "\n", message, NULL);

	if (g_strcmp0(g_hash_table_lookup(self->reported, path), key) == 0)
		return;
	g_warning("%s", message);
	g_hash_table_replace(self->reported, g_strdup(path), g_steal_pointer(&key));
}

/* Records (message) or clears (NULL) the problem of the file at path,
 * emitting "profile-error" when that changes anything. */
static void
store_set_error(JoindProfileStore *self, const gchar *path, JoindProfileType type, GBytes *ssid,
                const gchar *message)
{
	StoreError *old = g_hash_table_lookup(self->errors, path);
	StoreError *error;

	if (old == NULL && message == NULL)
		return;
	if (old != NULL && g_strcmp0(old->message, message) == 0)
		return;
	if (message == NULL) {
		g_info("%s: no longer in error", path);
		g_hash_table_remove(self->errors, path);
	} else {
		error = g_new0(StoreError, 1);
		error->message = g_strdup(message);
		error->type = type;
		error->ssid = ssid != NULL ? g_bytes_ref(ssid) : NULL;
		g_hash_table_replace(self->errors, g_strdup(path), error);
	}
	g_signal_emit(self, signals[SIGNAL_PROFILE_ERROR], 0, path);
}

static void
store_clear_error(JoindProfileStore *self, const gchar *path)
{
	store_set_error(self, path, JOIND_PROFILE_TYPE_OPEN, NULL, NULL);
}

static void
store_emit(JoindProfileStore *self, JoindProfile *profile, JoindProfileChange change)
{
	static const gchar *const names[] = {
	        [JOIND_PROFILE_CHANGE_ADDED] = "added",
	        [JOIND_PROFILE_CHANGE_CHANGED] = "changed",
	        [JOIND_PROFILE_CHANGE_REMOVED] = "removed",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == JOIND_PROFILE_CHANGE_LAST + 1);

	g_debug("profile %s %s", joind_profile_get_path(profile), names[change]);
	g_signal_emit(self, signals[SIGNAL_PROFILE_CHANGED], 0, profile, (gint)change);
}

void
joind_profile_store_drop(JoindProfileStore *self, const gchar *path)
{
	g_autoptr(JoindProfile) old = NULL;
	gpointer key = NULL, value = NULL;

	store_clear_error(self, path);
	if (!g_hash_table_steal_extended(self->profiles, path, &key, &value))
		return;
	old = value;
	g_free(key);
	store_emit(self, old, JOIND_PROFILE_CHANGE_REMOVED);
}

/* Takes profile into the store (its contents differ from the held one). */
void
joind_profile_store_put(JoindProfileStore *self, JoindProfile *profile, mode_t mode)
{
	const gchar *path = joind_profile_get_path(profile);
	gboolean existed = g_hash_table_contains(self->profiles, path);
	const gchar *warnings = joind_profile_get_warnings(profile);

	if (!existed && g_hash_table_size(self->profiles) >= STORE_MAX_PROFILES) {
		g_autofree gchar *message = g_strdup_printf(
		        "%s: not loaded: joind holds at most %d profiles; remove some", path,
		        STORE_MAX_PROFILES);
		store_report(self, path, NULL, message);
		return;
	}
	g_hash_table_remove(self->reported, path);
	store_clear_error(self, path);
	if (warnings != NULL)
		g_warning("%s", warnings);
	if ((mode & 077) != 0 && joind_profile_holds_secrets(profile))
		g_warning("%s: readable by other users, yet it holds secrets; make it private "
		          "(chmod 600)",
		          path);
	g_hash_table_replace(self->profiles, g_strdup(path), g_object_ref(profile));
	store_emit(self, profile,
	           existed ? JOIND_PROFILE_CHANGE_CHANGED : JOIND_PROFILE_CHANGE_ADDED);
}

/* Which kind of profile path names; FALSE (with a problem to report, or
 * not) when it is none. */
static gboolean
store_classify(JoindProfileStore *self, const gchar *path, JoindProfileType *type, GBytes **ssid,
               gchar **problem)
{
	g_autofree gchar *dir = g_path_get_dirname(path);
	g_autofree gchar *base = g_path_get_basename(path);

	*problem = NULL;
	*ssid = NULL;
	if (strcmp(dir, self->state_dir) == 0)
		return joind_profile_network_basename_parse(base, ssid, type, problem);
	if (strcmp(dir, self->wired_dir) == 0 && joind_profile_wired_basename_is_profile(base)) {
		*type = JOIND_PROFILE_TYPE_WIRED;
		return TRUE;
	}
	return FALSE;
}

/* The file at path is there but does not read: whatever was read from it
 * before stays in effect until it reads again or is deleted. */
static void
store_keep(JoindProfileStore *self, const gchar *path, JoindProfileType type, GBytes *ssid,
           GBytes *contents, const gchar *message)
{
	g_autofree gchar *text = NULL;

	if (g_hash_table_contains(self->profiles, path))
		text = g_strdup_printf("%s\n%s: keeping the profile read before until the file "
		                       "reads again or is deleted",
		                       message, path);
	store_report(self, path, contents, text != NULL ? text : message);
	store_set_error(self, path, type, ssid, message);
}

static void
store_read_failed(JoindProfileStore *self, const gchar *path, JoindProfileType type, GBytes *ssid,
                  const GError *error)
{
	/* Still being written: the watch brings it back once complete. */
	if (g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_AGAIN))
		return;
	/* Only a file that is gone (or whose directory is) is a removal. */
	if (g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT) ||
	    g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR)) {
		g_hash_table_remove(self->reported, path);
		joind_profile_store_drop(self, path);
		return;
	}
	store_keep(self, path, type, ssid, NULL, error->message);
}

/* Brings the store in line with the file at path, whatever happened to it. */
/* path's file, opened as name relative to dirfd. */
static void
store_refresh_at(JoindProfileStore *self, int dirfd, const gchar *name, const gchar *path)
{
	g_autoptr(GBytesWiped) contents = NULL;
	g_autoptr(GBytes) ssid = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	g_autofree gchar *problem = NULL;
	JoindProfileType type = JOIND_PROFILE_TYPE_OPEN;
	JoindProfile *held = g_hash_table_lookup(self->profiles, path);
	mode_t mode = 0;
	gsize len = 0;
	const guint8 *data;

	if (!store_classify(self, path, &type, &ssid, &problem)) {
		if (problem != NULL && g_file_test(path, G_FILE_TEST_EXISTS)) {
			g_autofree gchar *message = g_strdup_printf("%s: %s", path, problem);
			store_report(self, path, NULL, message);
		}
		return;
	}
	if (!joind_profile_file_read_at(dirfd, name, path, &contents, &mode, &error)) {
		store_read_failed(self, path, type, ssid, error);
		return;
	}
	data = g_bytes_get_data(contents, &len);
	if (held != NULL && joind_profile_has_contents(held, data, len)) {
		/* Back to the text in effect: nothing changed but the error. */
		g_hash_table_remove(self->reported, path);
		store_clear_error(self, path);
		return;
	}
	profile = joind_profile_parse(path, type, ssid, data != NULL ? data : (const guint8 *)"",
	                              len, &error);
	if (profile == NULL) {
		store_keep(self, path, type, ssid, contents, error->message);
		return;
	}
	joind_profile_store_put(self, profile, mode);
}

void
joind_profile_store_refresh_path(JoindProfileStore *self, const gchar *path)
{
	store_refresh_at(self, AT_FDCWD, path, path);
}

gint
joind_profile_compare_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const gchar *const *)a, *(const gchar *const *)b);
}

/* Every file of dir, and every profile held from it (it may be gone). */
void
joind_profile_store_rescan_dir(JoindProfileStore *self, const gchar *dir_path)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	DIR *dir = opendir(dir_path);
	gsize dir_len = strlen(dir_path);
	GHashTableIter iter;
	gpointer key;
	const struct dirent *entry;

	/* readdir() on a stream of our own is safe (readdir_r() is
	 * deprecated). */
	// cppcheck-suppress readdirCalled
	while (dir != NULL && (entry = readdir(dir)) != NULL)
		if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
			g_ptr_array_add(paths, g_build_filename(dir_path, entry->d_name, NULL));
	g_hash_table_iter_init(&iter, self->profiles);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		g_autofree gchar *parent = g_path_get_dirname(key);
		if (strcmp(parent, dir_path) == 0 && g_file_test(key, G_FILE_TEST_EXISTS) == FALSE)
			g_ptr_array_add(paths, g_strdup(key));
	}
	g_ptr_array_sort(paths, joind_profile_compare_paths);
	/* Each file opened by its name in the open directory: the kernel
	 * walks one path component per file, not the state directory's
	 * whole path (bench/footprint, 10,000 profiles). */
	for (guint i = 0; i < paths->len; i++) {
		const gchar *path = g_ptr_array_index(paths, i);
		gboolean inside = dir != NULL && strncmp(path, dir_path, dir_len) == 0 &&
		                  path[dir_len] == G_DIR_SEPARATOR;

		store_refresh_at(self, inside ? dirfd(dir) : AT_FDCWD,
		                 inside ? path + dir_len + 1 : path, path);
	}
	if (dir != NULL)
		closedir(dir);
}
gboolean
joind_profile_store_ensure_dir(const gchar *path, GError **error)
{
	if (g_mkdir_with_parents(path, 0700) == 0)
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot create the directory %s: %s",
	            path, g_strerror(errno));
	return FALSE;
}

gboolean
joind_profile_store_load(JoindProfileStore *self, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GDir) dir = NULL;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);

	if (!joind_profile_store_ensure_dir(self->state_dir, error))
		return FALSE;
	dir = g_dir_open(self->state_dir, 0, &local);
	if (dir == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot read %s: %s",
		            self->state_dir, local->message);
		return FALSE;
	}
	if (!joind_profile_store_ensure_dir(self->wired_dir, &local))
		g_warning("%s; wired profiles will not be read", local->message);
	/* A kill mid-write leaves its temporary (state.json's too): gone
	 * before anything is written again. */
	joind_file_remove_stale(self->state_dir);
	joind_file_remove_stale(self->wired_dir);
	/* Watch first, then read: a file dropped in between is not missed. */
	joind_profile_store_watch(self);
	joind_profile_store_rescan_dir(self, self->state_dir);
	joind_profile_store_rescan_dir(self, self->wired_dir);
	return TRUE;
}

void
joind_profile_store_reload(JoindProfileStore *self)
{
	g_return_if_fail(JOIND_IS_PROFILE_STORE(self));

	/* Forget what was reported: a reload is a request to hear it again. */
	g_hash_table_remove_all(self->reported);
	joind_profile_store_watch(self);
	joind_profile_store_rescan_dir(self, self->state_dir);
	joind_profile_store_rescan_dir(self, self->wired_dir);
}
/* ---- Lookups ------------------------------------------------------------- */

static gint
compare_profiles(gconstpointer a, gconstpointer b)
{
	return strcmp(joind_profile_get_path(*(JoindProfile *const *)a),
	              joind_profile_get_path(*(JoindProfile *const *)b));
}

GPtrArray *
joind_profile_store_list(JoindProfileStore *self, JoindProfileType type)
{
	GPtrArray *list = g_ptr_array_new_with_free_func(g_object_unref);
	GHashTableIter iter;
	gpointer value;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), list);
	g_hash_table_iter_init(&iter, self->profiles);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		if (joind_profile_get_profile_type(value) == type)
			g_ptr_array_add(list, g_object_ref(value));
	}
	g_ptr_array_sort(list, compare_profiles);
	return list;
}

const gchar *
joind_profile_store_get_error(JoindProfileStore *self, const gchar *path)
{
	StoreError *error;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), NULL);
	error = path != NULL ? g_hash_table_lookup(self->errors, path) : NULL;
	return error != NULL ? error->message : NULL;
}

void
joind_profile_store_foreach_error(JoindProfileStore *self, JoindProfileStoreErrorFunc func,
                                  gpointer user_data)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new();
	GHashTableIter iter;
	gpointer key;

	g_return_if_fail(JOIND_IS_PROFILE_STORE(self));
	g_hash_table_iter_init(&iter, self->errors);
	while (g_hash_table_iter_next(&iter, &key, NULL))
		g_ptr_array_add(paths, key);
	g_ptr_array_sort(paths, joind_profile_compare_paths);
	for (guint i = 0; i < paths->len; i++) {
		const gchar *path = g_ptr_array_index(paths, i);
		StoreError *error = g_hash_table_lookup(self->errors, path);

		func(path, error->type, error->ssid, error->message,
		     g_hash_table_contains(self->profiles, path), user_data);
	}
}

JoindProfile *
joind_profile_store_find_wired(JoindProfileStore *self, const gchar *ifname, const gchar *address)
{
	g_autoptr(GPtrArray) wired = NULL;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), NULL);
	wired = joind_profile_store_list(self, JOIND_PROFILE_TYPE_WIRED);
	for (guint i = 0; i < wired->len; i++) {
		JoindProfile *profile = g_ptr_array_index(wired, i);
		if (joind_profile_matches_link(profile, ifname, address))
			return g_object_ref(profile);
	}
	return NULL;
}

JoindProfile *
joind_profile_store_find_network(JoindProfileStore *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type)
{
	g_autofree gchar *name = NULL;
	g_autofree gchar *path = NULL;
	JoindProfile *profile;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), NULL);
	name = joind_profile_ssid_to_filename(ssid, ssid_len, type);
	if (name == NULL)
		return NULL;
	path = g_build_filename(self->state_dir, name, NULL);
	profile = g_hash_table_lookup(self->profiles, path);
	return profile != NULL ? g_object_ref(profile) : NULL;
}
