/* joind-profile-watch.c - the profile store's directory watch.
 *
 * A file is read only when it is complete: after a rename into place, or
 * after the monitor's CHANGES_DONE_HINT for a file written in place. Events
 * are gathered for a short settle time, so that an editor's rename dance or
 * a burst of writes is read once.
 */
#include "joind-profile-store-private.h"

#include <string.h>

#define SETTLE_MS     100
#define SETTLE_MAX_MS 1000

void
joind_profile_store_stop_monitor(JoindProfileStore *self, GFileMonitor **monitor)
{
	if (*monitor == NULL)
		return;
	g_signal_handlers_disconnect_by_data(*monitor, self);
	g_file_monitor_cancel(*monitor);
	g_clear_object(monitor);
}

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
	g_ptr_array_sort(ready, joind_profile_compare_paths);
	for (guint i = 0; i < ready->len; i++) {
		const gchar *path = g_ptr_array_index(ready, i);

		if (strcmp(path, self->wired_dir) == 0 || strcmp(path, self->state_dir) == 0) {
			joind_profile_store_watch_wired(self);
			joind_profile_store_rescan_dir(self, path);
		} else {
			joind_profile_store_refresh_path(self, path);
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

GFileMonitor *
joind_profile_store_watch_dir(JoindProfileStore *self, const gchar *dir_path)
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
void
joind_profile_store_watch_wired(JoindProfileStore *self)
{
	if (!g_file_test(self->wired_dir, G_FILE_TEST_IS_DIR)) {
		joind_profile_store_stop_monitor(self, &self->wired_monitor);
		return;
	}
	if (self->wired_monitor == NULL)
		self->wired_monitor = joind_profile_store_watch_dir(self, self->wired_dir);
}
