/* joind-profile-manager.c - profiles made, changed and removed for a
 * client.
 *
 * Every change is a whole file: the settings become its text
 * (joind-profile-manager-draft.c), the file loader checks it at the path
 * it will have, and the store writes it and reads it back the way its
 * directory watch reads an administrator's file, so a profile made here
 * and one dropped in are one and the same to the rest of joind. Problems
 * are the loader's own sentences without their "file:line:" (the caller
 * has no file to look at).
 */
#include "joind-profile-manager.h"

#include <string.h>

#include "joind-dbus-known.h"
#include "joind-error.h"
#include "joind-profile-manager-ap.h"
#include "joind-profile-manager-bundle.h"
#include "joind-profile-manager-draft.h"
#include "joind-profile-manager-room.h"
#include "joind-profile-private.h"
#include "joind-profile-store-private.h"
#include "joind-secret.h"
#include "joind-station.h"

#define WIRED_PATH_PREFIX "/net/joind/profile/wired/"
#define WIRED_NAME_MAX    64

struct _JoindProfileManager {
	JoindProfileStore *store;
	JoindKnownState *known;
};

static const struct {
	const gchar *kind;
	JoindProfileType type;
} kinds[] = {
        {"open", JOIND_PROFILE_TYPE_OPEN},   {"psk", JOIND_PROFILE_TYPE_PSK},
        {"8021x", JOIND_PROFILE_TYPE_8021X}, {"wired", JOIND_PROFILE_TYPE_WIRED},
        {"ap", JOIND_PROFILE_TYPE_AP},
};

JoindProfileManager *
joind_profile_manager_new(JoindProfileStore *store, JoindKnownState *known)
{
	JoindProfileManager *self = g_new0(JoindProfileManager, 1);

	self->store = g_object_ref(store);
	self->known = known;
	return self;
}

void
joind_profile_manager_free(JoindProfileManager *self)
{
	if (self == NULL)
		return;
	g_object_unref(self->store);
	g_free(self);
}

static gboolean
kind_to_type(const gchar *kind, JoindProfileType *type, GError **error)
{
	for (guint i = 0; i < G_N_ELEMENTS(kinds); i++) {
		if (strcmp(kind, kinds[i].kind) == 0) {
			*type = kinds[i].type;
			return TRUE;
		}
	}
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
	            "“%s” is not a kind of profile: open, psk, 8021x, wired or ap", kind);
	return FALSE;
}

/* Settings.SSID belongs to WiFi networks' profiles (an access point's is
 * its name). */
static gboolean
type_has_ssid(JoindProfileType type)
{
	return type != JOIND_PROFILE_TYPE_WIRED && type != JOIND_PROFILE_TYPE_AP;
}

static const gchar *
manager_state_dir(JoindProfileManager *self)
{
	return joind_profile_store_get_dir(self->store, JOIND_PROFILE_TYPE_PSK);
}

static const gchar *
type_to_kind(JoindProfileType type)
{
	for (guint i = 0; i < G_N_ELEMENTS(kinds); i++) {
		if (kinds[i].type == type)
			return kinds[i].kind;
	}
	return NULL;
}

gchar *
joind_profile_manager_path(JoindProfile *profile)
{
	const gchar *name = joind_profile_get_name(profile);
	g_autofree gchar *hex = NULL;

	if (joind_profile_get_profile_type(profile) != JOIND_PROFILE_TYPE_WIRED)
		return joind_dbus_known_path(profile);
	hex = joind_ssid_hex((const guint8 *)name, strlen(name));
	return g_strconcat(WIRED_PATH_PREFIX, hex, NULL);
}

/* Every profile the store holds, WiFi kinds first, each by file name. */
static GPtrArray *
manager_all(JoindProfileManager *self)
{
	GPtrArray *all = g_ptr_array_new_with_free_func(g_object_unref);

	for (guint t = 0; t < G_N_ELEMENTS(kinds); t++) {
		g_autoptr(GPtrArray) some = joind_profile_store_list(self->store, kinds[t].type);

		for (guint i = 0; i < some->len; i++)
			g_ptr_array_add(all, g_object_ref(g_ptr_array_index(some, i)));
	}
	return all;
}

/* The profile object_path names (a new reference), or NOT_FOUND. */
static JoindProfile *
manager_find(JoindProfileManager *self, const gchar *object_path, GError **error)
{
	g_autoptr(GPtrArray) all = manager_all(self);

	for (guint i = 0; i < all->len; i++) {
		JoindProfile *profile = g_ptr_array_index(all, i);
		g_autofree gchar *path = joind_profile_manager_path(profile);

		if (strcmp(path, object_path) == 0)
			return g_object_ref(profile);
	}
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "No profile is known as %s.",
	            object_path);
	return NULL;
}

