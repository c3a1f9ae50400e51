/* proc-cpu.c - a process's CPU time as the bench programs read it. */
#include "proc-cpu.h"

guint64
bench_proc_cpu_ns(const gchar *pid)
{
	g_autofree gchar *dir_path = g_strdup_printf("/proc/%s/task", pid);
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	const gchar *tid;
	guint64 ns = 0;

	while (dir != NULL && (tid = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *path = g_strdup_printf("%s/%s/schedstat", dir_path, tid);
		g_autofree gchar *text = NULL;

		if (g_file_get_contents(path, &text, NULL, NULL))
			ns += g_ascii_strtoull(text, NULL, 10);
	}
	return ns;
}
