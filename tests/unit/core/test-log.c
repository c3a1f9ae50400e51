/* test-log.c - joind's structured log lines and the choice of writer. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "joind-log-private.h"
#include "joind-log-writer.h"

/* g_log_set_writer_func() may be called once per process: this writer
 * keeps every line's fields for the tests to look at. */
static GPtrArray *captured; /* GHashTable: field name -> value */

static GLogWriterOutput
capture_writer(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
	GHashTable *line = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);

	for (gsize i = 0; i < n_fields; i++) {
		if (fields[i].length < 0)
			g_hash_table_insert(line, g_strdup(fields[i].key),
			                    g_strdup(fields[i].value));
	}
	g_ptr_array_add(captured, line);
	return G_LOG_WRITER_HANDLED;
}

static GHashTable *
last_line(void)
{
	g_assert_cmpuint(captured->len, >, 0);
	return g_ptr_array_index(captured, captured->len - 1);
}

static void
test_state_change_fields(void)
{
	GHashTable *line;

	g_ptr_array_set_size(captured, 0);
	joind_log_state_change("joind-wifi", G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", "wlan0", "eduroam", "connection"}, "idle",
	                       "authenticating", "Connect()");
	g_assert_cmpuint(captured->len, ==, 1);
	line = last_line();
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE"), ==,
	                "wlan0: connection idle -> authenticating (Connect())");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_DEVICE"), ==, "wlan0");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_NETWORK"), ==, "eduroam");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_STATE"), ==, "authenticating");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_PLUGIN"), ==, "wifi");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_MACHINE"), ==, "connection");
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE_ID"), ==, JOIND_LOG_ID_STATE_CHANGE);
	g_assert_cmpstr(g_hash_table_lookup(line, "GLIB_DOMAIN"), ==, "joind-wifi");
	g_assert_cmpstr(g_hash_table_lookup(line, "PRIORITY"), ==, "6");
}

/* A field with nothing to say is left out rather than sent empty. */
static void
test_absent_fields(void)
{
	GHashTable *line;

	g_ptr_array_set_size(captured, 0);
	joind_log_state_change("joind", G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){NULL, "eth0", NULL, NULL}, "down", "up", NULL);
	line = last_line();
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE"), ==, "eth0: down -> up");
	g_assert_false(g_hash_table_contains(line, "JOIND_NETWORK"));
	g_assert_false(g_hash_table_contains(line, "JOIND_PLUGIN"));
	g_assert_false(g_hash_table_contains(line, "JOIND_MACHINE"));
	g_assert_cmpstr(g_hash_table_lookup(line, "PRIORITY"), ==, "7");
}

static void
test_message_ids(void)
{
	static const struct {
		JoindLogKind kind;
		const gchar *id;
	} kinds[] = {
	        {JOIND_LOG_STATE_CHANGE, JOIND_LOG_ID_STATE_CHANGE},
	        {JOIND_LOG_FAILURE, JOIND_LOG_ID_FAILURE},
	        {JOIND_LOG_AUTHORIZATION, JOIND_LOG_ID_AUTHORIZATION},
	};

	for (guint i = 0; i < G_N_ELEMENTS(kinds); i++) {
		const gchar *id;

		joind_log_state_change("joind-wired", G_LOG_LEVEL_INFO, kinds[i].kind,
		                       &(JoindLogSubject){"ethernet-8021x", "eth0", "corp", NULL},
		                       "authenticating", "authenticated", "EAP success");
		id = g_hash_table_lookup(last_line(), "MESSAGE_ID");
		/* The journal's form: 128 bits in lower-case hex, no dashes. */
		g_assert_cmpuint(strlen(id), ==, 32);
		g_assert_true(strspn(id, "0123456789abcdef") == 32);
		g_assert_cmpstr(id, ==, kinds[i].id);
		for (guint j = 0; j < i; j++)
			g_assert_cmpstr(id, !=, kinds[j].id);
	}
}

/* Any line about one interface carries its name as a field, so that
 * `journalctl JOIND_DEVICE=wlan0` finds it beside the state changes; the
 * macros log in the including file's domain. */
