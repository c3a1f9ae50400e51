/* joind-profile-keys.c - the registry of the profile keys plugins own
 * (see joind-profile-keys.h). */
#include "joind-profile-keys.h"

#include <string.h>

static GPtrArray *tables; /* const JoindProfileKey *, in the order declared */

static const gchar *const type_names[] = {
        [JOIND_PROFILE_TYPE_OPEN] = "open",   [JOIND_PROFILE_TYPE_PSK] = "psk",
        [JOIND_PROFILE_TYPE_8021X] = "8021x", [JOIND_PROFILE_TYPE_WIRED] = "wired",
        [JOIND_PROFILE_TYPE_AP] = "ap",
};
G_STATIC_ASSERT(G_N_ELEMENTS(type_names) == JOIND_PROFILE_TYPE_AP + 1);

const gchar *
joind_profile_keys_type_name(JoindProfileType type)
{
	return (guint)type < G_N_ELEMENTS(type_names) ? type_names[type] : NULL;
}

void
joind_profile_keys_declare(const JoindProfileKey *keys)
{
	if (tables == NULL)
		tables = g_ptr_array_new();
	if (!g_ptr_array_find(tables, keys, NULL))
		g_ptr_array_add(tables, (gpointer)keys);
}

void
joind_profile_keys_withdraw(const JoindProfileKey *keys)
{
	if (tables != NULL)
		g_ptr_array_remove(tables, (gpointer)keys);
}

static gboolean
key_matches(const JoindProfileKey *entry, const gchar *key)
{
	gsize len = strlen(entry->key);

	if (len > 0 && entry->key[len - 1] == '*')
		return strncmp(entry->key, key, len - 1) == 0;
	return strcmp(entry->key, key) == 0;
}

const JoindProfileKey *
joind_profile_keys_lookup(JoindProfileType type, const gchar *group, const gchar *key)
{
	for (guint i = 0; tables != NULL && i < tables->len; i++) {
		for (const JoindProfileKey *k = g_ptr_array_index(tables, i); k->group != NULL;
		     k++) {
			if ((k->profiles & JOIND_PROFILE_KEY_IN(type)) != 0 &&
			    strcmp(k->group, group) == 0 && key_matches(k, key))
				return k;
		}
	}
	return NULL;
}
