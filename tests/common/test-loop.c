/* test-loop.c - the default main context run for a while (see
 * test-loop.h). */
#include "test-loop.h"

static gboolean
set_flag(gpointer user_data)
{
	*(gboolean *)user_data = TRUE;
	return G_SOURCE_REMOVE;
}

void
test_loop_run_for(guint ms)
{
	gboolean over = FALSE;

	g_timeout_add(ms, set_flag, &over);
	while (!over)
		g_main_context_iteration(NULL, TRUE);
}

void
test_loop_run_until(const guint *count, guint n, guint limit_ms)
{
	gboolean over = FALSE;
	guint guard = g_timeout_add(limit_ms, set_flag, &over);

	while (*count < n && !over)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpuint(*count, >=, n);
	g_source_remove(guard);
}
