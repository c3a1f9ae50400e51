/* joind-profile-store.c - the state directory's profiles, kept live.
 *
 * Files are named like iwd's (see joind_profile_ssid_to_filename()) and
 * watched with GFileMonitor. A file is read only when it is complete: after
 * a rename into place, or after the monitor's CHANGES_DONE_HINT for a file
 * written in place. Events are gathered for a short settle time, so that
 * an editor's rename dance or a burst of writes is read once, and a profile
 * is replaced only when the bytes differ: the echo of our own atomic writes
 * and rewrites with the same text change nothing.
 */
#include "joind-profile-store.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "joind-error.h"
#include "joind-file.h"
#include "joind-keyfile.h"
#include "joind-profile-private.h"
#include "joind-secret.h"

#define SSID_MAX_LEN     32
#define PROFILE_MAX_SIZE (1024 * 1024)
#define SETTLE_MS        100
#define SETTLE_MAX_MS    1000
#define WIRED_SUBDIR     "wired"

/* ---- File names ---------------------------------------------------------- */

static gboolean
ssid_is_plain(const guint8 *ssid, gsize len)
{
	if (len == 0)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isalnum(ssid[i]) && ssid[i] != '-' && ssid[i] != '_' && ssid[i] != ' ')
			return FALSE;
	}
	return TRUE;
}

gchar *
joind_profile_ssid_to_filename(const guint8 *ssid, gsize ssid_len, JoindProfileType type)
{
	g_autofree gchar *hex = NULL;
	const gchar *ext = joind_profile_type_to_extension(type);

	if (ssid == NULL || ssid_len == 0 || ssid_len > SSID_MAX_LEN || ext == NULL ||
	    type == JOIND_PROFILE_TYPE_WIRED)
		return NULL;
	if (ssid_is_plain(ssid, ssid_len))
		return g_strdup_printf("%.*s.%s", (int)ssid_len, (const gchar *)ssid, ext);
	hex = joind_ssid_hex(ssid, ssid_len);
	return g_strdup_printf("=%s.%s", hex, ext);
}

static gboolean
extension_to_type(const gchar *ext, JoindProfileType *type)
{
	if (strcmp(ext, "open") == 0)
		*type = JOIND_PROFILE_TYPE_OPEN;
	else if (strcmp(ext, "psk") == 0)
		*type = JOIND_PROFILE_TYPE_PSK;
	else if (strcmp(ext, "8021x") == 0)
		*type = JOIND_PROFILE_TYPE_8021X;
	else
		return FALSE;
	return TRUE;
}

/* Lower-case hex only: the one spelling joind and iwd write. */
static GBytes *
hex_decode_canonical(const gchar *hex, gsize len)
{
	guint8 buf[SSID_MAX_LEN];

	if (len == 0 || len % 2 != 0 || len / 2 > SSID_MAX_LEN)
		return NULL;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isdigit(hex[i]) && (hex[i] < 'a' || hex[i] > 'f'))
			return NULL;
	}
	for (gsize i = 0; i < len / 2; i++)
		buf[i] = (guint8)(g_ascii_xdigit_value(hex[2 * i]) << 4 |
		                  g_ascii_xdigit_value(hex[2 * i + 1]));
	return g_bytes_new(buf, len / 2);
}

/* A near miss: the name ends like a profile but its first '.' is in the
 * SSID. Says which name the file should have. */
static gboolean
dotted_name_problem(const gchar *basename, gchar **problem)
{
	const gchar *dot = strrchr(basename, '.');
	JoindProfileType type;
	g_autofree gchar *wanted = NULL;

	if (dot == NULL || !extension_to_type(dot + 1, &type))
		return FALSE;
	wanted = joind_profile_ssid_to_filename((const guint8 *)basename, (gsize)(dot - basename),
	                                        type);
	*problem = wanted != NULL
	                   ? g_strdup_printf("not a profile name: an SSID holding “.” is written "
	                                     "in hex; name this file “%s”",
	                                     wanted)
	                   : g_strdup("not a profile name: an SSID has at most 32 bytes");
	return FALSE;
}

