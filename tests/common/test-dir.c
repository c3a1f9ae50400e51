/* test-dir.c - temporary directories of tests (see test-dir.h). */
#include "test-dir.h"

#include <glib/gstdio.h>

void
test_dir_remove_tree(const gchar *path)
{
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
	const gchar *name;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *child = g_build_filename(path, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
			test_dir_remove_tree(child);
		else
			g_unlink(child);
	}
	g_rmdir(path);
}
