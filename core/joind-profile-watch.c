/* joind-profile-watch.c - the profile store's directory watch.
 *
 * One inotify descriptor watches the state directory and, while it exists,
 * wired/. GIO's GFileMonitor would do the same but costs ~250 KiB of
 * resident GIO machinery (extension points, the monitor thread's
 * plumbing) in a daemon that otherwise never touches GFile.
 *
 * A file is read only when it is complete: after a rename into place, or
 * after the writer closed it. Events are gathered for a short settle time,
 * so that an editor's rename dance or a burst of writes is read once. A
 * file written without a close that inotify reports (mmap, a descriptor
 * kept open, O_TMPFILE linked in) is read once it has been quiet for
 * WRITE_QUIET_MS.
 */
#include "joind-profile-store-private.h"

#include <errno.h>
#include <glib-unix.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define SETTLE_MS      100
#define SETTLE_MAX_MS  1000
#define WRITE_QUIET_MS 2000

#define WATCH_MASK                                                                        \
	(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE | IN_MOVED_FROM | \
	 IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

static void
source_clear(GSource **source)
{
	if (*source == NULL)
		return;
	g_source_destroy(*source);
	g_clear_pointer(source, g_source_unref);
}

/* The pending paths in state, sorted; taken out of pending if take. */
static GPtrArray *
pending_paths(JoindProfileStore *self, PendingState state, gboolean take)
{
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, self->pending);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		if (GPOINTER_TO_INT(value) != (gint)state)
			continue;
		g_ptr_array_add(paths, g_strdup(key));
		if (take)
			g_hash_table_iter_remove(&iter);
	}
	g_ptr_array_sort(paths, joind_profile_compare_paths);
	return paths;
}

static gboolean
store_settled(gpointer user_data)
{
	JoindProfileStore *self = user_data;
	g_autoptr(GPtrArray) ready = NULL;

	g_clear_pointer(&self->settle, g_source_unref);
	ready = pending_paths(self, PENDING_READY, TRUE);
	for (guint i = 0; i < ready->len; i++) {
		const gchar *path = g_ptr_array_index(ready, i);

		if (strcmp(path, self->wired_dir) == 0 || strcmp(path, self->state_dir) == 0) {
			joind_profile_store_watch(self);
			joind_profile_store_rescan_dir(self, path);
		} else {
			joind_profile_store_refresh_path(self, path);
		}
	}
	return G_SOURCE_REMOVE;
}

static void store_mark(JoindProfileStore *self, const gchar *path, PendingState state,
                       gboolean weak);

/* Files still "being written" after WRITE_QUIET_MS without an event are
 * as complete as they will get. */
static gboolean
store_write_quiet(gpointer user_data)
{
	JoindProfileStore *self = user_data;
	g_autoptr(GPtrArray) quiet = NULL;

	g_clear_pointer(&self->write_quiet, g_source_unref);
	quiet = pending_paths(self, PENDING_WRITING, FALSE);
	for (guint i = 0; i < quiet->len; i++)
		store_mark(self, g_ptr_array_index(quiet, i), PENDING_READY, FALSE);
	return G_SOURCE_REMOVE;
}

static GSource *
store_timeout(JoindProfileStore *self, guint ms, GSourceFunc func, const gchar *name)
{
	GSource *source = g_timeout_source_new(ms);

	g_source_set_callback(source, func, self, NULL);
	g_source_set_static_name(source, name);
	g_source_attach(source, self->context);
	return source;
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
	if (state == PENDING_WRITING) {
		source_clear(&self->write_quiet);
		self->write_quiet = store_timeout(self, WRITE_QUIET_MS, store_write_quiet,
		                                  "joind-profile-write-quiet");
		return;
	}
	if (self->settle == NULL)
		self->settle_since = g_get_monotonic_time();
	else if (g_get_monotonic_time() - self->settle_since > SETTLE_MAX_MS * 1000)
		return; /* a file rewritten without pause is still read now and then */
	source_clear(&self->settle);
	self->settle = store_timeout(self, SETTLE_MS, store_settled, "joind-profile-settle");
}

/* A new name that no write will follow: a directory, a symbolic link, a
 * hard link to an existing file, or one already gone again. */
static gboolean
created_complete(const gchar *path)
{
	struct stat st;

	return lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink > 1;
}