static gboolean
hex_name_problem(GBytes *ssid, JoindProfileType type, gchar **problem)
{
	g_autofree gchar *wanted = NULL;

	if (ssid == NULL) {
		*problem = g_strdup("not a profile name: “=” must be followed by the SSID in "
		                    "lower-case hexadecimal (2 to 64 digits)");
		return FALSE;
	}
	wanted = joind_profile_ssid_to_filename(g_bytes_get_data(ssid, NULL),
	                                        g_bytes_get_size(ssid), type);
	*problem = g_strdup_printf("not a profile name: this SSID is written as it is; name this "
	                           "file “%s”",
	                           wanted);
	return FALSE;
}

/* FALSE with *problem NULL: not meant as a profile (other files, temporary
 * files, editor backups). FALSE with *problem set: meant as one, but not a
 * name joind can use; the sentence says why. */
static gboolean
parse_network_basename(const gchar *basename, GBytes **ssid_out, JoindProfileType *type_out,
                       gchar **problem)
{
	const gchar *dot = strchr(basename, '.');
	gsize stem_len = dot != NULL ? (gsize)(dot - basename) : 0;
	g_autoptr(GBytes) ssid = NULL;
	JoindProfileType type;

	*problem = NULL;
	if (dot == NULL || stem_len == 0)
		return FALSE; /* also hidden files, such as our temporary ones */
	if (!extension_to_type(dot + 1, &type))
		return dotted_name_problem(basename, problem);
	if (basename[0] == '=') {
		ssid = hex_decode_canonical(basename + 1, stem_len - 1);
		if (ssid == NULL ||
		    ssid_is_plain(g_bytes_get_data(ssid, NULL), g_bytes_get_size(ssid)))
			return hex_name_problem(ssid, type, problem);
	} else if (ssid_is_plain((const guint8 *)basename, stem_len) && stem_len <= SSID_MAX_LEN) {
		ssid = g_bytes_new(basename, stem_len);
	} else {
		g_autofree gchar *wanted =
		        joind_profile_ssid_to_filename((const guint8 *)basename, stem_len, type);
		*problem = wanted != NULL
		                   ? g_strdup_printf("not a profile name: SSIDs with other "
		                                     "characters than letters, digits, spaces, "
		                                     "“-” and “_” are written in hex; name this "
		                                     "file “%s”",
		                                     wanted)
		                   : g_strdup("not a profile name: an SSID has at most 32 bytes");
		return FALSE;
	}
	if (ssid_out != NULL)
		*ssid_out = g_steal_pointer(&ssid);
	if (type_out != NULL)
		*type_out = type;
	return TRUE;
}

gboolean
joind_profile_filename_to_ssid(const gchar *basename, GBytes **ssid, JoindProfileType *type)
{
	g_autofree gchar *problem = NULL;

	g_return_val_if_fail(basename != NULL, FALSE);
	return parse_network_basename(basename, ssid, type, &problem);
}

/* wired/<name>.8021x: any name that is not hidden. */
static gboolean
wired_basename_is_profile(const gchar *basename)
{
	return basename[0] != '.' && g_str_has_suffix(basename, ".8021x") &&
	       strlen(basename) > strlen(".8021x");
}

/* ---- Reading files ------------------------------------------------------- */

/* Reads a regular file without blocking on FIFOs or devices dropped into
 * the directory. A missing file is G_FILE_ERROR_NOENT. */
static gboolean
read_profile_file(const gchar *path, GBytes **contents, mode_t *mode, GError **error)
{
	int fd = g_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0);
	struct stat st = {0};
	guint8 *buf = NULL;
	gsize len = 0;
	int saved_errno = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		saved_errno = errno;
	} else if (!S_ISREG(st.st_mode) || st.st_size > PROFILE_MAX_SIZE) {
		saved_errno = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
	} else {
		buf = g_malloc((gsize)st.st_size + 1);
		while (len <= (gsize)st.st_size) {
			gssize n = read(fd, buf + len, (gsize)st.st_size + 1 - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				saved_errno = n < 0 ? errno : 0;
				break;
			}
			len += (gsize)n;
		}
		/* The file grew while we read: a writer is at work, its
		 * CHANGES_DONE_HINT will bring us back. */
		if (saved_errno == 0 && len > (gsize)st.st_size)
			saved_errno = EAGAIN;
	}
	if (fd >= 0)
		g_close(fd, NULL);
	if (saved_errno != 0) {
		if (buf != NULL)
			joind_secret_clear(buf, len);
		g_free(buf);
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved_errno), "%s: %s",
		            path,
		            saved_errno == EINVAL  ? "not a regular file"
		            : saved_errno == EFBIG ? "larger than a profile can be (1 MiB)"
		                                   : g_strerror(saved_errno));
		return FALSE;
	}
	*mode = st.st_mode;
	*contents = g_bytes_new_with_free_func(buf, len, (GDestroyNotify)g_free, buf);
	return TRUE;
}