/* ---- the loader's sentences ------------------------------------------------ */

/* "path:12: text" or "path: text" -> "text". */
static const gchar *
strip_location(const gchar *line, const gchar *path)
{
	gsize len = strlen(path);

	if (strncmp(line, path, len) != 0 || line[len] != ':')
		return line;
	line += len + 1;
	if (g_ascii_isdigit(*line)) {
		const gchar *p = line;

		while (g_ascii_isdigit(*p))
			p++;
		if (*p == ':')
			line = p + 1;
	}
	return *line == ' ' ? line + 1 : line;
}

static gchar **
loader_problems(const gchar *path, const gchar *message)
{
	g_auto(GStrv) lines = g_strsplit(message, "\n", -1);
	GPtrArray *problems = g_ptr_array_new();

	for (guint i = 0; lines[i] != NULL; i++) {
		if (lines[i][0] != '\0')
			g_ptr_array_add(problems, g_strdup(strip_location(lines[i], path)));
	}
	g_ptr_array_add(problems, NULL);
	return (gchar **)g_ptr_array_free(problems, FALSE);
}

gchar **
joind_profile_manager_check_text(const gchar *path, JoindProfileType type, GBytes *ssid,
                                 const gchar *text, gsize len)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile =
	        joind_profile_parse(path, type, ssid, (const guint8 *)text, len, &error);

	if (profile != NULL)
		return g_new0(gchar *, 1);
	return loader_problems(path, error->message);
}

/* Writes the draft's new key bundles and then the file; the bundles the
 * old file had and the new one no longer refers to go once it is written
 * (the new ones when it is not). */
static gboolean
manager_write_file(JoindProfileManager *self, JoindProfileDraft *draft, GHashTable *placed,
                   const gchar *path, const gchar *text, gsize len, const gchar *const *old_bundles,
                   GError **error)
{
	g_auto(GStrv) now = NULL;
	gboolean ok;

	if (!joind_profile_bundles_write(draft, placed, error))
		return FALSE;
	ok = joind_profile_store_write_file(self->store, path, text, len, error);
	now = joind_profile_bundles_owned(draft, path);
	if (ok)
		joind_profile_bundles_remove(old_bundles, (const gchar *const *)now);
	else
		joind_profile_bundles_remove((const gchar *const *)now, old_bundles);
	return ok;
}

/* Whether the write fits joind's limits; old_bundles is NULL when the
 * profile is being created. */
static gboolean
manager_room(JoindProfileManager *self, JoindProfileDraft *draft, const gchar *path, gsize len,
             const gchar *const *old_bundles, GError **error)
{
	g_autoptr(GPtrArray) all = manager_all(self);
	const gchar *dirs[] = {joind_profile_store_get_dir(self->store, JOIND_PROFILE_TYPE_PSK),
	                       joind_profile_store_get_dir(self->store, JOIND_PROFILE_TYPE_WIRED),
	                       NULL};
	const JoindProfileRoomWrite w = {dirs, all->len, old_bundles == NULL, path,
	                                 len,  draft,    old_bundles};

	return joind_profile_room_check(&w, error);
}

/* Checks the draft as the file at path, then writes it. */
static gboolean
manager_write(JoindProfileManager *self, JoindProfileDraft *draft, const gchar *path,
              JoindProfileType type, GBytes *ssid, const gchar *const *old_bundles, GError **error)
{
	g_autoptr(GHashTable) placed = joind_profile_bundles_place(draft, path);
	gsize len = 0;
	gchar *text = joind_profile_draft_to_text(draft, &len);
	g_auto(GStrv) problems = joind_profile_manager_check_text(path, type, ssid, text, len);
	gboolean ok = FALSE;

	if (problems[0] != NULL) {
		g_autofree gchar *joined = g_strjoinv("\n", problems);

		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, joined);
	} else {
		ok = manager_room(self, draft, path, len, old_bundles, error) &&
		     manager_write_file(self, draft, placed, path, text, len, old_bundles, error);
	}
	joind_secret_wipe(text);
	return ok;
}

/* ---- create ---------------------------------------------------------------- */

static gboolean
wired_name_is_valid(const gchar *name)
{
	gsize len = strlen(name);

	return len <= WIRED_NAME_MAX && name[0] != '.' &&
	       joind_profile_draft_name_is_valid(name, len, "-_.");
}