static void
store_event(JoindProfileStore *self, const gchar *dir, const struct inotify_event *ev)
{
	g_autofree gchar *path = NULL;

	/* The directory itself (removed, moved, its mode changed), or wired/
	 * coming or going in the state directory: read it all. */
	if (ev->len == 0) {
		store_mark(self, dir, PENDING_READY, FALSE);
		return;
	}
	path = g_build_filename(dir, ev->name, NULL);
	if (strcmp(path, self->wired_dir) == 0)
		store_mark(self, path, PENDING_READY, FALSE);
	else if (ev->mask & IN_MODIFY)
		store_mark(self, path, PENDING_WRITING, FALSE);
	else if (ev->mask & IN_CREATE)
		store_mark(self, path, created_complete(path) ? PENDING_READY : PENDING_WRITING,
		           FALSE);
	else if (ev->mask & IN_ATTRIB)
		/* A chmod is worth a look, unless the file is mid-write. */
		store_mark(self, path, PENDING_READY, TRUE);
	else
		store_mark(self, path, PENDING_READY, FALSE);
}

static void
store_dispatch(JoindProfileStore *self, const struct inotify_event *ev)
{
	const gchar *dir = NULL;

	if (ev->mask & IN_Q_OVERFLOW) {
		/* Events were lost: read both directories again. */
		store_mark(self, self->state_dir, PENDING_READY, FALSE);
		store_mark(self, self->wired_dir, PENDING_READY, FALSE);
		return;
	}
	if (ev->wd == self->state_wd)
		dir = self->state_dir;
	else if (ev->wd == self->wired_wd)
		dir = self->wired_dir;
	else
		return; /* a watch removed since */
	if (ev->mask & IN_IGNORED) {
		/* The kernel dropped the watch (its directory went): watched
		 * again when the directory is read next. */
		if (ev->wd == self->state_wd)
			self->state_wd = -1;
		else
			self->wired_wd = -1;
		store_mark(self, dir, PENDING_READY, FALSE);
		return;
	}
	store_event(self, dir, ev);
}

static gboolean
on_inotify(gint fd, GIOCondition condition, gpointer user_data)
{
	JoindProfileStore *self = user_data;
	gchar buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return G_SOURCE_CONTINUE;
		if (n <= 0) {
			g_warning("%s: the watch for changes failed (%s); edits will be read on "
			          "reload (SIGHUP)",
			          self->state_dir, n < 0 ? g_strerror(errno) : "end of file");
			joind_profile_store_unwatch(self);
			return G_SOURCE_REMOVE;
		}
		for (gchar *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			store_dispatch(self, ev);
			p += sizeof(*ev) + ev->len;
		}
	}
}

static gboolean
watch_open(JoindProfileStore *self)
{
	if (self->inotify_fd >= 0)
		return TRUE;
	self->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (self->inotify_fd < 0) {
		g_warning("%s: cannot watch for changes (inotify: %s); edits will be read on "
		          "reload (SIGHUP)",
		          self->state_dir, g_strerror(errno));
		return FALSE;
	}
	self->inotify_source = g_unix_fd_source_new(self->inotify_fd, G_IO_IN);
	g_source_set_callback(self->inotify_source, G_SOURCE_FUNC(on_inotify), self, NULL);
	g_source_set_static_name(self->inotify_source, "joind-profile-watch");
	g_source_attach(self->inotify_source, self->context);
	return TRUE;
}

/* Adding a watch for the inode already watched gives the same descriptor;
 * a directory replaced under the same name gives a new one, and the old
 * inode is let go. */
static void
watch_add(JoindProfileStore *self, const gchar *dir, gint *wd)
{
	gint added = inotify_add_watch(self->inotify_fd, dir, WATCH_MASK);

	if (added < 0) {
		g_warning("%s: cannot watch for changes (%s); edits will be read on reload "
		          "(SIGHUP)",
		          dir, g_strerror(errno));
		return;
	}
	if (*wd >= 0 && *wd != added)
		inotify_rm_watch(self->inotify_fd, *wd);
	*wd = added;
}

static void
watch_remove(JoindProfileStore *self, gint *wd)
{
	if (*wd < 0)
		return;
	inotify_rm_watch(self->inotify_fd, *wd);
	*wd = -1;
}

void
joind_profile_store_watch(JoindProfileStore *self)
{
	if (!watch_open(self))
		return;
	if (g_file_test(self->state_dir, G_FILE_TEST_IS_DIR))
		watch_add(self, self->state_dir, &self->state_wd);
	if (g_file_test(self->wired_dir, G_FILE_TEST_IS_DIR))
		watch_add(self, self->wired_dir, &self->wired_wd);
	else
		watch_remove(self, &self->wired_wd);
}

void
joind_profile_store_unwatch(JoindProfileStore *self)
{
	source_clear(&self->inotify_source);
	if (self->inotify_fd >= 0)
		close(self->inotify_fd);
	self->inotify_fd = self->state_wd = self->wired_wd = -1;
}

void
joind_profile_store_stop_timers(JoindProfileStore *self)
{
	source_clear(&self->settle);
	source_clear(&self->write_quiet);
}
