/* test-pae.c - the supplicant PAE (plugins/ethernet-8021x/wired-pae.c)
 * against a scripted authenticator: what it sends, when, and which states
 * the port publishes. Runs the real EAP engine and the EAP-MD5 method; the
 * 802.1X timers are shortened to milliseconds. */
#include <glib/gstdio.h>
#include <string.h>

#include "eap-md5.h"
#include "joind-error.h"
#include "joind-profile-private.h"
#include "test-names.h"
#include "wired-operstate.h"
#include "wired-pae.h"

#define START_MS 40
#define HELD_MS  60
#define AUTH_MS  150

typedef struct {
	guint8 type;
	GBytes *body;
} Sent;

typedef struct {
	gchar *dir;
	JoindProfile *profile;
	WiredPae *pae;
	GPtrArray *sent;     /* Sent */
	GArray *port_states; /* JoindPortState, one per change of State */
	GPtrArray *log;      /* the plugin's info lines */
	guint8 next_id;
} Fixture;

static void
sent_free(Sent *s)
{
	g_bytes_unref(s->body);
	g_free(s);
}

static gboolean
fake_send(WiredPae *pae, guint8 type, const guint8 *body, gsize len, gpointer user_data,
          GError **error)
{
	Fixture *f = user_data;
	Sent *s = g_new0(Sent, 1);

	s->type = type;
	s->body = g_bytes_new(body, len);
	g_ptr_array_add(f->sent, s);
	return TRUE;
}

static void
fake_changed(WiredPae *pae, gpointer user_data)
{
	Fixture *f = user_data;
	JoindPortState st = wired_pae_get_port_state(pae);

	if (f->port_states->len == 0 ||
	    g_array_index(f->port_states, JoindPortState, f->port_states->len - 1) != st)
		g_array_append_val(f->port_states, st);
}

static const WiredPaeCallbacks fake_callbacks = {.send = fake_send, .changed = fake_changed};

static JoindProfile *
load_profile(Fixture *f, const gchar *security)
{
	g_autofree gchar *path = g_build_filename(f->dir, "port.8021x", NULL);
	g_autofree gchar *text =
	        g_strdup_printf("[Match]\nInterface=veth0\n[Security]\n%s", security);
	g_autoptr(GError) error = NULL;
	JoindProfile *p;

	g_assert_true(g_file_set_contents(path, text, -1, &error));
	p = joind_profile_load(path, JOIND_PROFILE_TYPE_WIRED, NULL, &error);
	g_assert_no_error(error);
	return p;
}

/* The PAE's transitions are structured log lines (joind-log.h), which
 * reach writers, not g_log_set_handler() handlers. */
static Fixture *capturing;

static GLogWriterOutput
capture_log(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
	const gchar *domain = NULL;
	const gchar *message = NULL;

	for (gsize i = 0; i < n_fields; i++) {
		if (g_str_equal(fields[i].key, "GLIB_DOMAIN"))
			domain = fields[i].value;
		else if (g_str_equal(fields[i].key, "MESSAGE"))
			message = fields[i].value;
	}
	if (capturing != NULL && (level & G_LOG_LEVEL_INFO) != 0 &&
	    g_strcmp0(domain, "joind-wired") == 0 && message != NULL)
		g_ptr_array_add(capturing->log, g_strdup(message));
	return g_log_writer_default(level, fields, n_fields, user_data);
}

/* A move to failed says why in its own log line: the sentence D-Bus shows
 * as LastError, not only a summary. */
static void
assert_failed_logged_with_reason(Fixture *f)
{
	const gchar *reason = wired_pae_get_last_error(f->pae);

	g_assert_nonnull(reason);
	for (guint i = 0; i < f->log->len; i++) {
		const gchar *line = g_ptr_array_index(f->log, i);

		if (strstr(line, "-> failed (") != NULL && strstr(line, reason) != NULL)
			return;
	}
	for (guint i = 0; i < f->log->len; i++)
		g_printerr("log: %s\n", (const gchar *)g_ptr_array_index(f->log, i));
	g_error("no \"-> failed\" log line carries \"%s\"", reason);
}