static void
test_device_lines(void)
{
	GHashTable *line;

	g_ptr_array_set_size(captured, 0);
	joind_log_device("joind-wifi", G_LOG_LEVEL_MESSAGE, "wlan0", "scan %u: %s", 7u, "busy");
	line = last_line();
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE"), ==, "wlan0: scan 7: busy");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_DEVICE"), ==, "wlan0");
	g_assert_cmpstr(g_hash_table_lookup(line, "GLIB_DOMAIN"), ==, "joind-wifi");
	g_assert_cmpstr(g_hash_table_lookup(line, "PRIORITY"), ==, "5");
	g_assert_false(g_hash_table_contains(line, "MESSAGE_ID"));

	joind_dev_debug(NULL, "no interface yet");
	line = last_line();
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE"), ==, "no interface yet");
	g_assert_false(g_hash_table_contains(line, "JOIND_DEVICE"));
	g_assert_cmpstr(g_hash_table_lookup(line, "GLIB_DOMAIN"), ==, G_LOG_DOMAIN);
	g_assert_cmpstr(g_hash_table_lookup(line, "PRIORITY"), ==, "7");
	g_assert_cmpuint(captured->len, ==, 2);
}

/* The gate's decisions: who asked for what, and the answer, each a field
 * journalctl can match (MESSAGE_ID of an authorisation). */
static void
test_authorization_fields(void)
{
	GHashTable *line;

	g_ptr_array_set_size(captured, 0);
	joind_log_authorization(G_LOG_LEVEL_INFO,
	                        &(JoindLogAuthorization){"net.joind.ProfileManager1.CreateProfile",
	                                                 "net.joind.profile.manage", ":1.42", 1000,
	                                                 FALSE, "polkit"});
	g_assert_cmpuint(captured->len, ==, 1);
	line = last_line();
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE"), ==,
	                "net.joind.ProfileManager1.CreateProfile by :1.42 (uid 1000): "
	                "net.joind.profile.manage denied (polkit)");
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE_ID"), ==, JOIND_LOG_ID_AUTHORIZATION);
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_ACTION"), ==, "net.joind.profile.manage");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_CALLER"), ==, ":1.42");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_CALLER_UID"), ==, "1000");
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_RESULT"), ==, "denied");
	g_assert_cmpstr(g_hash_table_lookup(line, "GLIB_DOMAIN"), ==, "joind");
	g_assert_cmpstr(g_hash_table_lookup(line, "PRIORITY"), ==, "6");

	/* polkit decided alone: no uid was looked up; a call no action covers. */
	joind_log_authorization(G_LOG_LEVEL_DEBUG,
	                        &(JoindLogAuthorization){"net.joind.Station1.Scan",
	                                                 "net.joind.network.connect", ":1.7", -1,
	                                                 TRUE, "polkit"});
	line = last_line();
	g_assert_cmpstr(
	        g_hash_table_lookup(line, "MESSAGE"), ==,
	        "net.joind.Station1.Scan by :1.7: net.joind.network.connect allowed (polkit)");
	g_assert_false(g_hash_table_contains(line, "JOIND_CALLER_UID"));
	g_assert_cmpstr(g_hash_table_lookup(line, "JOIND_RESULT"), ==, "allowed");
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE_ID"), ==, JOIND_LOG_ID_AUTHORIZATION);
	joind_log_authorization(G_LOG_LEVEL_INFO,
	                        &(JoindLogAuthorization){"net.joind.Station1.Bogus", NULL, ":1.7",
	                                                 -1, FALSE, "no polkit action covers it"});
	line = last_line();
	g_assert_false(g_hash_table_contains(line, "JOIND_ACTION"));
	g_assert_cmpstr(g_hash_table_lookup(line, "MESSAGE"), ==,
	                "net.joind.Station1.Bogus by :1.7: denied (no polkit action covers it)");
}

/* systemd names the journal's stream in JOURNAL_STREAM as "device:inode";
 * a writer whose fd is that stream sends fields to the journal. */