static void
wipe_bytes(GBytes *bytes)
{
	gsize len = 0;
	gconstpointer data = g_bytes_get_data(bytes, &len);

	if (data != NULL)
		joind_secret_clear((gpointer)data, len);
	g_bytes_unref(bytes);
}
typedef GBytes GBytesWiped;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GBytesWiped, wipe_bytes)

/* ---- The store ----------------------------------------------------------- */

typedef enum {
	PENDING_WRITING, /* being written: wait for CHANGES_DONE_HINT */
	PENDING_READY,   /* complete (or gone): read it when things settle */
} PendingState;

struct _JoindProfileStore {
	GObject parent_instance;

	gchar *state_dir;
	gchar *wired_dir;
	GHashTable *profiles; /* path -> JoindProfile */
	GHashTable *reported; /* path -> what was last reported about it */
	GFileMonitor *monitor;
	GFileMonitor *wired_monitor;
	GHashTable *pending; /* path -> PendingState */
	GSource *settle;
	gint64 settle_since; /* when the first event of this burst came */
	GMainContext *context;
};

enum {
	SIGNAL_PROFILE_CHANGED,
	N_SIGNALS,
};
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE(JoindProfileStore, joind_profile_store, G_TYPE_OBJECT)

static void
store_stop_monitor(JoindProfileStore *self, GFileMonitor **monitor)
{
	if (*monitor == NULL)
		return;
	g_signal_handlers_disconnect_by_data(*monitor, self);
	g_file_monitor_cancel(*monitor);
	g_clear_object(monitor);
}

static void
joind_profile_store_dispose(GObject *object)
{
	JoindProfileStore *self = JOIND_PROFILE_STORE(object);

	store_stop_monitor(self, &self->monitor);
	store_stop_monitor(self, &self->wired_monitor);
	if (self->settle != NULL) {
		g_source_destroy(self->settle);
		g_clear_pointer(&self->settle, g_source_unref);
	}
	g_hash_table_remove_all(self->pending);
	g_hash_table_remove_all(self->profiles);
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
}

static void
joind_profile_store_init(JoindProfileStore *self)
{
	self->profiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
	self->reported = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	self->pending = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->context = g_main_context_ref_thread_default();
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

static void
store_emit(JoindProfileStore *self, JoindProfile *profile, JoindProfileChange change)
{
	static const gchar *const names[] = {"added", "changed", "removed"};

	g_debug("profile %s %s", joind_profile_get_path(profile), names[change]);
	g_signal_emit(self, signals[SIGNAL_PROFILE_CHANGED], 0, profile, (gint)change);
}

static void
store_drop(JoindProfileStore *self, const gchar *path)
{
	g_autoptr(JoindProfile) old = NULL;
	gpointer key = NULL, value = NULL;

	if (!g_hash_table_steal_extended(self->profiles, path, &key, &value))
		return;
	old = value;
	g_free(key);
	store_emit(self, old, JOIND_PROFILE_CHANGE_REMOVED);
}

/* Takes profile into the store (its contents differ from the held one). */
static void
store_put(JoindProfileStore *self, JoindProfile *profile, mode_t mode)
{
	const gchar *path = joind_profile_get_path(profile);
	gboolean existed = g_hash_table_contains(self->profiles, path);
	const gchar *warnings = joind_profile_get_warnings(profile);

	g_hash_table_remove(self->reported, path);
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
		return parse_network_basename(base, ssid, type, problem);
	if (strcmp(dir, self->wired_dir) == 0 && wired_basename_is_profile(base)) {
		*type = JOIND_PROFILE_TYPE_WIRED;
		return TRUE;
	}
	return FALSE;
}

/* Brings the store in line with the file at path, whatever happened to it. */
static void
store_refresh_path(JoindProfileStore *self, const gchar *path)
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
	if (!read_profile_file(path, &contents, &mode, &error)) {
		if (g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			g_hash_table_remove(self->reported, path);
		else if (!g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_AGAIN))
			store_report(self, path, NULL, error->message);
		if (!g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_AGAIN))
			store_drop(self, path);
		return;
	}
	data = g_bytes_get_data(contents, &len);
	if (held != NULL && joind_profile_has_contents(held, data, len))
		return;
	profile = joind_profile_parse(path, type, ssid, data != NULL ? data : (const guint8 *)"",
	                              len, &error);
	if (profile == NULL) {
		store_report(self, path, contents, error->message);
		store_drop(self, path);
		return;
	}
	store_put(self, profile, mode);
}