static void
setup(Fixture *f, gconstpointer security)
{
	const WiredPaeTimers timers = {START_MS, 3, HELD_MS, AUTH_MS};

	f->dir = g_dir_make_tmp("test-pae-XXXXXX", NULL);
	f->profile = load_profile(f, security != NULL ? security
	                                              : "EAP-Method=MD5\nEAP-Identity=md5user\n"
	                                                "EAP-Password=md5pass\n");
	f->sent = g_ptr_array_new_with_free_func((GDestroyNotify)sent_free);
	f->port_states = g_array_new(FALSE, FALSE, sizeof(JoindPortState));
	f->pae = wired_pae_new(NULL, "veth0", &timers, &fake_callbacks, f);
	f->next_id = 100;
	f->log = g_ptr_array_new_with_free_func(g_free);
	capturing = f;
}

static void
teardown(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "port.8021x", NULL);

	wired_pae_free(f->pae);
	capturing = NULL;
	g_ptr_array_unref(f->log);
	g_object_unref(f->profile);
	g_ptr_array_unref(f->sent);
	g_array_unref(f->port_states);
	g_unlink(path);
	g_rmdir(f->dir);
	g_free(f->dir);
}

/* ---- the scripted authenticator ------------------------------------------- */

static void
run_for(guint ms)
{
	gint64 end = g_get_monotonic_time() + ms * 1000;

	while (g_get_monotonic_time() < end) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(1000);
	}
}

/* Runs the loop until the PAE is in this state; returns the milliseconds it
 * took. Timers never fire early, so callers assert lower bounds only: a
 * loaded machine makes them late, never early. */
static gdouble
wait_for_state(Fixture *f, WiredPaeState state)
{
	gint64 t0 = g_get_monotonic_time();

	while (wired_pae_get_state(f->pae) != state) {
		g_assert_cmpint(g_get_monotonic_time() - t0, <, 5 * G_USEC_PER_SEC);
		g_main_context_iteration(NULL, TRUE);
	}
	return (g_get_monotonic_time() - t0) / 1000.0;
}

/* Runs the loop until everything due now has run (idles included). */
static void
settle(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static void
rx_eap(Fixture *f, guint8 code, guint8 id, gint type, const guint8 *data, gsize len)
{
	g_autoptr(GByteArray) eap = g_byte_array_new();
	guint8 hdr[5] = {code, id, 0, 0, (guint8)type};
	gsize eap_len = 4 + (type >= 0 ? 1 + len : 0);
	WiredEapolPdu pdu = {.version = 2, .type = WIRED_EAPOL_EAP};

	hdr[2] = eap_len >> 8;
	hdr[3] = eap_len & 0xff;
	g_byte_array_append(eap, hdr, type >= 0 ? 5 : 4);
	if (len > 0)
		g_byte_array_append(eap, data, len);
	pdu.body = eap->data;
	pdu.body_len = eap->len;
	wired_pae_rx(f->pae, &pdu);
}

static void
rx_request_identity(Fixture *f)
{
	rx_eap(f, JOIND_EAP_CODE_REQUEST, ++f->next_id, JOIND_EAP_TYPE_IDENTITY, NULL, 0);
}

static const guint8 challenge[16] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

static void
rx_md5_challenge(Fixture *f)
{
	guint8 data[17] = {16};

	memcpy(data + 1, challenge, 16);
	rx_eap(f, JOIND_EAP_CODE_REQUEST, ++f->next_id, JOIND_EAP_TYPE_MD5, data, sizeof(data));
}

static void
rx_result(Fixture *f, guint8 code)
{
	rx_eap(f, code, f->next_id, -1, NULL, 0);
}

static const Sent *
sent_last(Fixture *f)
{
	g_assert_cmpuint(f->sent->len, >, 0);
	return g_ptr_array_index(f->sent, f->sent->len - 1);
}

static guint
sent_count(Fixture *f, guint8 type)
{
	guint n = 0;

	for (guint i = 0; i < f->sent->len; i++)
		n += ((Sent *)g_ptr_array_index(f->sent, i))->type == type;
	return n;
}

static void
assert_states(Fixture *f, const JoindPortState *want, guint n)
{
	g_assert_cmpuint(f->port_states->len, ==, n);
	for (guint i = 0; i < n; i++)
		g_assert_cmpstr(joind_port_state_to_string(
		                        g_array_index(f->port_states, JoindPortState, i)),
		                ==, joind_port_state_to_string(want[i]));
}

/* Link up + profile -> EAPOL-Start, then a whole EAP-MD5 exchange. */
static void
authenticate(Fixture *f)
{
	const Sent *s;
	gsize len;
	const guint8 *p;
	guint8 expect[16];

	wired_pae_set_profile(f->pae, f->profile, "/net/joind/device/2");
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_START);
	rx_request_identity(f);
	s = sent_last(f);
	p = g_bytes_get_data(s->body, &len);
	g_assert_cmpint(s->type, ==, WIRED_EAPOL_EAP);
	g_assert_cmpmem(p + 5, len - 5, "md5user", 7);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATING);

	rx_md5_challenge(f);
	p = g_bytes_get_data(sent_last(f)->body, &len);
	g_assert_true(eap_md5_compute(f->next_id, "md5pass", challenge, 16, expect, NULL));
	g_assert_cmpuint(len, ==, 4 + 1 + 1 + 16);
	g_assert_cmpuint(p[4], ==, JOIND_EAP_TYPE_MD5);
	g_assert_cmpmem(p + 6, 16, expect, 16);

	rx_result(f, JOIND_EAP_CODE_SUCCESS);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATED);
	g_assert_cmpstr(wired_pae_get_method(f->pae), ==, "MD5");
	g_assert_cmpstr(wired_pae_get_identity(f->pae), ==, "md5user");
	g_assert_null(wired_pae_get_last_error(f->pae));
}

