/* test-ap-object.c - the access point as the API sees it
 * (WifiAccessPoint, a JoindAccessPoint) over the fixture's fake nl80211:
 * StartProfile reads iwd's ap/<SSID>.ap and completes once the BSS
 * beacons, with Started, Name, Frequency and Security set; a second start
 * is refused; a client joining and the stop show in Stations and the
 * station signals; profiles with keys joind does not implement, or
 * without a secret, are refused with a sentence naming the problem;
 * main.conf's [AccessPoint] limits reach the BSS (a client beyond
 * MaxStations is refused with status 17). */
#include <glib/gstdio.h>

#include "ap-fixture.h"
#include "ap-object.h"
#include "ap-private.h"
#include "mgmt.h"
#include "ap-profile.h"
#include "joind-error.h"
#include "settings.h"
#include "test-core.h"

typedef struct {
	gboolean done;
	gboolean ok;
	GError *error;
} Result;

static void
finished(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Result *r = user_data;

	r->done = TRUE;
	r->ok = joind_access_point_finish(JOIND_ACCESS_POINT(source), result, &r->error);
}

/* A GTask completes from the main loop. */
static void
wait_for(Result *r)
{
	while (!r->done)
		g_main_context_iteration(NULL, TRUE);
}

static void
on_joined(JoindAccessPoint *ap, const gchar *address, gpointer user_data)
{
	g_string_append_printf(user_data, "+%s ", address);
}

static void
on_left(JoindAccessPoint *ap, const gchar *address, gpointer user_data)
{
	g_string_append_printf(user_data, "-%s ", address);
}

static void
write_profile(TestCore *tc, const gchar *name, const gchar *contents)
{
	g_autofree gchar *dir = g_build_filename(joind_core_get_state_dir(tc->core), "ap", NULL);
	g_autofree gchar *path = g_strdup_printf("%s/%s.ap", dir, name);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0700), ==, 0);
	g_assert_true(g_file_set_contents(path, contents, -1, NULL));
}

static void
test_profile_start_stop(Fixture *f, gconstpointer data)
{
	TestCore *tc = test_core_new(NULL, wifi_settings);
	WifiAccessPoint *object = wifi_access_point_new(tc->core, f->iface, bssid);
	JoindAccessPoint *ap = JOIND_ACCESS_POINT(object);
	g_autoptr(GString) events = g_string_new(NULL);
	WifiApConfig expected = config("home", "correct horse");
	g_autofree gchar *security = NULL;
	Result r = {0}, again = {0}, stopped = {0};

	(void)data;
	/* The fixture's AP makes way: the frames reach the object's. */
	wifi_ap_free(f->ap);
	f->ap = wifi_access_point_get_ap(object);
	g_signal_connect(ap, "station-joined", G_CALLBACK(on_joined), events);
	g_signal_connect(ap, "station-left", G_CALLBACK(on_left), events);
	write_profile(tc, "home", "[General]\nChannel=6\n[Security]\nPassphrase=correct horse\n");
	joind_access_point_start_profile(ap, "home", NULL, finished, &r);
	g_assert_false(r.done);
	answer_start(f, &expected);
	wait_for(&r);
	g_assert_true(r.ok);
	g_assert_no_error(r.error);
	g_assert_true(joind_access_point_get_started(ap));
	g_assert_cmpstr(joind_access_point_get_name(ap), ==, "home");
	g_assert_cmpuint(joind_access_point_get_frequency(ap), ==, 2437);
	g_object_get(ap, "security", &security, NULL);
	g_assert_cmpstr(security, ==, JOIND_AP_SECURITY_WPA2);

	joind_access_point_start(ap, "other", "correct horse", NULL, NULL, finished, &again);
	wait_for(&again);
	g_assert_false(again.ok);
	g_assert_error(again.error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_clear_error(&again.error);

	join(f, rsne_psk, sizeof(rsne_psk), FALSE);
	g_assert_cmpstrv(joind_access_point_get_stations(ap),
	                 ((const gchar *const[]){"02:00:00:00:02:00", NULL}));
	joind_access_point_stop(ap, NULL, finished, &stopped);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_STOP_AP), 0);
	wait_for(&stopped);
	g_assert_true(stopped.ok);
	g_assert_false(joind_access_point_get_started(ap));
	g_assert_cmpstr(joind_access_point_get_name(ap), ==, "");
	g_assert_cmpuint(joind_access_point_get_frequency(ap), ==, 0);
	g_assert_null(joind_access_point_get_stations(ap)[0]);
	g_assert_cmpstr(events->str, ==, "+02:00:00:00:02:00 -02:00:00:00:02:00 ");

	f->ap = NULL;
	g_object_unref(object);
	test_core_free(tc);
}

