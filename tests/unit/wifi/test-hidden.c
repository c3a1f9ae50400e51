/* test-hidden.c - ConnectHiddenNetwork(): the SSID argument, whether a
 * network counts as visible (broadcasting its SSID), and the call itself
 * driven through WifiHiddenStationOps with a fake station on a real core. */
#include <string.h>

#include "hidden.h"
#include "settings.h"
#include "test-core.h"
#include "profile-keys.h"

static void
test_ssid_argument(void)
{
	static const guint8 ssid32[32] = {'a'};
	static const guint8 ssid33[33] = {'a'};
	g_autoptr(GBytes) empty = g_bytes_new(NULL, 0);
	g_autoptr(GBytes) one = g_bytes_new("x", 1);
	g_autoptr(GBytes) max = g_bytes_new(ssid32, sizeof(ssid32));
	g_autoptr(GBytes) over = g_bytes_new(ssid33, sizeof(ssid33));
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_hidden_check_ssid(one, &error));
	g_assert_no_error(error);
	g_assert_true(wifi_hidden_check_ssid(max, &error));
	g_assert_no_error(error);

	g_assert_false(wifi_hidden_check_ssid(empty, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_hidden_check_ssid(NULL, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_hidden_check_ssid(over, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "33"));
}

/* An open BSS: SSID element (ssid_len octets of ssid, or zeros) only. */
static WifiBss *
make_bss(guint8 last, const gchar *ssid, gsize ssid_len)
{
	guint8 ies[2 + 32] = {0, (guint8)ssid_len};
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x6a, last};
	g_autoptr(GError) error = NULL;
	WifiBss *bss;

	if (ssid != NULL)
		memcpy(ies + 2, ssid, ssid_len);
	bss = wifi_bss_new(bssid, 2452, -3000, WIFI_CAPABILITY_ESS, ies, 2 + ssid_len, &error);
	g_assert_no_error(error);
	g_assert_nonnull(bss);
	return bss;
}

static void
test_visible(void)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(GPtrArray) net = g_ptr_array_new();
	WifiBss *shown = make_bss(1, "jh-visible", 10);
	WifiBss *probed = make_bss(2, "jh-secret", 9);
	WifiBss *beacon_empty = make_bss(2, NULL, 0);
	WifiBss *beacon_zeros = make_bss(3, NULL, 9);
	WifiBss *probed3 = make_bss(3, "jh-secret", 9);

	g_ptr_array_add(all, shown);
	g_ptr_array_add(all, probed);
	g_ptr_array_add(all, beacon_empty);
	g_ptr_array_add(all, beacon_zeros);
	g_ptr_array_add(all, probed3);
	g_assert_true(wifi_bss_is_hidden(beacon_empty));
	g_assert_true(wifi_bss_is_hidden(beacon_zeros));

	/* A BSS broadcasting its SSID: visible, unless joind probes for it. */
	g_ptr_array_add(net, shown);
	g_assert_true(wifi_hidden_network_is_visible(net, all, FALSE));
	g_assert_false(wifi_hidden_network_is_visible(net, all, TRUE));

	/* Probe responses of APs whose beacons hide the SSID (empty or zeroed). */
	g_ptr_array_set_size(net, 0);
	g_ptr_array_add(net, probed);
	g_ptr_array_add(net, probed3);
	g_assert_false(wifi_hidden_network_is_visible(net, all, FALSE));

	/* One BSS of the network shows its SSID: the network is visible. */
	g_ptr_array_add(net, shown);
	g_assert_true(wifi_hidden_network_is_visible(net, all, FALSE));

	/* No network at all, or none of its BSSes left. */
	g_assert_false(wifi_hidden_network_is_visible(NULL, all, FALSE));
	g_ptr_array_set_size(net, 0);
	g_assert_false(wifi_hidden_network_is_visible(net, all, FALSE));

	/* The twin must be another entry: a hidden BSS is no twin of itself. */
	g_ptr_array_add(net, probed);
	g_ptr_array_remove(all, beacon_empty);
	g_assert_true(wifi_hidden_network_is_visible(net, all, FALSE));
}

