/* test-dir.h - temporary directories of tests. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes path and everything below it; a symbolic link is removed, never
 * followed. */
void test_dir_remove_tree(const gchar *path);

G_END_DECLS
