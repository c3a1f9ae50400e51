/* test-names.h - the check that a name table (value -> name, a
 * designated initialiser checked against its enum's _LAST member) names
 * every value: no hole a new value left, no name given twice. */
#pragma once

#include <glib.h>

/* names: what to_string() answered for each value from 0 to the last. */
static inline void
test_assert_names(GPtrArray *names, const gchar *fallback)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint v = 0; v < names->len; v++) {
		const gchar *name = g_ptr_array_index(names, v);

		g_assert_nonnull(name);
		g_assert_cmpstr(name, !=, fallback);
		g_assert_cmpstr(name, !=, "");
		g_assert_false(g_hash_table_contains(seen, name));
		g_hash_table_add(seen, (gpointer)name);
	}
}

/* Asks to_string() for every value from 0 to last. */
#define TEST_ASSERT_NAMES(to_string, last, fallback)                      \
	G_STMT_START                                                      \
	{                                                                 \
		g_autoptr(GPtrArray) names_ = g_ptr_array_new();          \
                                                                          \
		for (guint v_ = 0; v_ <= (guint)(last); v_++)             \
			g_ptr_array_add(names_, (gpointer)to_string(v_)); \
		test_assert_names(names_, fallback);                      \
	}                                                                 \
	G_STMT_END