static void
test_journal_chosen(void)
{
	int fds[2];
	struct stat st;
	g_autofree gchar *stream = NULL;
	g_autoptr(JoindLogWriter) journal = NULL;
	g_autoptr(JoindLogWriter) other = NULL;
	g_autoptr(JoindLogWriter) unset = NULL;

	g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
	g_assert_cmpint(fstat(fds[0], &st), ==, 0);
	stream = g_strdup_printf("%lu:%lu", (gulong)st.st_dev, (gulong)st.st_ino);
	g_setenv("JOURNAL_STREAM", stream, TRUE);
	journal = joind_log_writer_new(NULL, fds[0], stderr);
	other = joind_log_writer_new(NULL, fds[1], stderr);
	g_unsetenv("JOURNAL_STREAM");
	unset = joind_log_writer_new(NULL, fds[0], stderr);
	g_assert_true(joind_log_writer_uses_journal(journal));
	g_assert_false(joind_log_writer_uses_journal(other));
	g_assert_false(joind_log_writer_uses_journal(unset));
	close(fds[0]);
	close(fds[1]);
}

/* What a writer outside the journal prints for one line (a file of its
 * own each time: stdio keeps what it read). */
static gchar *
write_plain(const gchar *const *debug, GLogLevelFlags level, const gchar *domain,
            const gchar *message)
{
	const GLogField fields[] = {
	        {"MESSAGE", message, -1},
	        {"GLIB_DOMAIN", domain, -1},
	        {"JOIND_DEVICE", "wlan0", -1},
	};
	FILE *out = tmpfile();
	g_autoptr(JoindLogWriter) writer = NULL;
	gchar buf[256] = "";

	g_assert_nonnull(out);
	g_unsetenv("JOURNAL_STREAM");
	writer = joind_log_writer_new(debug, fileno(out), out);
	g_assert_false(joind_log_writer_uses_journal(writer));
	g_assert_cmpint(joind_log_writer_write(level, fields, G_N_ELEMENTS(fields), writer), ==,
	                G_LOG_WRITER_HANDLED);
	rewind(out);
	if (fgets(buf, sizeof(buf), out) == NULL)
		buf[0] = '\0';
	fclose(out);
	return g_strdup(buf);
}

/* Outside the journal: "HH:MM:SS.mmm DOMAIN: [LEVEL: ]MESSAGE", debug only
 * for the domains asked for. */
static void
test_plain_lines(void)
{
	const gchar *const debug[] = {"joind-wif*", NULL};
	g_autofree gchar *info = write_plain(debug, G_LOG_LEVEL_INFO, "joind", "wlan0: up");
	g_autofree gchar *warning = write_plain(debug, G_LOG_LEVEL_WARNING, "joind-wired", "bad");
	g_autofree gchar *wanted = write_plain(debug, G_LOG_LEVEL_DEBUG, "joind-wifi", "scan");
	g_autofree gchar *unwanted = write_plain(debug, G_LOG_LEVEL_DEBUG, "joind-wired", "pae");
	g_autofree gchar *none = write_plain(NULL, G_LOG_LEVEL_DEBUG, "joind-wifi", "scan");

	g_assert_true(g_regex_match_simple("^\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d joind: wlan0: up\n$",
	                                   info, 0, 0));
	g_assert_true(g_str_has_suffix(warning, " joind-wired: WARNING: bad\n"));
	g_assert_true(g_str_has_suffix(wanted, " joind-wifi: scan\n"));
	g_assert_cmpstr(unwanted, ==, "");
	g_assert_cmpstr(none, ==, "");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	captured = g_ptr_array_new_with_free_func((GDestroyNotify)g_hash_table_unref);
	g_log_set_writer_func(capture_writer, NULL, NULL);
	g_test_add_func("/log/state-change-fields", test_state_change_fields);
	g_test_add_func("/log/absent-fields", test_absent_fields);
	g_test_add_func("/log/message-ids", test_message_ids);
	g_test_add_func("/log/device-lines", test_device_lines);
	g_test_add_func("/log/authorization-fields", test_authorization_fields);
	g_test_add_func("/log/journal-chosen", test_journal_chosen);
	g_test_add_func("/log/plain-lines", test_plain_lines);
	return g_test_run();
}
