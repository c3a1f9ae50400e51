/* test-joinctl-standin.c - the station, known-networks and wired commands
 * of joinctl as real clients of data/net.joind.xml, against a stand-in for
 * joind (joinctl-standin.c) until the daemon implements those interfaces:
 * JSON keys and values, the built-in agent fed by --passphrase and
 * --key-passphrase, and the exit codes for failures joind reports.
 */
#include <string.h>

#include "joinctl-run.h"
#include "joinctl-standin.h"
#include "test-daemon.h"

typedef struct {
	Standin *s;
	JoindDBusObjectSkeleton *station;
	JoindDBusObjectSkeleton *home;
	JoindDBusObjectSkeleton *cafe;
	JoindDBusObjectSkeleton *known;
	JoindDBusObjectSkeleton *port;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->s = standin_new();
	f->s->expected_secret = g_strdup("correct horse");
	f->station = standin_add_station(f->s, 7, "wlt0");
	f->home = standin_add_network(f->s, f->station, "Home", "psk", -5400);
	f->cafe = standin_add_network(f->s, f->station, "Cafe", "open", -7100);
	f->known = standin_add_known(f->s, "Home", "psk");
	f->port = standin_add_port(f->s, 9, "wle0");
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_clear_object(&f->station);
	g_clear_object(&f->home);
	g_clear_object(&f->cafe);
	g_clear_object(&f->known);
	g_clear_object(&f->port);
	standin_free(f->s);
}

static JsonObject *
element(JsonNode *root, guint index)
{
	g_assert_true(JSON_NODE_HOLDS_ARRAY(root));
	g_assert_cmpuint(json_array_get_length(json_node_get_array(root)), >, index);
	return json_array_get_object_element(json_node_get_array(root), index);
}

static void
test_station_list_and_networks(Fixture *f, gconstpointer data)
{
	g_auto(Run) list = {0};
	g_auto(Run) nets = {0};
	g_auto(Run) table = {0};
	g_autoptr(JsonNode) list_root = NULL;
	g_autoptr(JsonNode) nets_root = NULL;
	JsonObject *st, *home, *cafe;

	JOINCTL(&list, "--session", "--json", "station", "list");
	g_assert_cmpint(list.status, ==, 0);
	list_root = parse_json(list.out);
	st = element(list_root, 0);
	g_assert_cmpstr(json_object_get_string_member(st, "device"), ==, "wlt0");
	g_assert_cmpstr(json_object_get_string_member(st, "state"), ==, "disconnected");
	g_assert_true(json_object_get_null_member(st, "connected_network"));

	JOINCTL(&nets, "--session", "--json", "station", "wlt0", "get-networks");
	g_assert_cmpint(nets.status, ==, 0);
	nets_root = parse_json(nets.out);
	home = element(nets_root, 0); /* best first */
	cafe = element(nets_root, 1);
	g_assert_cmpstr(json_object_get_string_member(home, "name"), ==, "Home");
	g_assert_cmpstr(json_object_get_string_member(home, "type"), ==, "psk");
	g_assert_cmpstr(json_object_get_string_member(home, "security"), ==, "wpa2-wpa3");
	g_assert_cmpfloat(json_object_get_double_member(home, "signal_dbm"), ==, -54.0);
	g_assert_cmpint(json_object_get_int_member(home, "strength"), ==, -5400);
	g_assert_cmpstr(json_object_get_string_member(home, "device"), ==, "wlt0");
	g_assert_false(json_object_get_boolean_member(home, "connected"));
	g_assert_cmpstr(json_object_get_string_member(cafe, "name"), ==, "Cafe");
	g_assert_cmpstr(json_object_get_string_member(cafe, "type"), ==, "open");

	JOINCTL(&table, "--session", "station", "wlt0", "get-networks");
	g_assert_cmpint(table.status, ==, 0);
	g_assert_nonnull(strstr(table.out, "****")); /* -54 dBm */
	g_assert_nonnull(strstr(table.out, "wpa2-wpa3"));
	g_assert_true(strstr(table.out, "Home") < strstr(table.out, "Cafe"));
}

