/* joind-eap-seen.c - the last server certificate per profile (see
 * joind-eap-seen.h). */
#include "joind-eap-seen.h"

#include <string.h>

#include "joind-profile-manager.h"

/* A profile that is never used again keeps its entry; the oldest goes
 * once this many profiles have one. */
#define SEEN_MAX 64

typedef struct {
	GVariant *details;
	gchar *object_path; /* ProfileManager1's name for the profile */
	GDateTime *when;
} Seen;

/* Process-wide, like the method registry: reports come from sessions on
 * the main thread, and the diagnostics read them there. */
static GHashTable *seen_table;

static void
seen_free(gpointer data)
{
	Seen *seen = data;

	g_variant_unref(seen->details);
	g_free(seen->object_path);
	g_date_time_unref(seen->when);
	g_free(seen);
}

static void
seen_drop_oldest(void)
{
	GHashTableIter iter;
	gpointer key, value;
	const gchar *oldest = NULL;
	GDateTime *oldest_when = NULL;

	g_hash_table_iter_init(&iter, seen_table);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		Seen *seen = value;
		if (oldest_when == NULL || g_date_time_compare(seen->when, oldest_when) < 0) {
			oldest = key;
			oldest_when = seen->when;
		}
	}
	if (oldest != NULL)
		g_hash_table_remove(seen_table, oldest);
}

void
joind_eap_seen_record(JoindProfile *profile, GVariant *details)
{
	const gchar *path = joind_profile_get_path(profile);
	Seen *seen;

	g_return_if_fail(g_variant_is_of_type(details, G_VARIANT_TYPE_VARDICT));
	if (seen_table == NULL)
		seen_table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, seen_free);
	if (!g_hash_table_contains(seen_table, path) && g_hash_table_size(seen_table) >= SEEN_MAX)
		seen_drop_oldest();
	seen = g_new0(Seen, 1);
	seen->details = g_variant_ref_sink(details);
	seen->object_path = joind_profile_manager_path(profile);
	seen->when = g_date_time_new_now_utc();
	g_hash_table_replace(seen_table, g_strdup(path), seen);
}

static void
seen_add_value(JsonBuilder *b, const gchar *key, GVariant *value)
{
	g_autofree gchar *member = g_strdelimit(g_strdup(key), "-", '_');

	if (g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
		json_builder_set_member_name(b, member);
		json_builder_add_string_value(b, g_variant_get_string(value, NULL));
	} else if (g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN)) {
		json_builder_set_member_name(b, member);
		json_builder_add_boolean_value(b, g_variant_get_boolean(value));
	}
}

void
joind_eap_seen_add_json(JsonBuilder *b, const gchar *member, const gchar *profile_path)
{
	Seen *seen = seen_table != NULL && profile_path != NULL
	                     ? g_hash_table_lookup(seen_table, profile_path)
	                     : NULL;
	g_autofree gchar *when = NULL;
	GVariantIter iter;
	const gchar *key;
	GVariant *value;

	if (seen == NULL)
		return;
	when = g_date_time_format_iso8601(seen->when);
	json_builder_set_member_name(b, member);
	json_builder_begin_object(b);
	g_variant_iter_init(&iter, seen->details);
	while (g_variant_iter_next(&iter, "{&sv}", &key, &value)) {
		seen_add_value(b, key, value);
		g_variant_unref(value);
	}
	json_builder_set_member_name(b, "profile");
	json_builder_add_string_value(b, seen->object_path);
	json_builder_set_member_name(b, "seen");
	json_builder_add_string_value(b, when);
	json_builder_end_object(b);
}

void
joind_eap_seen_clear(void)
{
	g_clear_pointer(&seen_table, g_hash_table_unref);
}
