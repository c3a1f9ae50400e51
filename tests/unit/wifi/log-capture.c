/* log-capture.c - the wifi plugin's log in unit tests (see log-capture.h). */
#include "log-capture.h"

static GPtrArray *lines;   /* "LEVEL: message" */
static GPtrArray *allowed; /* patterns of warnings that are not fatal */
static GPtrArray *domains; /* the log domains captured */

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

static const gchar *
field(const GLogField *fields, gsize n_fields, const gchar *key)
{
	for (gsize i = 0; i < n_fields; i++) {
		if (g_str_equal(fields[i].key, key) && fields[i].length < 0)
			return fields[i].value;
	}
	return NULL;
}

static gboolean
is_captured(const gchar *domain)
{
	return domain != NULL &&
	       g_ptr_array_find_with_equal_func(domains, domain, g_str_equal, NULL);
}

/* A writer rather than a handler: the rooms log both through g_log()
 * and structured (joind_log_device(), state changes), and only the
 * writer sees both. */
static GLogWriterOutput
capture(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
	const gchar *message = field(fields, n_fields, "MESSAGE");

	if (!is_captured(field(fields, n_fields, "GLIB_DOMAIN")))
		return g_log_writer_default(level, fields, n_fields, user_data);
	g_ptr_array_add(lines, g_strdup_printf("%s: %s", level_name(level), message));
	/* An allowed warning is not printed: the harness would take it for
	 * a failure. Any other goes on to the default writer, which makes a
	 * structured warning fatal under g_test; g_log()'s are made fatal,
	 * or not, by not_fatal() below. */
	if (is_allowed(level, message))
		return G_LOG_WRITER_HANDLED;
	return g_log_writer_default(level, fields, n_fields, user_data);
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
	domains = g_ptr_array_new_with_free_func(g_free);
	g_log_set_writer_func(capture, NULL, NULL);
	log_capture_add_domain("joind-wifi");
}

void
log_capture_add_domain(const gchar *domain)
{
	g_ptr_array_add(domains, g_strdup(domain));
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