static void
test_connect_with_passphrase(Fixture *f, gconstpointer data)
{
	g_auto(Run) r = {0};
	g_auto(Run) show = {0};
	g_autoptr(JsonNode) root = NULL;
	g_autoptr(JsonNode) show_root = NULL;
	JsonObject *st;

	JOINCTL(&r, "--session", "--json", "station", "wlt0", "connect", "Home", "--passphrase",
	        "correct horse");
	g_assert_cmpint(r.status, ==, 0);
	g_assert_cmpuint(f->s->agent_requests, ==, 1);
	root = parse_json(r.out);
	st = json_node_get_object(root);
	g_assert_cmpstr(json_object_get_string_member(st, "state"), ==, "connected");
	g_assert_cmpstr(json_object_get_string_member(st, "connected_network"), ==, "Home");
	g_assert_null(strstr(r.out, "correct horse"));
	g_assert_null(strstr(r.err, "correct horse"));
	/* The agent was only there for the call. */
	g_assert_true(f->s->unregistered);

	JOINCTL(&show, "--session", "--json", "station", "wlt0", "show");
	g_assert_cmpint(show.status, ==, 0);
	show_root = parse_json(show.out);
	st = json_node_get_object(show_root);
	g_assert_cmpstr(json_object_get_string_member(
	                        json_object_get_object_member(st, "diagnostics"), "bssid"),
	                ==, "02:00:00:00:00:aa");
}

/* joind's errors become exit codes: AuthenticationFailed 7, NoAgent 8,
 * NotFound 4 (after one scan for the missing network). */
static void
test_connect_failures(Fixture *f, gconstpointer data)
{
	g_auto(Run) wrong = {0};
	g_auto(Run) no_agent = {0};
	g_auto(Run) missing = {0};
	g_auto(Run) hidden = {0};
	g_auto(Run) type = {0};

	JOINCTL(&wrong, "--session", "station", "wlt0", "connect", "Home", "--passphrase", "nope");
	g_assert_cmpint(wrong.status, ==, 7);
	g_assert_nonnull(strstr(wrong.err, "station wlt0 connect 'Home'"));
	g_assert_nonnull(strstr(wrong.err, "net.joind.Error.AuthenticationFailed"));
	/* No terminal, no --passphrase: joinctl registers no agent. */
	JOINCTL(&no_agent, "--session", "station", "wlt0", "connect", "Home");
	g_assert_cmpint(no_agent.status, ==, 8);
	g_assert_nonnull(strstr(no_agent.err, "no agent"));
	JOINCTL(&missing, "--session", "station", "wlt0", "connect", "Elsewhere");
	g_assert_cmpint(missing.status, ==, 4);
	g_assert_cmpuint(f->s->scans, ==, 1);
	g_assert_nonnull(strstr(missing.err, "Elsewhere"));
	JOINCTL(&hidden, "--session", "station", "wlt0", "connect-hidden", "Ghost");
	g_assert_cmpint(hidden.status, ==, 4);
	JOINCTL(&type, "--session", "--type", "sae", "station", "wlt0", "connect", "Home");
	g_assert_cmpint(type.status, ==, 4);
	g_assert_nonnull(strstr(type.err, "of type sae"));
}

static void
test_open_and_disconnect(Fixture *f, gconstpointer data)
{
	g_auto(Run) c = {0};
	g_auto(Run) d = {0};
	g_autoptr(JsonNode) root = NULL;

	JOINCTL(&c, "--session", "station", "wlt0", "connect", "Cafe");
	g_assert_cmpint(c.status, ==, 0);
	g_assert_cmpuint(f->s->agent_requests, ==, 0);
	g_assert_nonnull(strstr(c.out, "wlt0 connected to 'Cafe'."));
	JOINCTL(&d, "--session", "--json", "station", "wlt0", "disconnect");
	g_assert_cmpint(d.status, ==, 0);
	root = parse_json(d.out);
	g_assert_cmpstr(json_object_get_string_member(json_node_get_object(root), "state"), ==,
	                "disconnected");
}