/* ---- tests ----------------------------------------------------------------- */

static void
test_no_profile_sends_nothing(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	wired_pae_set_port_enabled(f->pae, TRUE);
	rx_request_identity(f);
	run_for(START_MS * 2);
	wired_pae_shutdown(f->pae);
	g_assert_cmpuint(f->sent->len, ==, 0);
	g_assert_cmpint(wired_pae_get_port_state(f->pae), ==, JOIND_PORT_STATE_IDLE);
	g_assert_false(wired_pae_reauthenticate(f->pae, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_false(wired_pae_logoff(f->pae, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
}

/* No carrier: nothing yet; carrier: EAPOL-Start at once, no waiting. */
static void
test_start_on_carrier(Fixture *f, gconstpointer data)
{
	wired_pae_set_profile(f->pae, f->profile, NULL);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_DISCONNECTED);
	g_assert_cmpuint(f->sent->len, ==, 0);
	wired_pae_set_port_enabled(f->pae, TRUE);
	g_assert_cmpuint(f->sent->len, ==, 1);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_START);
	g_assert_cmpuint(g_bytes_get_size(sent_last(f)->body), ==, 0);
	g_assert_cmpint(wired_pae_get_port_state(f->pae), ==, JOIND_PORT_STATE_CONNECTING);
}

/* maxStart EAPOL-Starts startPeriod apart, then held, then again. */
static void
test_start_retries_and_held(Fixture *f, gconstpointer data)
{
	const JoindPortState want[] = {JOIND_PORT_STATE_IDLE, JOIND_PORT_STATE_CONNECTING,
	                               JOIND_PORT_STATE_HELD, JOIND_PORT_STATE_CONNECTING};

	wired_pae_set_profile(f->pae, f->profile, NULL);
	wired_pae_set_port_enabled(f->pae, TRUE);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 1);
	/* Starts at 0, startPeriod and 2 startPeriod; held at 3 startPeriod. */
	g_assert_cmpfloat(wait_for_state(f, WIRED_PAE_HELD), >=, 3 * START_MS - 1);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 3);
	g_assert_nonnull(strstr(wired_pae_get_last_error(f->pae), "answered 3 EAPOL-Start"));
	g_assert_cmpfloat(wait_for_state(f, WIRED_PAE_CONNECTING), >=, HELD_MS - 1);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 4);
	assert_states(f, want, G_N_ELEMENTS(want));
}

/* Runs the loop until COUNT frames of this type were sent; returns the
 * milliseconds it took. */
static gdouble
wait_for_sent(Fixture *f, guint8 type, guint count)
{
	gint64 t0 = g_get_monotonic_time();

	while (sent_count(f, type) < count) {
		g_assert_cmpint(g_get_monotonic_time() - t0, <, 5 * G_USEC_PER_SEC);
		g_main_context_iteration(NULL, TRUE);
	}
	return (g_get_monotonic_time() - t0) / 1000.0;
}

/* With the default startPeriod (30 s), the first EAPOL-Start is repeated
 * after 100 ms and 1 s (an answer lost while the link settles), without
 * counting against maxStart; an answer stops the repeats. */