static gint
compare_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const gchar *const *)a, *(const gchar *const *)b);
}

/* Every file of dir, and every profile held from it (it may be gone). */
static void
store_rescan_dir(JoindProfileStore *self, const gchar *dir_path)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	GHashTableIter iter;
	gpointer key;
	const gchar *name;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL)
		g_ptr_array_add(paths, g_build_filename(dir_path, name, NULL));
	g_hash_table_iter_init(&iter, self->profiles);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		g_autofree gchar *parent = g_path_get_dirname(key);
		if (strcmp(parent, dir_path) == 0 && g_file_test(key, G_FILE_TEST_EXISTS) == FALSE)
			g_ptr_array_add(paths, g_strdup(key));
	}
	g_ptr_array_sort(paths, compare_paths);
	for (guint i = 0; i < paths->len; i++)
		store_refresh_path(self, g_ptr_array_index(paths, i));
}

/* ---- Watching ------------------------------------------------------------ */

static void store_watch_wired(JoindProfileStore *self);

static gboolean
store_settled(gpointer user_data)
{
	JoindProfileStore *self = user_data;
	g_autoptr(GPtrArray) ready = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter iter;
	gpointer key, value;

	g_clear_pointer(&self->settle, g_source_unref);
	g_hash_table_iter_init(&iter, self->pending);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		if (GPOINTER_TO_INT(value) != PENDING_READY)
			continue;
		g_ptr_array_add(ready, g_strdup(key));
		g_hash_table_iter_remove(&iter);
	}
	g_ptr_array_sort(ready, compare_paths);
	for (guint i = 0; i < ready->len; i++) {
		const gchar *path = g_ptr_array_index(ready, i);

		if (strcmp(path, self->wired_dir) == 0 || strcmp(path, self->state_dir) == 0) {
			store_watch_wired(self);
			store_rescan_dir(self, path);
		} else {
			store_refresh_path(self, path);
		}
	}
	return G_SOURCE_REMOVE;
}

/* Each READY event restarts the settle time, so a burst is read once. */
static void
store_mark(JoindProfileStore *self, const gchar *path, PendingState state, gboolean weak)
{
	gpointer old = NULL;

	if (weak && g_hash_table_lookup_extended(self->pending, path, NULL, &old) &&
	    GPOINTER_TO_INT(old) == PENDING_WRITING)
		return;
	g_hash_table_replace(self->pending, g_strdup(path), GINT_TO_POINTER(state));
	if (state != PENDING_READY)
		return;
	if (self->settle == NULL) {
		self->settle_since = g_get_monotonic_time();
	} else if (g_get_monotonic_time() - self->settle_since > SETTLE_MAX_MS * 1000) {
		return; /* a file rewritten without pause is still read now and then */
	} else {
		g_source_destroy(self->settle);
		g_clear_pointer(&self->settle, g_source_unref);
	}
	self->settle = g_timeout_source_new(SETTLE_MS);
	g_source_set_callback(self->settle, store_settled, self, NULL);
	g_source_set_static_name(self->settle, "joind-profile-settle");
	g_source_attach(self->settle, self->context);
}

