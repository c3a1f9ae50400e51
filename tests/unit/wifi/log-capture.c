/* log-capture.c - the wifi plugin's log in unit tests (see log-capture.h). */
#include "log-capture.h"

static GPtrArray *lines;   /* "LEVEL: message" */
static GPtrArray *allowed; /* patterns of warnings that are not fatal */

static gboolean
is_allowed(GLogLevelFlags level, const gchar *message)
{
	if (!(level & G_LOG_LEVEL_WARNING) || message == NULL)
		return FALSE;
	for (guint i = 0; i < allowed->len; i++) {
		if (g_pattern_match_simple(g_ptr_array_index(allowed, i), message))
			return TRUE;
	}
	return FALSE;
}

static const gchar *
level_name(GLogLevelFlags level)
{
	if (level & G_LOG_LEVEL_WARNING)
		return "WARNING";
	if (level & G_LOG_LEVEL_MESSAGE)
		return "MESSAGE";
	if (level & G_LOG_LEVEL_INFO)
		return "INFO";
	return (level & G_LOG_LEVEL_DEBUG) ? "DEBUG" : "OTHER";
}

static void
capture(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer user_data)
{
	g_ptr_array_add(lines, g_strdup_printf("%s: %s", level_name(level), message));
	/* An allowed warning is not printed: the harness would take it for
	 * a failure. */
	if (!is_allowed(level, message))
		g_log_default_handler(domain, level, message, user_data);
}

static gboolean
not_fatal(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer user_data)
{
	return !is_allowed(level, message);
}

void
log_capture_init(void)
{
	lines = g_ptr_array_new_with_free_func(g_free);
	allowed = g_ptr_array_new_with_free_func(g_free);
	log_capture_add_domain("joind-wifi");
}

void
log_capture_add_domain(const gchar *domain)
{
	g_log_set_handler(domain, G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL, capture, NULL);
}

void
log_capture_reset(void)
{
	g_ptr_array_set_size(lines, 0);
	g_ptr_array_set_size(allowed, 0);
	/* g_test forgets the fatal handler at the start of each test. */
	g_test_log_set_fatal_handler(not_fatal, NULL);
}

void
log_capture_allow_warning(const gchar *pattern)
{
	g_ptr_array_add(allowed, g_strdup(pattern));
}

guint
log_capture_count(const gchar *pattern)
{
	guint n = 0;

	for (guint i = 0; i < lines->len; i++)
		n += g_pattern_match_simple(pattern, g_ptr_array_index(lines, i)) ? 1 : 0;
	return n;
}