static void
test_quick_restarts(Fixture *f, gconstpointer data)
{
	const WiredPaeTimers timers = {30000, 1, 60000, 30000};

	wired_pae_free(f->pae);
	f->pae = wired_pae_new(NULL, "veth0", &timers, &fake_callbacks, f);
	wired_pae_set_port_enabled(f->pae, TRUE);
	wired_pae_set_profile(f->pae, f->profile, NULL);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 1);
	g_assert_cmpfloat(wait_for_sent(f, WIRED_EAPOL_START, 2), >=, 99);
	g_assert_cmpfloat(wait_for_sent(f, WIRED_EAPOL_START, 3), >=, 899);
	/* maxStart is 1 here: the repeats did not count. */
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_CONNECTING);
	rx_request_identity(f);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATING);
	run_for(150);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 3);
}

static void
test_md5_success(Fixture *f, gconstpointer data)
{
	guint n;

	wired_pae_set_port_enabled(f->pae, TRUE);
	authenticate(f);
	/* Authenticated: no timer runs, nothing more is sent. */
	n = f->sent->len;
	run_for(START_MS * 4 + AUTH_MS);
	g_assert_cmpuint(f->sent->len, ==, n);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATED);
}

/* EAP-Failure: failed (published), then held, then EAPOL-Start again. */
static void
test_failure_held_retry(Fixture *f, gconstpointer data)
{
	const JoindPortState want[] = {JOIND_PORT_STATE_CONNECTING, JOIND_PORT_STATE_AUTHENTICATING,
	                               JOIND_PORT_STATE_FAILED, JOIND_PORT_STATE_HELD,
	                               JOIND_PORT_STATE_CONNECTING};

	wired_pae_set_port_enabled(f->pae, TRUE);
	wired_pae_set_profile(f->pae, f->profile, NULL);
	rx_request_identity(f);
	rx_md5_challenge(f);
	rx_result(f, JOIND_EAP_CODE_FAILURE);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_FAILED);
	assert_failed_logged_with_reason(f);
	settle();
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_HELD);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 1);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_LOGOFF), ==, 0);
	g_assert_cmpfloat(wait_for_state(f, WIRED_PAE_CONNECTING), >=, HELD_MS - 1);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 2);
	assert_states(f, want, G_N_ELEMENTS(want));
}

/* A new Request/Identity once authenticated re-authenticates. */
static void
test_authenticator_reauth(Fixture *f, gconstpointer data)
{
	wired_pae_set_port_enabled(f->pae, TRUE);
	authenticate(f);
	rx_request_identity(f);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATING);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_EAP);
	rx_md5_challenge(f);
	rx_result(f, JOIND_EAP_CODE_SUCCESS);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATED);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 1);
}

/* authWhile: an authenticator that stops answering mid-conversation. */
static void
test_auth_timeout(Fixture *f, gconstpointer data)
{
	gint64 t0;

	wired_pae_set_port_enabled(f->pae, TRUE);
	wired_pae_set_profile(f->pae, f->profile, NULL);
	rx_request_identity(f);
	t0 = g_get_monotonic_time();
	run_for(AUTH_MS / 2);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATING);
	wait_for_state(f, WIRED_PAE_CONNECTING);
	/* A timer never fires early; measured from the request, a loaded
	 * machine's late wake-ups cannot make this fail. */
	g_assert_cmpfloat((g_get_monotonic_time() - t0) / 1000.0, >=, AUTH_MS - 1);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 2);
}

static void
test_logoff_and_reauthenticate(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	guint n;

	wired_pae_set_port_enabled(f->pae, TRUE);
	authenticate(f);
	g_assert_true(wired_pae_logoff(f->pae, &error));
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_LOGOFF);
	g_assert_cmpint(wired_pae_get_port_state(f->pae), ==, JOIND_PORT_STATE_IDLE);
	/* Logged off: the authenticator's Request is not answered, and
	 * neither timers nor carrier changes bring the port back. */
	n = f->sent->len;
	rx_request_identity(f);
	wired_pae_set_port_enabled(f->pae, FALSE);
	wired_pae_set_port_enabled(f->pae, TRUE);
	run_for(START_MS * 2);
	g_assert_cmpuint(f->sent->len, ==, n);
	g_assert_true(wired_pae_reauthenticate(f->pae, &error));
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_START);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_CONNECTING);
}