/* The SSID a WiFi profile is made for: Settings.SSID, else the name. */
static GBytes *
create_ssid(JoindProfileDraft *draft, const gchar *name, GError **error)
{
	GBytes *given = joind_profile_draft_get_ssid(draft);
	gsize len = strlen(name);

	if (given != NULL) {
		if (len > 0 && (len != g_bytes_get_size(given) ||
		                memcmp(name, g_bytes_get_data(given, NULL), len) != 0)) {
			g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			                    "The name and Settings.SSID name different SSIDs: "
			                    "give the name as \"\" with Settings.SSID");
			return NULL;
		}
		return g_bytes_ref(given);
	}
	if (len == 0 || len > 32) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "A WiFi profile's name is its SSID: 1 to 32 bytes (or give "
		                    "Settings.SSID as bytes)");
		return NULL;
	}
	return g_bytes_new(name, len);
}

/* Where the new profile's file goes; *ssid is set for WiFi kinds. */
static gchar *
create_path(JoindProfileManager *self, JoindProfileType type, const gchar *name,
            JoindProfileDraft *draft, GBytes **ssid, GError **error)
{
	const gchar *dir = joind_profile_store_get_dir(self->store, type);
	g_autofree gchar *base = NULL;

	if (type == JOIND_PROFILE_TYPE_WIRED) {
		if (!wired_name_is_valid(name)) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "“%s” is not a wired profile name: up to %d letters, digits, "
			            "“-”, “_” and “.”, not starting with “.”",
			            name, WIRED_NAME_MAX);
			return NULL;
		}
		return g_strconcat(dir, G_DIR_SEPARATOR_S, name, ".8021x", NULL);
	}
	*ssid = create_ssid(draft, name, error);
	if (*ssid == NULL)
		return NULL;
	base = joind_profile_ssid_to_filename(g_bytes_get_data(*ssid, NULL),
	                                      g_bytes_get_size(*ssid), type);
	return g_build_filename(dir, base, NULL);
}

static gboolean
create_check_free(JoindProfileManager *self, const gchar *path, const gchar *kind, GError **error)
{
	g_autoptr(JoindProfile) held = joind_profile_store_lookup(self->store, path);

	if (held == NULL && !g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_BUSY,
	            "A %s profile by that name exists already (%s): update or delete it", kind,
	            path);
	return FALSE;
}

gchar *
joind_profile_manager_create(JoindProfileManager *self, const gchar *kind, const gchar *name,
                             GVariant *settings, GError **error)
{
	g_autoptr(JoindProfileDraft) draft = joind_profile_draft_new();
	g_autoptr(GBytes) ssid = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	g_autofree gchar *path = NULL;
	JoindProfileType type;

	if (!kind_to_type(kind, &type, error) ||
	    !joind_profile_draft_set(draft, settings, type_has_ssid(type), error))
		return NULL;
	if (type == JOIND_PROFILE_TYPE_AP)
		return joind_profile_ap_create(manager_state_dir(self), name, draft, error);
	path = create_path(self, type, name, draft, &ssid, error);
	if (path == NULL || !create_check_free(self, path, kind, error))
		return NULL;
	/* Made for an administrator's tool: Source "admin", whatever state.json
	 * remembered of an earlier profile by that name. */
	if (ssid != NULL)
		joind_known_state_set_user_saved(self->known, g_bytes_get_data(ssid, NULL),
		                                 g_bytes_get_size(ssid), type, FALSE);
	if (!manager_write(self, draft, path, type, ssid, NULL, error))
		return NULL;
	profile = joind_profile_store_lookup(self->store, path);
	g_return_val_if_fail(profile != NULL, NULL);
	return joind_profile_manager_path(profile);
}

/* ---- update, delete, validate ---------------------------------------------- */

/* The draft of profile's file as it is now (it must not have changed
 * since the store read it). */
static JoindProfileDraft *
manager_current_draft(JoindProfileManager *self, JoindProfile *profile, GError **error)
{
	const gchar *path = joind_profile_get_path(profile);
	g_autoptr(GBytesWiped) contents =
	        joind_profile_store_read_current(self->store, profile, error);
	gsize len = 0;
	const guint8 *data;

	if (contents == NULL)
		return NULL;
	data = g_bytes_get_data(contents, &len);
	return joind_profile_draft_new_from_text(path, data != NULL ? data : (const guint8 *)"",
	                                         len, error);
}

gboolean
joind_profile_manager_update(JoindProfileManager *self, const gchar *object_path, GVariant *set,
                             const gchar *const *unset, GError **error)
{
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(JoindProfileDraft) draft = NULL;
	g_auto(GStrv) old_bundles = NULL;
	const gchar *path;

	if (joind_profile_ap_owns(object_path))
		return joind_profile_ap_update(manager_state_dir(self), object_path, set, unset,
		                               error);
	profile = manager_find(self, object_path, error);
	if (profile == NULL)
		return FALSE;
	path = joind_profile_get_path(profile);
	draft = manager_current_draft(self, profile, error);
	if (draft == NULL)
		return FALSE;
	old_bundles = joind_profile_bundles_owned(draft, path);
	if (!joind_profile_draft_unset(draft, unset, error) ||
	    !joind_profile_draft_set(draft, set, FALSE, error))
		return FALSE;
	return manager_write(self, draft, path, joind_profile_get_profile_type(profile),
	                     joind_profile_get_ssid(profile), (const gchar *const *)old_bundles,
	                     error);
}

