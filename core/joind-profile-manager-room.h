/* joind-profile-manager-room.h - how much the profile manager may write:
 * one profile's text at most what the store reads (1 MiB), and the profile
 * directories at most JOIND_PROFILE_ROOM_MAX_PROFILES profiles and
 * JOIND_PROFILE_ROOM_MAX_BYTES in all (profiles and the key bundles beside
 * them), so that no client fills the disk joind's state lives on. Private
 * to the core.
 */
#pragma once

#include "joind-profile-manager-draft.h"

G_BEGIN_DECLS

#define JOIND_PROFILE_ROOM_MAX_PROFILES 500
#define JOIND_PROFILE_ROOM_MAX_BYTES    (32 * 1024 * 1024)

/* The write about to happen: the file at path becomes len bytes of text
 * with the draft's bundles beside it, and old_bundles (the ones it had)
 * go; n_profiles profiles are in the store now, one more if creating. */
typedef struct {
	const gchar *const *dirs; /* the profile directories */
	guint n_profiles;
	gboolean creating;
	const gchar *path;
	gsize len;
	JoindProfileDraft *draft;
	const gchar *const *old_bundles;
} JoindProfileRoomWrite;

/* FALSE, with a sentence naming the limit, when the write would go past
 * one; nothing is written here. */
gboolean joind_profile_room_check(const JoindProfileRoomWrite *w, GError **error);

G_END_DECLS