static void
test_carrier_loss_and_return(Fixture *f, gconstpointer data)
{
	wired_pae_set_port_enabled(f->pae, TRUE);
	authenticate(f);
	wired_pae_set_port_enabled(f->pae, FALSE);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_DISCONNECTED);
	/* Nothing can be sent without carrier; no Logoff is attempted. */
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_EAP);
	wired_pae_set_port_enabled(f->pae, TRUE);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_START);
	rx_request_identity(f);
	rx_md5_challenge(f);
	rx_result(f, JOIND_EAP_CODE_SUCCESS);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATED);
}

/* The profile goes away: EAPOL-Logoff, then the port is left alone. */
static void
test_profile_removed(Fixture *f, gconstpointer data)
{
	guint n;

	wired_pae_set_port_enabled(f->pae, TRUE);
	authenticate(f);
	wired_pae_set_profile(f->pae, NULL, NULL);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_LOGOFF);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_DISABLED);
	g_assert_null(wired_pae_get_method(f->pae));
	n = f->sent->len;
	rx_request_identity(f);
	wired_pae_shutdown(f->pae);
	run_for(START_MS * 2);
	g_assert_cmpuint(f->sent->len, ==, n);
}

/* The same profile set again (edited) starts over with EAPOL-Start. */
static void
test_profile_edited(Fixture *f, gconstpointer data)
{
	wired_pae_set_port_enabled(f->pae, TRUE);
	authenticate(f);
	wired_pae_set_profile(f->pae, f->profile, NULL);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_START);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_START), ==, 2);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_CONNECTING);
}

/* Shutdown: EAPOL-Logoff only where a conversation was going on. */
static void
test_shutdown(Fixture *f, gconstpointer data)
{
	wired_pae_set_profile(f->pae, f->profile, NULL);
	wired_pae_shutdown(f->pae);
	g_assert_cmpuint(f->sent->len, ==, 0);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_LOGOFF);

	g_assert_true(wired_pae_reauthenticate(f->pae, NULL));
	wired_pae_set_port_enabled(f->pae, TRUE);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_START);
	wired_pae_shutdown(f->pae);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_LOGOFF);
	g_assert_cmpuint(sent_count(f, WIRED_EAPOL_LOGOFF), ==, 1);
}

/* A secret is missing and nobody can be asked: failed for good (no held
 * period, no retries), the authenticator told with EAPOL-Logoff. */
static void
test_no_agent(Fixture *f, gconstpointer data)
{
	guint n;

	wired_pae_set_port_enabled(f->pae, TRUE);
	wired_pae_set_profile(f->pae, f->profile, NULL);
	rx_request_identity(f);
	rx_md5_challenge(f);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_FAILED);
	g_assert_nonnull(strstr(wired_pae_get_last_error(f->pae), "agent"));
	assert_failed_logged_with_reason(f);
	g_assert_cmpint(sent_last(f)->type, ==, WIRED_EAPOL_LOGOFF);
	n = f->sent->len;
	rx_request_identity(f);
	run_for(HELD_MS + START_MS * 3);
	g_assert_cmpuint(f->sent->len, ==, n);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_FAILED);
}

/* A method whose settings pass when the profile is read but fail when a
 * session starts, as EAP-TLS's do when the CA file named is missing. */
static gboolean
unusable_check_settings(JoindEapSession *session, GError **error)
{
	g_autofree gchar *where = joind_eap_session_describe_setting(session, "Method");

	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s: not usable", where);
	return FALSE;
}

static gpointer
unusable_state_new(JoindEapSession *session, GError **error)
{
	g_assert_not_reached();
}

static JoindEapMethodResult
unusable_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
                GByteArray *response, GError **error)
{
	g_assert_not_reached();
}

static const JoindEapMethodOps unusable_ops = {
        .type = 250,
        .name = "UNUSABLE",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .check_settings = unusable_check_settings,
        .state_new = unusable_state_new,
        .state_free = g_free,
        .handle_request = unusable_handle,
};

/* A profile the engine refuses: failed at once, nothing sent. */
static void
test_bad_profile(Fixture *f, gconstpointer data)
{
	wired_pae_set_port_enabled(f->pae, TRUE);
	wired_pae_set_profile(f->pae, f->profile, NULL);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_FAILED);
	g_assert_nonnull(strstr(wired_pae_get_last_error(f->pae), "port.8021x"));
	assert_failed_logged_with_reason(f);
	g_assert_cmpuint(f->sent->len, ==, 0);
}

