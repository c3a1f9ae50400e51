/* faults-connect.c - what a connection writes into the state directory
 * (state.json's memory of the network, the PSK and SAE's password token
 * cached in the profile, the profile an open network gets once joined),
 * through the connector on a fake nl80211 and a real core (the fixture of
 * tests/unit/wifi), under the faults of run-faults.sh:
 *
 *   faults-connect full-disk   GLib tests: TMPDIR is a small tmpfs of its
 *                              own, which the test fills: every write fails
 *                              with a sentence and leaves every file as it
 *                              was; once there is space, the next succeeds
 *   faults-connect churn       connects and disconnects without end (a new
 *                              PSK, SAE and open network each round), for
 *                              run-faults.sh to SIGKILL at any moment; says
 *                              "ready DIR" once its core is up in DIR
 *                              (run-faults.sh then starts joind on DIR)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#include <glib/gstdio.h>

#include "connect-sae.h"
#include "log-capture.h"
#include "test-dir.h"

#define TEMP_MARK ".joind-tmp-"

/* ---- the state directory ------------------------------------------------ */

static gint
compare_lines(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const gchar *const *)a, *(const gchar *const *)b);
}

/* Every file of dir and its digest, one "name digest" line each, sorted. */
static gchar *
snapshot(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
	const gchar *name;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = g_build_filename(dir, name, NULL);
		g_autofree gchar *text = NULL;
		g_autofree gchar *sum = NULL;
		gsize len = 0;

		if (!g_file_get_contents(path, &text, &len, NULL))
			continue; /* a directory */
		sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
		g_ptr_array_add(lines, g_strdup_printf("%s %s", name, sum));
	}
	g_ptr_array_sort(lines, compare_lines);
	g_ptr_array_add(lines, NULL);
	return g_strjoinv("\n", (gchar **)lines->pdata);
}

static guint
count_temporaries(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint n = 0;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL)
		n += strstr(name, TEMP_MARK) != NULL ? 1 : 0;
	return n;
}

/* The tmpfs TMPDIR is, filled up: its blocks (a file of zeros) and its
 * inodes (empty files; an empty profile needs no block), each until
 * ENOSPC. Returns the filler directory. */
static gchar *
fill_disk(void)
{
	gchar *filler = g_build_filename(g_get_tmp_dir(), ".filler", NULL);
	g_autofree gchar *zeros_path = g_build_filename(filler, "zeros", NULL);
	static const gchar zeros[4096];
	FILE *file;
	int fd;

	g_assert_cmpint(g_mkdir(filler, 0700), ==, 0);
	file = fopen(zeros_path, "w");
	g_assert_nonnull(file);
	setvbuf(file, NULL, _IONBF, 0);
	while (fwrite(zeros, 1, sizeof(zeros), file) == sizeof(zeros))
		;
	g_assert_cmpint(errno, ==, ENOSPC);
	fclose(file);
	for (guint i = 0;; i++) {
		g_autofree gchar *path = g_strdup_printf("%s/%u", filler, i);

		if ((fd = g_open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0)
			break;
		g_close(fd, NULL);
	}
	g_assert_cmpint(errno, ==, ENOSPC);
	return filler;
}

/* ---- the connections -------------------------------------------------------- */

/* A network of ssid (rsne: NULL for open) with a profile holding only the
 * passphrase, written as ProfileManager1 or an agent's answer would (the
 * core's own writer). */
static WifiNetwork *
known_network(Fixture *f, const gchar *ssid, const gchar *rsne)
{
	WifiNetwork *network = make_network(f, ssid, rsne, NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(GError) error = NULL;

	g_key_file_set_string(kf, "Security", "Passphrase", PASSPHRASE);
	g_assert_true(joind_core_save_network_profile(f->tc->core, (const guint8 *)ssid,
	                                              strlen(ssid), JOIND_PROFILE_TYPE_PSK, kf,
	                                              &error));
	g_assert_no_error(error);
	profile = joind_core_find_network_profile(f->tc->core, (const guint8 *)ssid, strlen(ssid),
	                                          JOIND_PROFILE_TYPE_PSK);
	joind_network_set_profile(JOIND_NETWORK(network), profile);
	return network;
}

/* WPA2-PSK from a profile holding only the passphrase: the PSK is cached. */
static void
join_psk(Fixture *f, WifiNetwork *network)
{
	const gchar *ssid = joind_network_get_name(JOIND_NETWORK(network));
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, ssid);

	associate(f, network);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	disconnect_and_reset(f);
}

/* WPA3-Personal with hash-to-element, by SAE (not a cached PMKSA): the PT
 * is cached. */
static void
join_sae(Fixture *f, WifiNetwork *network)
{
	g_autofree gchar *key = wifi_known_network_key(JOIND_NETWORK(network));
	SaeAp ap;
	guint8 pmkid[16];

	wifi_pmksa_cache_flush_network(f->pmksa_cache, key);
	sae_ap_init(&ap, joind_network_get_name(JOIND_NETWORK(network)), TRUE);
	sae_exchange(f, network, &ap);
	sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), TRUE, pmkid);
	assert_connected(f, network);
	sae_ap_clear(&ap);
	disconnect_and_reset(f);
}

