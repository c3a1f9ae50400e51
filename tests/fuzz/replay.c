/* replay.c - runs a fuzz target over every file of a corpus directory, so
 * that `meson test --suite fuzz` exercises the targets without libFuzzer. */
#include <glib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gboolean
replay_file(const gchar *path)
{
	g_autofree gchar *contents = NULL;
	gsize len = 0;
	g_autoptr(GError) error = NULL;

	if (!g_file_get_contents(path, &contents, &len, &error)) {
		g_printerr("replay: %s\n", error->message);
		return FALSE;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)contents, len);
	return TRUE;
}

int
main(int argc, char **argv)
{
	guint n = 0;

	for (int i = 1; i < argc; i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GDir) dir = g_dir_open(argv[i], 0, &error);
		const gchar *name;

		if (dir == NULL) {
			if (!replay_file(argv[i]))
				return 1;
			n++;
			continue;
		}
		while ((name = g_dir_read_name(dir)) != NULL) {
			g_autofree gchar *path = g_build_filename(argv[i], name, NULL);
			if (!replay_file(path))
				return 1;
			n++;
		}
	}
	if (n == 0) {
		g_printerr("replay: empty corpus\n");
		return 1;
	}
	g_print("replayed %u inputs\n", n);
	return 0;
}
