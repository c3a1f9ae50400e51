/* joinctl-prompt.c - reading one line from the terminal without blocking
 * the main loop (joind may cancel the request meanwhile), with echo turned
 * off for secrets and the terminal restored however the prompt ends.
 */
#include "config.h"

#include <glib-unix.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "joinctl.h"

static struct {
	gboolean active;
	gboolean echo_off;
	struct termios saved;
	guint watch;
	GString *line;
	JoinctlPromptFunc func;
	gpointer user_data;
} prompt;

gboolean
joinctl_prompt_available(void)
{
	return isatty(STDIN_FILENO) == 1;
}

gboolean
joinctl_prompt_busy(void)
{
	return prompt.active;
}

static void
prompt_stop(void)
{
	if (prompt.echo_off) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &prompt.saved);
		g_printerr("\n");
		prompt.echo_off = FALSE;
	}
	if (prompt.watch != 0)
		g_source_remove(prompt.watch);
	prompt.watch = 0;
	if (prompt.line != NULL) {
		explicit_bzero(prompt.line->str, prompt.line->allocated_len);
		g_string_free(prompt.line, TRUE);
		prompt.line = NULL;
	}
	prompt.active = FALSE;
}

/* line: the answer without its newline (owned by the callee), NULL at EOF. */
static void
prompt_finish(gchar *line)
{
	JoinctlPromptFunc func = prompt.func;
	gpointer user_data = prompt.user_data;

	prompt.watch = 0; /* the source is being removed by returning FALSE */
	prompt_stop();
	func(line, user_data);
}

static gboolean
on_input(gint fd, GIOCondition condition, gpointer user_data)
{
	gchar buf[256];
	gssize n = read(fd, buf, sizeof(buf));
	gchar *newline;

	if (n <= 0) {
		prompt_finish(NULL);
		return G_SOURCE_REMOVE;
	}
	g_string_append_len(prompt.line, buf, n);
	explicit_bzero(buf, sizeof(buf));
	newline = memchr(prompt.line->str, '\n', prompt.line->len);
	if (newline == NULL)
		return G_SOURCE_CONTINUE;
	if (newline > prompt.line->str && newline[-1] == '\r')
		newline--;
	prompt_finish(g_strndup(prompt.line->str, newline - prompt.line->str));
	return G_SOURCE_REMOVE;
}

/* Ask question on stderr and call func with the line typed on stdin. */
gboolean
joinctl_prompt_start(const gchar *question, gboolean echo, JoinctlPromptFunc func,
                     gpointer user_data)
{
	struct termios quiet;

	if (prompt.active || !joinctl_prompt_available())
		return FALSE;
	if (!echo && tcgetattr(STDIN_FILENO, &prompt.saved) == 0) {
		quiet = prompt.saved;
		quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		quiet.c_lflag |= ICANON;
		if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0)
			prompt.echo_off = TRUE;
	}
	g_printerr("%s", question);
	prompt.active = TRUE;
	prompt.func = func;
	prompt.user_data = user_data;
	prompt.line = g_string_sized_new(128);
	prompt.watch = g_unix_fd_add(STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, NULL);
	return TRUE;
}

typedef struct {
	gboolean done;
	gchar *line;
} Answer;

static void
answered(gchar *line, gpointer user_data)
{
	Answer *answer = user_data;

	answer->line = line;
	answer->done = TRUE;
}

gchar *
joinctl_prompt_line(JoinctlContext *ctx, const gchar *question, gboolean echo, const gchar *what,
                    const gchar *no_terminal, GError **error)
{
	Answer answer = {0};

	if (!joinctl_prompt_start(question, echo, answered, &answer)) {
		g_set_error_literal(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE, no_terminal);
		return NULL;
	}
	while (!answer.done && !g_cancellable_is_cancelled(ctx->cancellable))
		g_main_context_iteration(NULL, TRUE);
	if (!answer.done) {
		joinctl_prompt_cancel();
		g_set_error_literal(error, JOINCTL_ERROR, JOINCTL_EXIT_ABORTED, _("interrupted"));
		return NULL;
	}
	if (answer.line == NULL)
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE, _("no value for %s"), what);
	return answer.line;
}

/* Abandon the prompt (its callback is not called) and restore the terminal. */
void
joinctl_prompt_cancel(void)
{
	if (prompt.active)
		prompt_stop();
}
