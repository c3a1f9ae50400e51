/* joind-profile-store-private.h - the profile store's insides, shared by
 * the store (joind-profile-store.c), its directory watch
 * (joind-profile-watch.c), its writes (joind-profile-writer.c) and the file
 * reader (joind-profile-file.c). */
#pragma once

#include <sys/types.h>

#include "joind-profile-store.h"

G_BEGIN_DECLS

typedef enum {
	PENDING_WRITING, /* being written: wait for the close (or quiet) */
	PENDING_READY,   /* complete (or gone): read it when things settle */
} PendingState;

/* A file that exists but cannot be read or parsed. The profile last read
 * from it (if any) stays in effect: an administrator mid-edit, a full file
 * table or an I/O error must not make joind forget a network. */
typedef struct {
	gchar *message; /* "path:line: reason" or "path: reason" */
	JoindProfileType type;
	GBytes *ssid; /* NULL for wired profiles */
} StoreError;

struct _JoindProfileStore {
	GObject parent_instance;

	gchar *state_dir;
	gchar *wired_dir;
	GHashTable *profiles; /* path -> JoindProfile */
	GHashTable *reported; /* path -> what was last reported about it */
	GHashTable *errors;   /* path -> StoreError: files there that do not read */
	gint inotify_fd;      /* -1 when not watching */
	GSource *inotify_source;
	gint state_wd, wired_wd; /* inotify watches, -1 for none */
	GHashTable *pending;     /* path -> PendingState */
	GSource *settle;
	GSource *write_quiet; /* files being written that went quiet */
	gint64 settle_since;  /* when the first event of this burst came */
	GMainContext *context;
};

/* ---- joind-profile-file.c ---- */

/* The largest profile file the store reads. */
#define JOIND_PROFILE_MAX_SIZE (1024 * 1024)

/* Reads a regular file without blocking on FIFOs or devices dropped into
 * the directory. A missing file is G_FILE_ERROR_NOENT, one still growing
 * G_FILE_ERROR_AGAIN. */
gboolean joind_profile_file_read(const gchar *path, GBytes **contents, mode_t *mode,
                                 GError **error);
/* The same, opening name relative to the directory dirfd (AT_FDCWD: the
 * working directory); path names the file in the error. */
gboolean joind_profile_file_read_at(int dirfd, const gchar *name, const gchar *path,
                                    GBytes **contents, mode_t *mode, GError **error);
/* Wipes the bytes (profile text holds secrets) and drops the reference. */
void joind_profile_bytes_wipe(GBytes *bytes);
typedef GBytes GBytesWiped;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GBytesWiped, joind_profile_bytes_wipe)

/* ---- joind-profile-store.c ---- */

/* Takes profile into the store (its contents differ from the held one)
 * and emits ADDED or CHANGED. */
void joind_profile_store_put(JoindProfileStore *self, JoindProfile *profile, mode_t mode);
/* Forgets the profile read from path (its file is gone), emitting REMOVED,
 * and any error recorded for it. */
void joind_profile_store_drop(JoindProfileStore *self, const gchar *path);
/* Brings the store in line with the file at path, whatever happened to it. */
void joind_profile_store_refresh_path(JoindProfileStore *self, const gchar *path);
/* Every file of dir, and every profile held from it (it may be gone). */
void joind_profile_store_rescan_dir(JoindProfileStore *self, const gchar *dir_path);
gboolean joind_profile_store_ensure_dir(const gchar *path, GError **error);
/* strcmp() of two gchar ** elements, for g_ptr_array_sort(). */
gint joind_profile_compare_paths(gconstpointer a, gconstpointer b);

/* ---- joind-profile-watch.c ---- */

/* Watches the state directory and wired/ where they exist (wired/ may
 * come and go; either is watched again after it was removed). A watch
 * that cannot be set up is reported; edits are then read on reload. */
void joind_profile_store_watch(JoindProfileStore *self);
void joind_profile_store_unwatch(JoindProfileStore *self);
/* Drops the events gathered but not yet acted on. */
void joind_profile_store_stop_timers(JoindProfileStore *self);

G_END_DECLS