/* ---- the call, through a fake station -------------------------------------- */

typedef struct {
	TestCore *tc;
	JoindStation *station;
	GPtrArray *bsses;  /* WifiBss the station knows */
	GPtrArray *probes; /* GBytes its scans probe for */
	WifiBss *answer;   /* what the probe finds, NULL: nothing answers */
	gboolean probes_all;
	guint n_scans;
	WifiNetwork *connected; /* what connect was called with */
	GError *connect_error;  /* what connect fails with, NULL: it succeeds */
	gboolean done;
	GError *error;
} Fixture;

static Fixture *
fixture_of(JoindStation *station)
{
	return g_object_get_data(G_OBJECT(station), "fixture");
}

static gboolean
fake_probes_ssid(JoindStation *station, GBytes *ssid)
{
	Fixture *f = fixture_of(station);

	return f->probes_all ||
	       g_ptr_array_find_with_equal_func(f->probes, ssid, g_bytes_equal, NULL);
}

static void
fake_add_probe_ssid(JoindStation *station, GBytes *ssid)
{
	g_ptr_array_add(fixture_of(station)->probes, g_bytes_ref(ssid));
}

static void
fake_remove_probe_ssid(JoindStation *station, GBytes *ssid)
{
	Fixture *f = fixture_of(station);
	guint i;

	g_assert_true(g_ptr_array_find_with_equal_func(f->probes, ssid, g_bytes_equal, &i));
	g_ptr_array_remove_index(f->probes, i);
}

static GPtrArray *
fake_get_bsses(JoindStation *station)
{
	GPtrArray *bsses = fixture_of(station)->bsses;
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; i < bsses->len; i++)
		g_ptr_array_add(out, g_ptr_array_index(bsses, i));
	return out;
}

/* A network of the station made of bss. */
static void
add_network(Fixture *f, WifiBss *bss)
{
	g_autoptr(GBytes) ssid = g_bytes_new(bss->ies.ssid, bss->ies.ssid_len);
	g_autoptr(GPtrArray) bsses = g_ptr_array_new();
	g_autoptr(WifiNetwork) network = wifi_network_new(ssid, bss->type);

	g_ptr_array_add(bsses, bss);
	wifi_network_set_bsses(network, bsses);
	g_ptr_array_add(f->bsses, wifi_bss_ref(bss));
	joind_station_add_network(f->station, JOIND_NETWORK(network));
}

/* The scan probes for every SSID on the list; the answer, if any, becomes
 * a network. */
static void
fake_scan(JoindStation *station, GCancellable *cancellable, GAsyncReadyCallback callback,
          gpointer user_data)
{
	Fixture *f = fixture_of(station);
	g_autoptr(GTask) task = g_task_new(NULL, cancellable, callback, user_data);

	f->n_scans++;
	g_assert_cmpuint(f->probes->len, ==, 1);
	if (f->answer != NULL)
		add_network(f, f->answer);
	g_task_return_boolean(task, TRUE);
}

static void
fake_connect(JoindStation *station, WifiNetwork *network, GCancellable *cancellable,
             GAsyncReadyCallback callback, gpointer user_data)
{
	Fixture *f = fixture_of(station);
	g_autoptr(GTask) task = g_task_new(network, cancellable, callback, user_data);

	g_set_object(&f->connected, network);
	if (f->connect_error != NULL)
		g_task_return_error(task, g_error_copy(f->connect_error));
	else
		g_task_return_boolean(task, TRUE);
}

static const WifiHiddenStationOps fake_ops = {
        fake_probes_ssid, fake_add_probe_ssid, fake_remove_probe_ssid,
        fake_get_bsses,   fake_scan,           fake_connect,
};

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	f->tc = test_core_new(NULL, wifi_settings);
	joind_core_declare_profile_keys(f->tc->core, wifi_profile_keys);
	f->station = g_object_new(JOIND_TYPE_STATION, NULL);
	g_object_set_data(G_OBJECT(f->station), "fixture", f);
	f->bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	f->probes = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	g_object_unref(f->station);
	test_core_free(f->tc);
	g_ptr_array_unref(f->bsses);
	g_ptr_array_unref(f->probes);
	g_clear_pointer(&f->answer, wifi_bss_unref);
	g_clear_object(&f->connected);
	g_clear_error(&f->connect_error);
	g_clear_error(&f->error);
}

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	g_assert_true(g_task_get_source_object(G_TASK(result)) == f->station);
	f->done = TRUE;
	g_task_propagate_boolean(G_TASK(result), &f->error);
}