static void
on_monitor_event(GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event,
                 gpointer user_data)
{
	JoindProfileStore *self = user_data;
	g_autofree gchar *path = g_file_get_path(file);
	g_autofree gchar *other_path = other != NULL ? g_file_get_path(other) : NULL;

	if (path == NULL)
		return;
	/* The wired directory itself (created, removed, moved): read it all. */
	if (strcmp(path, self->wired_dir) == 0 || strcmp(path, self->state_dir) == 0) {
		store_mark(self, path, PENDING_READY, FALSE);
		return;
	}
	switch (event) {
	case G_FILE_MONITOR_EVENT_CREATED:
	case G_FILE_MONITOR_EVENT_CHANGED:
		store_mark(self, path, PENDING_WRITING, FALSE);
		break;
	case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
	case G_FILE_MONITOR_EVENT_DELETED:
	case G_FILE_MONITOR_EVENT_MOVED_IN:
	case G_FILE_MONITOR_EVENT_MOVED_OUT:
		store_mark(self, path, PENDING_READY, FALSE);
		break;
	case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
		/* A chmod is worth a look, unless the file is mid-write. */
		store_mark(self, path, PENDING_READY, TRUE);
		break;
	case G_FILE_MONITOR_EVENT_RENAMED:
		store_mark(self, path, PENDING_READY, FALSE);
		if (other_path != NULL)
			store_mark(self, other_path, PENDING_READY, FALSE);
		break;
	default:
		break;
	}
}

static GFileMonitor *
store_watch_dir(JoindProfileStore *self, const gchar *dir_path)
{
	g_autoptr(GFile) dir = g_file_new_for_path(dir_path);
	g_autoptr(GError) error = NULL;
	GFileMonitor *monitor;

	monitor = g_file_monitor_directory(dir, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
	if (monitor == NULL) {
		g_warning("%s: cannot watch for changes (%s); edits will be read on reload "
		          "(SIGHUP)",
		          dir_path, error->message);
		return NULL;
	}
	g_signal_connect(monitor, "changed", G_CALLBACK(on_monitor_event), self);
	return monitor;
}

/* wired/ may come and go; watch it whenever it exists. */
static void
store_watch_wired(JoindProfileStore *self)
{
	if (!g_file_test(self->wired_dir, G_FILE_TEST_IS_DIR)) {
		store_stop_monitor(self, &self->wired_monitor);
		return;
	}
	if (self->wired_monitor == NULL)
		self->wired_monitor = store_watch_dir(self, self->wired_dir);
}

static gboolean
ensure_dir(const gchar *path, GError **error)
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

	if (!ensure_dir(self->state_dir, error))
		return FALSE;
	dir = g_dir_open(self->state_dir, 0, &local);
	if (dir == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot read %s: %s",
		            self->state_dir, local->message);
		return FALSE;
	}
	if (!ensure_dir(self->wired_dir, &local))
		g_warning("%s; wired profiles will not be read", local->message);
	/* Watch first, then read: a file dropped in between is not missed. */
	if (self->monitor == NULL)
		self->monitor = store_watch_dir(self, self->state_dir);
	store_watch_wired(self);
	store_rescan_dir(self, self->state_dir);
	store_rescan_dir(self, self->wired_dir);
	return TRUE;
}

void
joind_profile_store_reload(JoindProfileStore *self)
{
	g_return_if_fail(JOIND_IS_PROFILE_STORE(self));

	/* Forget what was reported: a reload is a request to hear it again. */
	g_hash_table_remove_all(self->reported);
	if (self->monitor == NULL && g_file_test(self->state_dir, G_FILE_TEST_IS_DIR))
		self->monitor = store_watch_dir(self, self->state_dir);
	store_watch_wired(self);
	store_rescan_dir(self, self->state_dir);
	store_rescan_dir(self, self->wired_dir);
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

/* ---- Writing ------------------------------------------------------------- */

gboolean
joind_profile_store_save_network(JoindProfileStore *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, GKeyFile *contents, GError **error)
{
	g_autofree gchar *name = NULL;
	g_autofree gchar *path = NULL;
	g_autoptr(GBytes) ssid_bytes = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(GError) local = NULL;
	JoindProfile *held;
	gchar *data;
	gsize len = 0;
	gboolean ok, changed;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);
	g_return_val_if_fail(contents != NULL, FALSE);

	if (type == JOIND_PROFILE_TYPE_WIRED) {
		g_set_error_literal(
		        error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		        "Wired profiles are provisioned by an administrator, not saved");
		return FALSE;
	}
	name = joind_profile_ssid_to_filename(ssid, ssid_len, type);
	if (name == NULL) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "An SSID has 1 to 32 bytes");
		return FALSE;
	}
	if (!ensure_dir(self->state_dir, error))
		return FALSE;
	path = g_build_filename(self->state_dir, name, NULL);
	ssid_bytes = g_bytes_new(ssid, ssid_len);
	data = g_key_file_to_data(contents, &len, NULL);
	profile = joind_profile_parse(path, type, ssid_bytes, (const guint8 *)data, len, &local);
	if (profile == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "Not saved: %s",
		            local->message);
		joind_secret_wipe(data);
		return FALSE;
	}
	ok = joind_file_write_atomically(path, data, len, error);
	held = g_hash_table_lookup(self->profiles, path);
	changed = held == NULL || !joind_profile_has_contents(held, (const guint8 *)data, len);
	joind_secret_wipe(data);
	if (!ok)
		return FALSE;
	/* Update now: the monitor's echo of this write will find the same bytes. */
	if (changed)
		store_put(self, profile, 0600);
	return TRUE;
}