/* Authorised (the link's operstate up) from EAP-Success until a failure,
 * a logoff or carrier loss; an authenticator's re-authentication keeps it. */
static void
test_authorised(Fixture *f, gconstpointer data)
{
	g_assert_false(wired_pae_is_authorised(f->pae));
	wired_pae_set_port_enabled(f->pae, TRUE);
	authenticate(f);
	g_assert_true(wired_pae_is_authorised(f->pae));
	rx_request_identity(f);
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_AUTHENTICATING);
	g_assert_true(wired_pae_is_authorised(f->pae));
	rx_md5_challenge(f);
	rx_result(f, JOIND_EAP_CODE_FAILURE);
	g_assert_false(wired_pae_is_authorised(f->pae));
	g_assert_true(wired_pae_reauthenticate(f->pae, NULL));
	rx_request_identity(f);
	rx_md5_challenge(f);
	rx_result(f, JOIND_EAP_CODE_SUCCESS);
	g_assert_true(wired_pae_is_authorised(f->pae));
	g_assert_true(wired_pae_logoff(f->pae, NULL));
	g_assert_false(wired_pae_is_authorised(f->pae));
	g_assert_true(wired_pae_reauthenticate(f->pae, NULL));
	g_assert_false(wired_pae_is_authorised(f->pae));
	rx_request_identity(f);
	rx_md5_challenge(f);
	rx_result(f, JOIND_EAP_CODE_SUCCESS);
	wired_pae_set_port_enabled(f->pae, FALSE);
	g_assert_false(wired_pae_is_authorised(f->pae));
}

/* The port cannot speak EAPOL at all (no socket): failed, and why. */
static void
test_port_unusable(Fixture *f, gconstpointer data)
{
	wired_pae_set_port_enabled(f->pae, TRUE);
	wired_pae_fail_profile(f->pae, f->profile, NULL, "Cannot open an EAPOL socket on veth0");
	g_assert_cmpint(wired_pae_get_state(f->pae), ==, WIRED_PAE_FAILED);
	assert_failed_logged_with_reason(f);
	g_assert_cmpuint(f->sent->len, ==, 0);
}

/* Every state and operstate has a name in the log. */
static void
test_state_names(void)
{
	TEST_ASSERT_NAMES(wired_pae_state_to_string, WIRED_PAE_LAST, "?");
	TEST_ASSERT_NAMES(wired_operstate_to_string, WIRED_OPERSTATE_LAST, "?");
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;

	g_test_init(&argc, &argv, NULL);
	g_log_set_writer_func(capture_log, NULL, NULL);
	if (!joind_eap_register_method(&eap_md5_ops, &error) ||
	    !joind_eap_register_method(&unusable_ops, &error))
		g_error("%s", error->message);
#define ADD(path, profile, fn) g_test_add("/wired/pae/" path, Fixture, profile, setup, fn, teardown)
	ADD("no-profile-sends-nothing", NULL, test_no_profile_sends_nothing);
	ADD("start-on-carrier", NULL, test_start_on_carrier);
	ADD("start-retries-and-held", NULL, test_start_retries_and_held);
	ADD("quick-restarts", NULL, test_quick_restarts);
	ADD("md5-success", NULL, test_md5_success);
	ADD("failure-held-retry", NULL, test_failure_held_retry);
	ADD("authenticator-reauth", NULL, test_authenticator_reauth);
	ADD("auth-timeout", NULL, test_auth_timeout);
	ADD("logoff-and-reauthenticate", NULL, test_logoff_and_reauthenticate);
	ADD("carrier-loss-and-return", NULL, test_carrier_loss_and_return);
	ADD("profile-removed", NULL, test_profile_removed);
	ADD("profile-edited", NULL, test_profile_edited);
	ADD("shutdown", NULL, test_shutdown);
	ADD("no-agent", "EAP-Method=MD5\nEAP-Identity=md5user\n", test_no_agent);
	ADD("bad-profile", "EAP-Method=UNUSABLE\nEAP-Identity=x\n", test_bad_profile);
	ADD("port-unusable", NULL, test_port_unusable);
	ADD("authorised", NULL, test_authorised);
	g_test_add_func("/wired/pae/state-names", test_state_names);
	return g_test_run();
}