/* What StartProfile refuses, before anything reaches the kernel. */
static void
test_profile_refused(void)
{
	static const struct {
		const gchar *name, *contents, *says;
		JoindErrorCode code;
	} cases[] = {
	        {"lan", "[Security]\nPassphrase=correct horse\n[IPv4]\nAddress=192.168.1.1\n",
	         "*does not implement [IPv4] Address*", JOIND_ERROR_INVALID_ARGS},
	        {"nokey", "[General]\nChannel=6\n", "*neither [Security] Passphrase nor*",
	         JOIND_ERROR_INVALID_ARGS},
	        {"far", "[General]\nChannel=36\n[Security]\nPassphrase=correct horse\n",
	         "*Channel=36 is not a 2.4 GHz channel*", JOIND_ERROR_INVALID_ARGS},
	        {"veiled", "[General]\nHidden=maybe\n[Security]\nPassphrase=correct horse\n",
	         "*Hidden= is neither true nor false*", JOIND_ERROR_INVALID_ARGS},
	        {"absent", NULL, "*absent.ap*", JOIND_ERROR_NOT_FOUND},
	        {"../up", NULL, "*cannot name an access point profile*", JOIND_ERROR_INVALID_ARGS},
	};
	TestCore *tc = test_core_new(NULL, wifi_settings);

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;

		if (cases[i].contents != NULL)
			write_profile(tc, cases[i].name, cases[i].contents);
		g_assert_null(wifi_ap_profile_load(joind_core_get_state_dir(tc->core),
		                                   cases[i].name, &error));
		g_assert_error(error, JOIND_ERROR, (gint)cases[i].code);
		if (!g_pattern_match_simple(cases[i].says, error->message))
			g_error("%s: %s", cases[i].name, error->message);
	}
	test_core_free(tc);
}

/* joind's [General] Hidden: the BSS's beacons leave the SSID out. */
static void
test_profile_hidden(void)
{
	TestCore *tc = test_core_new(NULL, wifi_settings);
	const gchar *dir = joind_core_get_state_dir(tc->core);
	g_autoptr(WifiApProfile) shown = NULL;
	g_autoptr(WifiApProfile) hidden = NULL;

	write_profile(tc, "shown", "[Security]\nPassphrase=correct horse\n");
	write_profile(tc, "veiled",
	              "[General]\nHidden=true\n[Security]\nPassphrase=correct horse\n");
	shown = wifi_ap_profile_load(dir, "shown", NULL);
	hidden = wifi_ap_profile_load(dir, "veiled", NULL);
	g_assert_nonnull(shown);
	g_assert_nonnull(hidden);
	g_assert_false(shown->config.hidden);
	g_assert_true(hidden->config.hidden);
	test_core_free(tc);
}

/* main.conf's [AccessPoint] keys, or their defaults, are the started
 * BSS's limits; with MaxStations=1 a second client finds the AP full. */
static void
test_settings(Fixture *f, gconstpointer data)
{
	const gchar *conf = data;
	TestCore *tc = test_core_new(conf, wifi_settings);
	WifiAccessPoint *object = wifi_access_point_new(tc->core, f->iface, bssid);
	WifiApConfig expected = config("home", "correct horse");
	Result r = {0};

	wifi_ap_free(f->ap);
	f->ap = wifi_access_point_get_ap(object);
	write_profile(tc, "home", "[General]\nChannel=6\n[Security]\nPassphrase=correct horse\n");
	joind_access_point_start_profile(JOIND_ACCESS_POINT(object), "home", NULL, finished, &r);
	answer_start(f, &expected);
	wait_for(&r);
	g_assert_no_error(r.error);
	if (conf == NULL) {
		g_assert_cmpuint(f->ap->rekey_interval, ==, 86400);
		g_assert_cmpuint(f->ap->max_stations, ==, 32);
		g_assert_cmpuint(f->ap->max_inactivity, ==, 300);
	} else {
		g_assert_cmpuint(f->ap->rekey_interval, ==, 600);
		g_assert_cmpuint(f->ap->max_stations, ==, 1);
		g_assert_cmpuint(f->ap->max_inactivity, ==, 45);
		join(f, rsne_psk, sizeof(rsne_psk), FALSE);
		rx_frame(f, request_from(other_mac, WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL,
		                         0));
		expect_answer(f, FALSE, 0);
		rx_frame(f, request_from(other_mac, WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, "31040a00",
		                         rsne_psk, sizeof(rsne_psk)));
		expect_answer(f, TRUE, 17);
		g_assert_cmpuint(wifi_ap_get_n_stations(f->ap), ==, 1);
	}
	f->ap = NULL;
	g_object_unref(object);
	test_core_free(tc);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/ap-object/profile-start-stop", Fixture, NULL, set_up, test_profile_start_stop,
	           tear_down);
	g_test_add_func("/ap-object/profile-refused", test_profile_refused);
	g_test_add_func("/ap-object/profile-hidden", test_profile_hidden);
	g_test_add("/ap-object/settings-default", Fixture, NULL, set_up, test_settings, tear_down);
	g_test_add("/ap-object/settings-main-conf", Fixture,
	           "[AccessPoint]\nRekeyInterval=600\nMaxStations=1\nInactivityTimeout=45\n",
	           set_up, test_settings, tear_down);
	return g_test_run();
}