/* The file must still be what profile was made from: neither a newer
 * snapshot in the store nor an edit on disk that the monitor has not
 * brought in yet may be overwritten. Returns the file's bytes. */
static GBytes *
store_read_unchanged(JoindProfileStore *self, JoindProfile *profile, GError **error)
{
	const gchar *path = joind_profile_get_path(profile);
	JoindProfile *held = g_hash_table_lookup(self->profiles, path);
	g_autoptr(GError) local = NULL;
	GBytes *contents = NULL;
	mode_t mode = 0;
	gsize len = 0;
	const guint8 *data;

	if (held == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "No profile is stored in %s",
		            path);
		return NULL;
	}
	if (!read_profile_file(path, &contents, &mode, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "%s", local->message);
		return NULL;
	}
	data = g_bytes_get_data(contents, &len);
	if (held != profile || !joind_profile_has_contents(profile, data, len)) {
		wipe_bytes(contents);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_BUSY,
		            "%s changed since it was read; not updated", path);
		return NULL;
	}
	return contents;
}

gboolean
joind_profile_store_update_keys(JoindProfileStore *self, JoindProfile *profile, const gchar *group,
                                const gchar *const *keys, const gchar *const *values,
                                GError **error)
{
	const gchar *path;
	g_autoptr(GBytesWiped) contents = NULL;
	g_autoptr(JoindProfile) updated = NULL;
	g_autoptr(GError) local = NULL;
	const guint8 *data;
	gchar *text;
	gsize len = 0, text_len = 0;
	gboolean ok;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);
	g_return_val_if_fail(JOIND_IS_PROFILE(profile), FALSE);
	g_return_val_if_fail(group != NULL && keys != NULL && values != NULL, FALSE);

	path = joind_profile_get_path(profile);
	contents = store_read_unchanged(self, profile, error);
	if (contents == NULL)
		return FALSE;
	data = g_bytes_get_data(contents, &len);
	text = joind_keyfile_set_strings(data != NULL ? (const gchar *)data : "", len, group, keys,
	                                 values, &text_len);
	updated = joind_profile_parse(path, joind_profile_get_profile_type(profile),
	                              joind_profile_get_ssid(profile), (const guint8 *)text,
	                              text_len, &local);
	if (updated == NULL) {
		joind_secret_wipe(text);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "Not updated: %s",
		            local->message);
		return FALSE;
	}
	if (joind_profile_has_contents(profile, (const guint8 *)text, text_len)) {
		joind_secret_wipe(text);
		return TRUE; /* the file says so already */
	}
	ok = joind_file_write_atomically(path, text, text_len, error);
	joind_secret_wipe(text);
	if (!ok)
		return FALSE;
	/* Update now: the monitor's echo of this write will find the same bytes. */
	store_put(self, updated, 0600);
	return TRUE;
}

gboolean
joind_profile_store_remove(JoindProfileStore *self, JoindProfile *profile, GError **error)
{
	const gchar *path;
	g_autofree gchar *dir = NULL;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);
	g_return_val_if_fail(JOIND_IS_PROFILE(profile), FALSE);

	path = joind_profile_get_path(profile);
	if (!g_hash_table_contains(self->profiles, path)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "No profile is stored in %s",
		            path);
		return FALSE;
	}
	if (g_unlink(path) < 0 && errno != ENOENT) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Could not remove %s: %s", path,
		            g_strerror(errno));
		return FALSE;
	}
	dir = g_path_get_dirname(path);
	joind_file_sync_dir(dir);
	store_drop(self, path);
	return TRUE;
}