/* An open network joined for the first time: it gets a profile. */
static void
join_open_network(Fixture *f, const gchar *ssid)
{
	g_autoptr(WifiNetwork) network = make_network(f, ssid, NULL, NULL);

	join_open(f, network, TRUE);
	assert_connected(f, network);
	disconnect_and_reset(f);
}

static gchar *
saved_string(Fixture *f, const gchar *ssid, const gchar *key)
{
	g_autoptr(JoindProfile) saved = joind_core_find_network_profile(
	        f->tc->core, (const guint8 *)ssid, strlen(ssid), JOIND_PROFILE_TYPE_PSK);

	return saved != NULL ? joind_profile_get_string(saved, "Security", key) : NULL;
}

/* ---- full disk -------------------------------------------------------------- */

#define NO_SPACE "*No space left on device*"

/* The connections go on; what they would write is refused, each with a
 * sentence naming the file and the cause, and no file changes. With space
 * again, the next connections write it all. */
static void
test_full_disk(Fixture *f, gconstpointer data)
{
	g_autofree gchar *before = NULL;
	g_autofree gchar *after = NULL;
	g_autofree gchar *filler = NULL;
	g_autofree gchar *psk = NULL;
	g_autofree gchar *pt = NULL;
	g_autofree gchar *cafe = g_build_filename(f->tc->dir, "cafe.open", NULL);

	g_autoptr(WifiNetwork) home = NULL;
	g_autoptr(WifiNetwork) wpa3 = NULL;

	log_capture_reset();
	join_open_network(f, "library"); /* state.json, library.open */
	home = known_network(f, "home", RSNE_PSK);
	wpa3 = known_network(f, "wpa3", RSNE_SAE RSNXE_H2E);
	before = snapshot(f->tc->dir);
	filler = fill_disk();
	log_capture_allow_warning(NO_SPACE);

	join_psk(f, home);
	join_sae(f, wpa3);
	join_open_network(f, "cafe");
	after = snapshot(f->tc->dir);
	g_assert_cmpstr(after, ==, before);
	g_assert_cmpuint(count_temporaries(f->tc->dir), ==, 0);
	g_assert_cmpuint(
	        log_capture_count("WARNING: Could not write */state.json: No space left on "
	                          "device; what joind learned is kept in memory only"),
	        ==, 1);
	g_assert_cmpuint(log_capture_count("WARNING: wlan0: cannot save the profile of “home”: "
	                                   "Could not write */home.psk: No space left on device"),
	                 ==, 1);
	g_assert_cmpuint(
	        log_capture_count("WARNING: wlan0: cannot keep the SAE PT of “wpa3” in its "
	                          "profile: Could not write */wpa3.psk: " NO_SPACE),
	        ==, 1);
	g_assert_cmpuint(
	        log_capture_count("WARNING: wlan0: cannot save the profile of “cafe”: " NO_SPACE),
	        ==, 1);
	g_assert_null(saved_string(f, "home", "PreSharedKey"));
	g_assert_null(saved_string(f, "wpa3", "SAE-PT-Group19"));
	g_assert_false(g_file_test(cafe, G_FILE_TEST_EXISTS));

	test_dir_remove_tree(filler);
	join_psk(f, home);
	join_sae(f, wpa3);
	join_open_network(f, "cafe");
	psk = saved_string(f, "home", "PreSharedKey");
	pt = saved_string(f, "wpa3", "SAE-PT-Group19");
	g_assert_cmpuint(psk != NULL ? strlen(psk) : 0, ==, 64);
	g_assert_cmpuint(pt != NULL ? strlen(pt) : 0, ==, 128);
	g_assert_true(g_file_test(cafe, G_FILE_TEST_EXISTS));
	g_assert_cmpuint(log_capture_count("INFO: */state.json written again"), ==, 1);
	joind_secret_wipe(g_steal_pointer(&psk));
	joind_secret_wipe(g_steal_pointer(&pt));
}

/* ---- killed at any moment ---------------------------------------------------- */

static G_NORETURN void
churn(void)
{
	Fixture f = {0};

	fixture_set_up(&f, &sme_sae);
	g_print("ready %s\n", f.tc->dir);
	fflush(stdout);
	for (guint i = 0;; i++) {
		g_autofree gchar *ssid = g_strdup_printf("net%u", i);
		g_autoptr(WifiNetwork) network = NULL;

		if (i % 3 == 0) {
			network = known_network(&f, ssid, RSNE_PSK);
			join_psk(&f, network);
		} else if (i % 3 == 1) {
			network = known_network(&f, ssid, RSNE_SAE RSNXE_H2E);
			join_sae(&f, network);
		} else
			join_open_network(&f, ssid);
	}
}

int
main(int argc, char **argv)
{
	if (argc == 2 && g_str_equal(argv[1], "churn"))
		churn();
	if (argc < 2 || !g_str_equal(argv[1], "full-disk")) {
		g_printerr("usage: faults-connect full-disk | churn\n");
		return 2;
	}
	g_test_init(&argc, &argv, NULL);
	log_capture_init();
	log_capture_add_domain("joind");
	CONNECT_TEST_ADD("/faults/full-disk/connect-writes", &sme_sae, test_full_disk);
	return g_test_run();
}