static void
test_known_networks(Fixture *f, gconstpointer data)
{
	JoindDBusKnownNetwork1 *known =
	        joind_dbus_object_peek_known_network1(JOIND_DBUS_OBJECT(f->known));
	g_auto(Run) list = {0};
	g_auto(Run) set = {0};
	g_auto(Run) forget = {0};
	g_auto(Run) gone = {0};
	g_autoptr(JsonNode) root = NULL;
	JsonObject *k;

	JOINCTL(&list, "--session", "--json", "known-networks", "list");
	g_assert_cmpint(list.status, ==, 0);
	root = parse_json(list.out);
	k = element(root, 0);
	g_assert_cmpstr(json_object_get_string_member(k, "name"), ==, "Home");
	g_assert_cmpstr(json_object_get_string_member(k, "type"), ==, "psk");
	g_assert_true(json_object_get_boolean_member(k, "autoconnect"));
	g_assert_true(json_object_get_null_member(k, "last_connected_time"));
	g_assert_cmpstr(json_object_get_string_member(k, "source"), ==, "user");

	JOINCTL(&set, "--session", "known-networks", "set-autoconnect", "Home", "no");
	g_assert_cmpint(set.status, ==, 0);
	g_assert_false(joind_dbus_known_network1_get_auto_connect(known));
	JOINCTL(&forget, "--session", "known-networks", "forget", "Home");
	g_assert_cmpint(forget.status, ==, 0);
	JOINCTL(&gone, "--session", "known-networks", "show", "Home");
	g_assert_cmpint(gone.status, ==, 4);
}

/* wired reauth waits for the outcome and answers the key passphrase
 * request from --key-passphrase. */
static void
test_wired(Fixture *f, gconstpointer data)
{
	g_auto(Run) list = {0};
	g_auto(Run) ok = {0};
	g_auto(Run) bad = {0};
	g_auto(Run) logoff = {0};
	g_autoptr(JsonNode) root = NULL;
	g_autoptr(JsonNode) ok_root = NULL;
	JsonObject *p;

	JOINCTL(&list, "--session", "--json", "wired", "list");
	g_assert_cmpint(list.status, ==, 0);
	root = parse_json(list.out);
	p = element(root, 0);
	g_assert_cmpstr(json_object_get_string_member(p, "device"), ==, "wle0");
	g_assert_cmpstr(json_object_get_string_member(p, "eap_method"), ==, "TLS");
	g_assert_cmpstr(json_object_get_string_member(p, "identity"), ==, "host/pc1");
	g_assert_true(json_object_get_null_member(p, "last_error"));

	JOINCTL(&ok, "--session", "--json", "wired", "reauth", "wle0", "--key-passphrase",
	        "correct horse");
	g_assert_cmpint(ok.status, ==, 0);
	ok_root = parse_json(ok.out);
	g_assert_cmpstr(json_object_get_string_member(json_node_get_object(ok_root), "state"), ==,
	                "authenticated");
	JOINCTL(&bad, "--session", "wired", "reauth", "wle0", "--key-passphrase", "wrong");
	g_assert_cmpint(bad.status, ==, 7);
	g_assert_nonnull(strstr(bad.err, "private key passphrase is wrong"));
	JOINCTL(&logoff, "--session", "wired", "logoff", "wle0");
	g_assert_cmpint(logoff.status, ==, 0);
	g_assert_nonnull(strstr(logoff.out, "idle"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/joinctl-standin/station-networks", Fixture, NULL, fixture_setup,
	           test_station_list_and_networks, fixture_teardown);
	g_test_add("/joinctl-standin/connect-passphrase", Fixture, NULL, fixture_setup,
	           test_connect_with_passphrase, fixture_teardown);
	g_test_add("/joinctl-standin/connect-failures", Fixture, NULL, fixture_setup,
	           test_connect_failures, fixture_teardown);
	g_test_add("/joinctl-standin/open-disconnect", Fixture, NULL, fixture_setup,
	           test_open_and_disconnect, fixture_teardown);
	g_test_add("/joinctl-standin/known-networks", Fixture, NULL, fixture_setup,
	           test_known_networks, fixture_teardown);
	g_test_add("/joinctl-standin/wired", Fixture, NULL, fixture_setup, test_wired,
	           fixture_teardown);
	return g_test_run();
}