gboolean
joind_profile_manager_delete(JoindProfileManager *self, const gchar *object_path, GError **error)
{
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(JoindProfileDraft) draft = NULL;
	g_auto(GStrv) bundles = NULL;

	if (joind_profile_ap_owns(object_path))
		return joind_profile_ap_delete(manager_state_dir(self), object_path, error);
	profile = manager_find(self, object_path, error);
	if (profile == NULL)
		return FALSE;
	/* A file that no longer reads is still removed; its bundles stay. */
	draft = manager_current_draft(self, profile, NULL);
	if (draft != NULL)
		bundles = joind_profile_bundles_owned(draft, joind_profile_get_path(profile));
	if (!joind_profile_store_remove(self->store, profile, error))
		return FALSE;
	joind_profile_bundles_remove((const gchar *const *)bundles, NULL);
	return TRUE;
}

gchar **
joind_profile_manager_validate(JoindProfileManager *self, const gchar *kind, GVariant *settings,
                               GError **error)
{
	g_autoptr(JoindProfileDraft) draft = joind_profile_draft_new();
	g_autoptr(GError) local = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *base = NULL;
	g_autoptr(GHashTable) placed = NULL;
	JoindProfileType type;
	gchar *text, **problems;
	gsize len = 0;

	if (!kind_to_type(kind, &type, error))
		return NULL;
	if (!joind_profile_draft_set(draft, settings, type_has_ssid(type), &local)) {
		problems = g_new0(gchar *, 2);
		problems[0] = g_strdup(local->message);
		return problems;
	}
	/* Where such a file would go; the sentences lose the path anyway. */
	base = g_strconcat("new.", joind_profile_type_to_extension(type), NULL);
	path = g_build_filename(joind_profile_store_get_dir(self->store, type), base, NULL);
	placed = joind_profile_bundles_place(draft, path);
	text = joind_profile_draft_to_text(draft, &len);
	problems = joind_profile_manager_check_text(path, type, joind_profile_draft_get_ssid(draft),
	                                            text, len);
	joind_secret_wipe(text);
	return problems;
}

/* ---- list ------------------------------------------------------------------ */

/* The settings of profile's file, read again: a profile keeps its text to
 * itself. A file that changed since it was read (the store is about to
 * read it again) lists what is in it now. */
static void
list_settings(JoindProfile *profile, GVariantBuilder *settings)
{
	const gchar *path = joind_profile_get_path(profile);
	g_autoptr(GBytesWiped) contents = NULL;
	g_autoptr(JoindProfileDraft) draft = NULL;
	g_autoptr(GError) error = NULL;
	GBytes *ssid = joind_profile_get_ssid(profile);
	mode_t mode = 0;
	gsize len = 0;
	const guint8 *data;

	if (ssid != NULL)
		g_variant_builder_add(
		        settings, "{sv}", "Settings.SSID",
		        g_variant_new_from_bytes(G_VARIANT_TYPE_BYTESTRING, ssid, TRUE));
	if (!joind_profile_file_read(path, &contents, &mode, &error)) {
		g_debug("listing %s: %s", path, error->message);
		return;
	}
	data = g_bytes_get_data(contents, &len);
	draft = joind_profile_draft_new_from_text(path, data != NULL ? data : (const guint8 *)"",
	                                          len, NULL);
	if (draft != NULL)
		joind_profile_draft_describe(draft, settings);
}

GVariant *
joind_profile_manager_list(JoindProfileManager *self)
{
	g_autoptr(GPtrArray) all = manager_all(self);
	GVariantBuilder list;

	g_variant_builder_init(&list, G_VARIANT_TYPE("a(ossa{sv})"));
	for (guint i = 0; i < all->len; i++) {
		JoindProfile *profile = g_ptr_array_index(all, i);
		g_autofree gchar *path = joind_profile_manager_path(profile);
		GVariantBuilder settings;

		g_variant_builder_init(&settings, G_VARIANT_TYPE_VARDICT);
		list_settings(profile, &settings);
		g_variant_builder_add(&list, "(ossa{sv})", path,
		                      type_to_kind(joind_profile_get_profile_type(profile)),
		                      joind_profile_get_name(profile), &settings);
	}
	joind_profile_ap_list(manager_state_dir(self), &list);
	return g_variant_builder_end(&list);
}
