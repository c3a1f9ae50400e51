/* joind-util.h - small helpers private to the core. */
#pragma once

#include <glib.h>

/* Like g_set_str() (GLib 2.76, newer than Debian 12): replace *dst with a
 * copy of src; TRUE when the value changed. */
static inline gboolean
joind_set_str(gchar **dst, const gchar *src)
{
	if (g_strcmp0(*dst, src) == 0)
		return FALSE;
	g_free(*dst);
	*dst = g_strdup(src);
	return TRUE;
}

/* The addresses a model lists (an access point's stations, an ad-hoc
 * network's peers): a NULL-terminated array of lower-case strings in the
 * order they came. Each returns TRUE when the list changed. */
static inline gboolean
joind_addresses_add(GPtrArray *list, const gchar *address)
{
	gchar *lower = g_ascii_strdown(address, -1);

	if (g_ptr_array_find_with_equal_func(list, lower, g_str_equal, NULL)) {
		g_free(lower);
		return FALSE;
	}
	g_ptr_array_add(list, lower);
	return TRUE;
}

static inline gboolean
joind_addresses_remove(GPtrArray *list, const gchar *address)
{
	g_autofree gchar *lower = g_ascii_strdown(address, -1);
	guint index;

	if (!g_ptr_array_find_with_equal_func(list, lower, g_str_equal, &index))
		return FALSE;
	g_ptr_array_remove_index(list, index);
	return TRUE;
}