static void
call(Fixture *f, const gchar *ssid)
{
	g_autoptr(GBytes) bytes = g_bytes_new(ssid, strlen(ssid));

	wifi_hidden_connect(f->station, &fake_ops, f->tc->core, bytes, NULL, call_done, f);
	while (!f->done)
		g_main_context_iteration(NULL, TRUE);
	/* Whatever was added to the probe list is gone again. */
	g_assert_cmpuint(f->probes->len, ==, 0);
}

static gboolean
profile_says_hidden(Fixture *f, const gchar *ssid)
{
	g_autoptr(JoindProfile) profile = joind_core_find_network_profile(
	        f->tc->core, (const guint8 *)ssid, strlen(ssid), JOIND_PROFILE_TYPE_OPEN);

	return profile != NULL && joind_profile_get_boolean(profile, "Settings", "Hidden", FALSE);
}

static void
test_call_bad_ssid(Fixture *f, gconstpointer data)
{
	call(f, "");
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_cmpuint(f->n_scans, ==, 0);
}

/* An SSID the scans show is no hidden network: refused, nothing probed. */
static void
test_call_visible(Fixture *f, gconstpointer data)
{
	add_network(f, make_bss(1, "jh-visible", 10));
	wifi_bss_unref(g_ptr_array_index(f->bsses, 0)); /* make_bss's reference */
	call(f, "jh-visible");
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_cmpuint(f->n_scans, ==, 0);
	g_assert_null(f->connected);
}

static void
test_call_no_answer(Fixture *f, gconstpointer data)
{
	call(f, "jh-secret");
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_cmpuint(f->n_scans, ==, 1);
	g_assert_null(f->connected);
	g_assert_false(profile_says_hidden(f, "jh-secret"));
}

/* The probe is answered: that network is connected and its profile says
 * Hidden=true from then on. */
static void
test_call_answer(Fixture *f, gconstpointer data)
{
	f->answer = make_bss(2, "jh-secret", 9);
	call(f, "jh-secret");
	g_assert_no_error(f->error);
	g_assert_cmpuint(f->n_scans, ==, 1);
	g_assert_nonnull(f->connected);
	g_assert_cmpstr(joind_network_get_name(JOIND_NETWORK(f->connected)), ==, "jh-secret");
	g_assert_true(profile_says_hidden(f, "jh-secret"));
}

/* Known as hidden already (its scans probe for it) and in range: no scan;
 * a failed connect is the call's error and changes no profile. */
static void
test_call_probed_already(Fixture *f, gconstpointer data)
{
	f->probes_all = TRUE;
	add_network(f, make_bss(2, "jh-secret", 9));
	wifi_bss_unref(g_ptr_array_index(f->bsses, 0));
	f->connect_error = g_error_new_literal(JOIND_ERROR, JOIND_ERROR_FAILED, "refused");
	call(f, "jh-secret");
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_cmpuint(f->n_scans, ==, 0);
	g_assert_nonnull(f->connected);
	g_assert_false(profile_says_hidden(f, "jh-secret"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/hidden/ssid-argument", test_ssid_argument);
	g_test_add_func("/wifi/hidden/visible", test_visible);
#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
	ADD("/wifi/hidden/call/bad-ssid", test_call_bad_ssid);
	ADD("/wifi/hidden/call/visible", test_call_visible);
	ADD("/wifi/hidden/call/no-answer", test_call_no_answer);
	ADD("/wifi/hidden/call/answer", test_call_answer);
	ADD("/wifi/hidden/call/probed-already", test_call_probed_already);
#undef ADD
	return g_test_run();
}
