/* joind-log.c - structured log lines and the daemon's log writer.
 *
 * The fields follow the journal's conventions (upper-case names, MESSAGE_ID
 * a 128-bit id in hex) so that journalctl can match on them; the plain
 * writer prints only MESSAGE, as lines always looked.
 */
#include "joind-log-writer.h"
#include "joind-log-private.h"

#include <string.h>
#include <sys/stat.h>

struct _JoindLogWriter {
	gchar **debug; /* log domain globs, NULL: no debug */
	gboolean journal;
	FILE *plain;
};

static const gchar *
log_message_id(JoindLogKind kind)
{
	switch (kind) {
	case JOIND_LOG_FAILURE:
		return JOIND_LOG_ID_FAILURE;
	case JOIND_LOG_AUTHORIZATION:
		return JOIND_LOG_ID_AUTHORIZATION;
	case JOIND_LOG_STATE_CHANGE:
	default:
		return JOIND_LOG_ID_STATE_CHANGE;
	}
}

/* syslog(3) priorities, as GLib maps its levels for the journal. */
static const gchar *
log_priority(GLogLevelFlags level)
{
	if ((level & G_LOG_LEVEL_ERROR) != 0)
		return "3";
	if ((level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) != 0)
		return "4";
	if ((level & G_LOG_LEVEL_MESSAGE) != 0)
		return "5";
	if ((level & G_LOG_LEVEL_INFO) != 0)
		return "6";
	return "7";
}

static void
log_field(GLogField *fields, gsize *n, const gchar *key, const gchar *value)
{
	if (value == NULL)
		return;
	fields[*n].key = key;
	fields[*n].value = value;
	fields[*n].length = -1;
	(*n)++;
}

void
joind_log_state_change(const gchar *domain, GLogLevelFlags level, JoindLogKind kind,
                       const JoindLogSubject *subject, const gchar *old_state,
                       const gchar *new_state, const gchar *reason)
{
	g_autoptr(GString) message = g_string_new(NULL);
	GLogField fields[10];
	gsize n = 0;

	g_return_if_fail(subject != NULL && new_state != NULL);
	if (subject->device != NULL)
		g_string_append_printf(message, "%s: ", subject->device);
	if (subject->machine != NULL)
		g_string_append_printf(message, "%s ", subject->machine);
	g_string_append_printf(message, "%s -> %s", old_state != NULL ? old_state : "?", new_state);
	if (reason != NULL)
		g_string_append_printf(message, " (%s)", reason);
	log_field(fields, &n, "MESSAGE", message->str);
	log_field(fields, &n, "PRIORITY", log_priority(level));
	log_field(fields, &n, "GLIB_DOMAIN", domain);
	log_field(fields, &n, "MESSAGE_ID", log_message_id(kind));
	log_field(fields, &n, "JOIND_STATE", new_state);
	log_field(fields, &n, "JOIND_PLUGIN", subject->plugin);
	log_field(fields, &n, "JOIND_DEVICE", subject->device);
	log_field(fields, &n, "JOIND_NETWORK", subject->network);
	log_field(fields, &n, "JOIND_MACHINE", subject->machine);
	g_log_structured_array(level, fields, n);
}

void
joind_log_device(const gchar *domain, GLogLevelFlags level, const gchar *device,
                 const gchar *format, ...)
{
	g_autoptr(GString) message = g_string_new(NULL);
	GLogField fields[4];
	gsize n = 0;
	va_list args;

	if (device != NULL)
		g_string_append_printf(message, "%s: ", device);
	va_start(args, format);
	g_string_append_vprintf(message, format, args);
	va_end(args);
	log_field(fields, &n, "MESSAGE", message->str);
	log_field(fields, &n, "PRIORITY", log_priority(level));
	log_field(fields, &n, "GLIB_DOMAIN", domain);
	log_field(fields, &n, "JOIND_DEVICE", device);
	g_log_structured_array(level, fields, n);
}

