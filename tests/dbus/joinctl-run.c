/* joinctl-run.c - see joinctl-run.h. */
#include "joinctl-run.h"

void
run_clear(Run *r)
{
	g_free(r->out);
	g_free(r->err);
}

gchar *
joinctl_path(void)
{
	return g_build_filename(g_getenv("JOIND_BUILD_ROOT"), "client", "joinctl", NULL);
}

typedef struct {
	gboolean done;
	Run *r;
	GError *error;
} Wait;

static void
on_communicated(GObject *source, GAsyncResult *result, gpointer data)
{
	Wait *w = data;

	g_subprocess_communicate_utf8_finish(G_SUBPROCESS(source), result, &w->r->out, &w->r->err,
	                                     &w->error);
	w->done = TRUE;
}

void
run_joinctl(Run *r, const gchar *const *env, ...)
{
	g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new(
	        G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GSubprocess) proc = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *line = NULL;
	Wait w = {FALSE, r, NULL};
	const gchar *arg;
	va_list args;

	g_ptr_array_add(argv, joinctl_path());
	va_start(args, env);
	while ((arg = va_arg(args, const gchar *)) != NULL)
		g_ptr_array_add(argv, g_strdup(arg));
	va_end(args);
	g_ptr_array_add(argv, NULL);
	for (guint i = 0; env != NULL && env[i] != NULL; i += 2)
		g_subprocess_launcher_setenv(launcher, env[i], env[i + 1], TRUE);
	proc = g_subprocess_launcher_spawnv(launcher, (const gchar *const *)argv->pdata, &error);
	g_assert_no_error(error);
	g_subprocess_communicate_utf8_async(proc, NULL, NULL, on_communicated, &w);
	while (!w.done)
		g_main_context_iteration(NULL, TRUE);
	g_assert_no_error(w.error);
	g_subprocess_wait(proc, NULL, &error);
	g_assert_no_error(error);
	r->status = g_subprocess_get_if_exited(proc) ? g_subprocess_get_exit_status(proc) : -1;
	line = g_strjoinv(" ", (gchar **)argv->pdata + 1);
	g_test_message("joinctl %s -> %d\nstdout: %s\nstderr: %s", line, r->status, r->out, r->err);
}

JsonNode *
parse_json(const gchar *text)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;

	json_parser_load_from_data(parser, text, -1, &error);
	g_assert_no_error(error);
	return json_node_copy(json_parser_get_root(parser));
}
