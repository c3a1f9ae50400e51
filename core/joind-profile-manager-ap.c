/* joind-profile-manager-ap.c - ProfileManager1's access point profiles
 * (see joind-profile-manager-ap.h). */
#include "joind-profile-manager-ap.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "joind-error.h"
#include "joind-file.h"
#include "joind-profile-manager.h"
#include "joind-profile-private.h"
#include "joind-profile-store-private.h"
#include "joind-secret.h"

#define AP_PATH_PREFIX "/net/joind/profile/ap/"
#define AP_DIR         "ap"
#define AP_EXTENSION   ".ap"

gboolean
joind_profile_ap_owns(const gchar *object_path)
{
	return g_str_has_prefix(object_path, AP_PATH_PREFIX);
}

static gchar *
ap_object_path(const gchar *name)
{
	g_autofree gchar *hex = joind_ssid_hex((const guint8 *)name, strlen(name));

	return g_strconcat(AP_PATH_PREFIX, hex, NULL);
}

/* The file an SSID's profile is, as StartProfile looks it up: the SSID
 * itself is the file name, so it must be one. */
static gchar *
ap_file(const gchar *state_dir, const gchar *name, GError **error)
{
	gsize len = strlen(name);
	g_autofree gchar *base = NULL;

	for (gsize i = 0; i < len; i++) {
		if ((guchar)name[i] < 0x20 || name[i] == '/')
			len = 0;
	}
	if (len == 0 || len > 32 || name[0] == '.' || !g_utf8_validate(name, -1, NULL)) {
		joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                "“%s” cannot name an access point profile: its SSID, 1 to 32 "
		                "octets of UTF-8 without “/” or control characters, not starting "
		                "with “.”",
		                name);
		return NULL;
	}
	base = g_strconcat(name, AP_EXTENSION, NULL);
	return g_build_filename(state_dir, AP_DIR, base, NULL);
}

/* Checks the draft as the file at path and writes it (mode 0600). */
static gboolean
ap_write(const gchar *path, JoindProfileDraft *draft, GError **error)
{
	GHashTable *bundles = joind_profile_draft_get_bundles(draft);
	g_autofree gchar *dir = g_path_get_dirname(path);
	g_auto(GStrv) problems = NULL;
	gsize len = 0;
	gchar *text;
	gboolean ok;

	/* Key bundles stay out of the text: none belongs in an AP profile. */
	if (bundles != NULL && g_hash_table_size(bundles) > 0)
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "joind's access point takes no key bundle");
	text = joind_profile_draft_to_text(draft, &len);
	problems = joind_profile_manager_check_text(path, JOIND_PROFILE_TYPE_AP, NULL, text, len);
	if (problems[0] != NULL) {
		g_autofree gchar *joined = g_strjoinv("\n", problems);

		ok = joind_set_error(error, JOIND_ERROR_INVALID_ARGS, "%s", joined);
	} else {
		ok = joind_profile_store_ensure_dir(dir, error) &&
		     joind_file_write_atomically(path, text, len, error);
	}
	joind_secret_wipe(text);
	return ok;
}

gchar *
joind_profile_ap_create(const gchar *state_dir, const gchar *name, JoindProfileDraft *draft,
                        GError **error)
{
	g_autofree gchar *path = ap_file(state_dir, name, error);

	if (path == NULL)
		return NULL;
	if (g_file_test(path, G_FILE_TEST_EXISTS)) {
		joind_set_error(error, JOIND_ERROR_BUSY,
		                "An ap profile by that name exists already (%s): update or "
		                "delete it",
		                path);
		return NULL;
	}
	if (!ap_write(path, draft, error))
		return NULL;
	return ap_object_path(name);
}

/* ---- the directory --------------------------------------------------------- */

/* Each profile's name (its SSID), sorted; a file that cannot be a profile
 * (hidden, another extension, a name StartProfile would refuse) is left
 * out. */
static GPtrArray *
ap_names(const gchar *state_dir)
{
	g_autofree gchar *dir_path = g_build_filename(state_dir, AP_DIR, NULL);
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const gchar *base;

	while (dir != NULL && (base = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *name = NULL;
		g_autofree gchar *path = NULL;

		if (!g_str_has_suffix(base, AP_EXTENSION))
			continue;
		name = g_strndup(base, strlen(base) - strlen(AP_EXTENSION));
		path = ap_file(state_dir, name, NULL);
		if (path != NULL)
			g_ptr_array_add(names, g_steal_pointer(&name));
	}
	g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	return names;
}

/* The path of the file object_path names, or NOT_FOUND. */
static gchar *
ap_find(const gchar *state_dir, const gchar *object_path, GError **error)
{
	g_autoptr(GPtrArray) names = ap_names(state_dir);

	for (guint i = 0; i < names->len; i++) {
		g_autofree gchar *path = ap_object_path(g_ptr_array_index(names, i));

		if (strcmp(path, object_path) == 0)
			return ap_file(state_dir, g_ptr_array_index(names, i), error);
	}
	joind_set_error(error, JOIND_ERROR_NOT_FOUND, "No profile is known as %s.", object_path);
	return NULL;
}

/* The draft of the file as it is now. */
static JoindProfileDraft *
ap_read(const gchar *path, GError **error)
{
	g_autoptr(GBytesWiped) contents = NULL;
	mode_t mode = 0;
	gsize len = 0;
	const guint8 *data;

	if (!joind_profile_file_read(path, &contents, &mode, error))
		return NULL;
	data = g_bytes_get_data(contents, &len);
	return joind_profile_draft_new_from_text(path, data != NULL ? data : (const guint8 *)"",
	                                         len, error);
}

gboolean
joind_profile_ap_update(const gchar *state_dir, const gchar *object_path, GVariant *set,
                        const gchar *const *unset, GError **error)
{
	g_autofree gchar *path = ap_find(state_dir, object_path, error);
	g_autoptr(JoindProfileDraft) draft = NULL;

	if (path == NULL)
		return FALSE;
	draft = ap_read(path, error);
	return draft != NULL && joind_profile_draft_unset(draft, unset, error) &&
	       joind_profile_draft_set(draft, set, FALSE, error) && ap_write(path, draft, error);
}

gboolean
joind_profile_ap_delete(const gchar *state_dir, const gchar *object_path, GError **error)
{
	g_autofree gchar *path = ap_find(state_dir, object_path, error);
	g_autofree gchar *dir = NULL;

	if (path == NULL)
		return FALSE;
	if (g_unlink(path) < 0 && errno != ENOENT)
		return joind_set_error(error, JOIND_ERROR_FAILED, "Could not remove %s: %s", path,
		                       g_strerror(errno));
	dir = g_path_get_dirname(path);
	joind_file_sync_dir(dir);
	return TRUE;
}

void
joind_profile_ap_list(const gchar *state_dir, GVariantBuilder *list)
{
	g_autoptr(GPtrArray) names = ap_names(state_dir);

	for (guint i = 0; i < names->len; i++) {
		const gchar *name = g_ptr_array_index(names, i);
		g_autofree gchar *path = ap_file(state_dir, name, NULL);
		g_autofree gchar *object_path = ap_object_path(name);
		g_autoptr(GError) error = NULL;
		g_autoptr(JoindProfileDraft) draft = ap_read(path, &error);
		GVariantBuilder settings;

		g_variant_builder_init(&settings, G_VARIANT_TYPE_VARDICT);
		if (draft != NULL)
			joind_profile_draft_describe(draft, &settings);
		else
			g_debug("listing %s: %s", path, error->message);
		g_variant_builder_add(list, "(ossa{sv})", object_path, "ap", name, &settings);
	}
}