void
joind_log_authorization(GLogLevelFlags level, const JoindLogAuthorization *auth)
{
	const gchar *result = auth->allowed ? "allowed" : "denied";
	g_autofree gchar *uid =
	        auth->uid >= 0 ? g_strdup_printf("%" G_GINT64_FORMAT, auth->uid) : NULL;
	g_autoptr(GString) message = g_string_new(NULL);
	GLogField fields[9];
	gsize n = 0;

	g_string_append_printf(message, "%s by %s", auth->member, auth->caller);
	if (uid != NULL)
		g_string_append_printf(message, " (uid %s)", uid);
	g_string_append(message, ": ");
	if (auth->action != NULL)
		g_string_append_printf(message, "%s ", auth->action);
	g_string_append_printf(message, "%s (%s)", result, auth->how);
	log_field(fields, &n, "MESSAGE", message->str);
	log_field(fields, &n, "PRIORITY", log_priority(level));
	log_field(fields, &n, "GLIB_DOMAIN", "joind");
	log_field(fields, &n, "MESSAGE_ID", JOIND_LOG_ID_AUTHORIZATION);
	log_field(fields, &n, "JOIND_ACTION", auth->action);
	log_field(fields, &n, "JOIND_CALLER", auth->caller);
	log_field(fields, &n, "JOIND_CALLER_UID", uid);
	log_field(fields, &n, "JOIND_RESULT", result);
	g_log_structured_array(level, fields, n);
}

/* ---- the writer ----------------------------------------------------------- */

/* systemd says so in JOURNAL_STREAM ("device:inode" of the stream it gave
 * the service, systemd.exec(5)); GLib's own test only knows the journal's
 * socket by its address, which a service's stderr does not show. */
static gboolean
log_fd_is_journal_stream(gint fd)
{
	const gchar *stream = g_getenv("JOURNAL_STREAM");
	struct stat st;
	gchar *end = NULL;
	guint64 dev, ino;

	if (stream == NULL || fstat(fd, &st) != 0)
		return FALSE;
	dev = g_ascii_strtoull(stream, &end, 10);
	if (end == stream || *end != ':')
		return FALSE;
	stream = end + 1;
	ino = g_ascii_strtoull(stream, &end, 10);
	if (end == stream || *end != '\0')
		return FALSE;
	return dev == (guint64)st.st_dev && ino == (guint64)st.st_ino;
}

JoindLogWriter *
joind_log_writer_new(const gchar *const *debug, gint fd, FILE *plain)
{
	JoindLogWriter *self = g_new0(JoindLogWriter, 1);

	self->debug = g_strdupv((gchar **)debug);
	self->journal = log_fd_is_journal_stream(fd) || g_log_writer_is_journald(fd);
	self->plain = plain;
	return self;
}

void
joind_log_writer_free(JoindLogWriter *self)
{
	if (self == NULL)
		return;
	g_strfreev(self->debug);
	g_free(self);
}

gboolean
joind_log_writer_uses_journal(JoindLogWriter *self)
{
	return self->journal;
}

static gboolean
writer_debug_enabled(JoindLogWriter *self, const gchar *domain)
{
	if (self->debug == NULL)
		return FALSE;
	for (guint i = 0; self->debug[i] != NULL; i++) {
		if (g_str_equal(self->debug[i], "all") ||
		    g_pattern_match_simple(self->debug[i], domain != NULL ? domain : "joind"))
			return TRUE;
	}
	return FALSE;
}

static const gchar *
field_value(const GLogField *fields, gsize n_fields, const gchar *key)
{
	for (gsize i = 0; i < n_fields; i++) {
		if (g_str_equal(fields[i].key, key) && fields[i].length < 0)
			return fields[i].value;
	}
	return NULL;
}

/* Lines carry a timestamp so a log reads as a story. */
static void
writer_plain(JoindLogWriter *self, GLogLevelFlags level, const gchar *domain, const gchar *message)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_local();
	const gchar *tag = "";

	if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) != 0)
		tag = "CRITICAL: ";
	else if ((level & G_LOG_LEVEL_WARNING) != 0)
		tag = "WARNING: ";
	fprintf(self->plain, "%02d:%02d:%06.3f %s: %s%s\n", g_date_time_get_hour(now),
	        g_date_time_get_minute(now), g_date_time_get_seconds(now),
	        domain != NULL ? domain : "joind", tag, message != NULL ? message : "");
	fflush(self->plain);
}

GLogWriterOutput
joind_log_writer_write(GLogLevelFlags level, const GLogField *fields, gsize n_fields,
                       gpointer writer)
{
	JoindLogWriter *self = writer;
	const gchar *domain = field_value(fields, n_fields, "GLIB_DOMAIN");

	if ((level & G_LOG_LEVEL_DEBUG) != 0 && !writer_debug_enabled(self, domain))
		return G_LOG_WRITER_HANDLED;
	if (self->journal &&
	    g_log_writer_journald(level, fields, n_fields, NULL) == G_LOG_WRITER_HANDLED)
		return G_LOG_WRITER_HANDLED;
	writer_plain(self, level, domain, field_value(fields, n_fields, "MESSAGE"));
	return G_LOG_WRITER_HANDLED;
}
