/* test-autochoice.c - autoconnect's decisions: which network and BSS (with
 * AutoConnect flags, blocked networks, avoided and stale BSSes), the
 * back-off sequence, the quick-scan frequency set; and the
 * deauthentication frame parser link loss uses. */
#include <string.h>

#include "autochoice.h"
#include "mgmt.h"

#define NOW_US G_GINT64_CONSTANT(1000000000)
#define NOW_NS G_GUINT64_CONSTANT(500000000000)

static WifiBss *
make_bss(guint8 last, guint32 freq, gint signal)
{
	static const guint8 ies[] = {0, 4, 't', 'e', 's', 't', 3, 1, 6};
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x00, last};
	g_autoptr(GError) error = NULL;
	WifiBss *bss =
	        wifi_bss_new(bssid, freq, signal, WIFI_CAPABILITY_ESS, ies, sizeof(ies), &error);

	g_assert_no_error(error);
	bss->last_seen_ns = NOW_NS - 1000000000; /* a second ago */
	return bss;
}

static GPtrArray *
bsses(WifiBss *a, WifiBss *b)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);

	g_ptr_array_add(out, a);
	if (b != NULL)
		g_ptr_array_add(out, b);
	return out;
}

static void
test_choose_rank_and_flags(void)
{
	g_autoptr(GPtrArray) b1 = bsses(make_bss(1, 2437, -5000), NULL);
	g_autoptr(GPtrArray) b2 = bsses(make_bss(2, 2412, -4000), NULL);
	g_autoptr(GPtrArray) b3 = bsses(make_bss(3, 2462, -3000), NULL);
	g_autoptr(GPtrArray) b4 = bsses(make_bss(4, 5180, -3000), NULL);
	WifiAutoCandidate c[] = {
	        {.rank = 800, .known = TRUE, .autoconnect = TRUE, .bsses = b1},
	        /* better ranked but AutoConnect=false */
	        {.rank = 2000, .known = TRUE, .autoconnect = FALSE, .bsses = b2},
	        /* better ranked but not known */
	        {.rank = 3000, .known = FALSE, .autoconnect = TRUE, .bsses = b3},
	        /* better ranked but blocked (wrong passphrase) */
	        {.rank = 2500, .known = TRUE, .autoconnect = TRUE, .blocked = TRUE, .bsses = b4},
	};
	WifiBss *bss = NULL;

	g_assert_cmpint(wifi_autoconnect_choose(c, G_N_ELEMENTS(c), NULL, NOW_US, NOW_NS, &bss), ==,
	                0);
	g_assert_true(bss == g_ptr_array_index(b1, 0));
	/* Unblocked, the blocked one wins on rank. */
	c[3].blocked = FALSE;
	g_assert_cmpint(wifi_autoconnect_choose(c, G_N_ELEMENTS(c), NULL, NOW_US, NOW_NS, &bss), ==,
	                3);
	/* Nothing joinable: -1 and no BSS. */
	c[0].autoconnect = FALSE;
	c[3].known = FALSE;
	g_assert_cmpint(wifi_autoconnect_choose(c, G_N_ELEMENTS(c), NULL, NOW_US, NOW_NS, &bss), ==,
	                -1);
	g_assert_null(bss);
	g_assert_cmpint(wifi_autoconnect_choose(c, 0, NULL, NOW_US, NOW_NS, &bss), ==, -1);
}

static void
test_choose_ties(void)
{
	g_autoptr(GPtrArray) b1 = bsses(make_bss(1, 2437, -5000), NULL);
	g_autoptr(GPtrArray) b2 = bsses(make_bss(2, 2437, -5000), NULL);
	WifiAutoCandidate c[] = {
	        {.rank = 1200, .known = TRUE, .autoconnect = TRUE, .bsses = b1},
	        {.rank = 1200, .known = TRUE, .autoconnect = TRUE, .bsses = b2},
	};

	g_assert_cmpint(wifi_autoconnect_choose(c, 2, NULL, NOW_US, NOW_NS, NULL), ==, 0);
}

static void
test_choose_avoid_list(void)
{
	g_autoptr(WifiAvoidList) avoid = wifi_avoid_list_new();
	/* Network 0 has two BSSes, the best first; network 1 ranks lower. */
	g_autoptr(GPtrArray) b0 = bsses(make_bss(1, 2437, -4000), make_bss(2, 2462, -6000));
	g_autoptr(GPtrArray) b1 = bsses(make_bss(3, 2412, -4000), NULL);
	WifiAutoCandidate c[] = {
	        {.rank = 1500, .known = TRUE, .autoconnect = TRUE, .bsses = b0},
	        {.rank = 1000, .known = TRUE, .autoconnect = TRUE, .bsses = b1},
	};
	WifiBss *bss = NULL;
	WifiBss *first = g_ptr_array_index(b0, 0);
	WifiBss *second = g_ptr_array_index(b0, 1);

	wifi_avoid_list_add(avoid, first->bssid, NOW_US, 60 * G_USEC_PER_SEC);
	g_assert_true(wifi_avoid_list_contains(avoid, first->bssid, NOW_US));
	g_assert_false(wifi_avoid_list_contains(avoid, second->bssid, NOW_US));
	/* The failed BSS is skipped, the network's next one taken. */
	g_assert_cmpint(wifi_autoconnect_choose(c, 2, avoid, NOW_US, NOW_NS, &bss), ==, 0);
	g_assert_true(bss == second);
	/* Both avoided: the next network. */
	wifi_avoid_list_add(avoid, second->bssid, NOW_US, 60 * G_USEC_PER_SEC);
	g_assert_cmpint(wifi_autoconnect_choose(c, 2, avoid, NOW_US, NOW_NS, &bss), ==, 1);
	g_assert_cmpuint(wifi_avoid_list_size(avoid, NOW_US), ==, 2);
	/* A minute later both are allowed again. */
	g_assert_false(wifi_avoid_list_contains(avoid, first->bssid, NOW_US + 60 * G_USEC_PER_SEC));
	g_assert_cmpint(
	        wifi_autoconnect_choose(c, 2, avoid, NOW_US + 61 * G_USEC_PER_SEC, NOW_NS, &bss),
	        ==, 0);
	g_assert_true(bss == first);
	g_assert_cmpuint(wifi_avoid_list_size(avoid, NOW_US + 61 * G_USEC_PER_SEC), ==, 0);
}

static void
test_choose_stale_bss(void)
{
	g_autoptr(GPtrArray) b0 = bsses(make_bss(1, 2437, -4000), NULL);
	g_autoptr(GPtrArray) b1 = bsses(make_bss(2, 2412, -6000), NULL);
	WifiAutoCandidate c[] = {
	        {.rank = 1500, .known = TRUE, .autoconnect = TRUE, .bsses = b0},
	        {.rank = 1000, .known = TRUE, .autoconnect = TRUE, .bsses = b1},
	};
	WifiBss *lost = g_ptr_array_index(b0, 0);

	/* The last scan of its channel missed it (the AP went away). */
	lost->misses = 1;
	g_assert_false(wifi_autoconnect_bss_usable(lost, NULL, NOW_US, NOW_NS));
	g_assert_cmpint(wifi_autoconnect_choose(c, 2, NULL, NOW_US, NOW_NS, NULL), ==, 1);
	/* Seen again, but long ago. */
	lost->misses = 0;
	lost->last_seen_ns = NOW_NS - 2 * WIFI_AUTOCONNECT_MAX_BSS_AGE_NS;
	g_assert_cmpint(wifi_autoconnect_choose(c, 2, NULL, NOW_US, NOW_NS, NULL), ==, 1);
	/* The kernel gave no time: taken as fresh. */
	lost->last_seen_ns = 0;
	g_assert_cmpint(wifi_autoconnect_choose(c, 2, NULL, NOW_US, NOW_NS, NULL), ==, 0);
}

static void
test_backoff(void)
{
	static const guint want[] = {1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000};
	static const guint link[] = {500, 1000, 2000, 2000};

	for (guint i = 0; i < G_N_ELEMENTS(want); i++)
		g_assert_cmpuint(wifi_autoconnect_backoff_ms(i, 1000, 60000), ==, want[i]);
	for (guint i = 0; i < G_N_ELEMENTS(link); i++)
		g_assert_cmpuint(wifi_autoconnect_backoff_ms(i, 500, 2000), ==, link[i]);
	/* No overflow however many attempts. */
	g_assert_cmpuint(wifi_autoconnect_backoff_ms(G_MAXUINT, 1000, 60000), ==, 60000);
	g_assert_cmpuint(wifi_autoconnect_backoff_ms(40, G_MAXUINT / 2, G_MAXUINT), ==, G_MAXUINT);
}

static GArray *
freqs(guint n, ...)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(guint32));
	va_list ap;

	va_start(ap, n);
	for (guint i = 0; i < n; i++) {
		guint32 f = va_arg(ap, guint32);

		g_array_append_val(a, f);
	}
	va_end(ap);
	return a;
}

static void
test_quick_freqs(void)
{
	g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	g_autoptr(GArray) out = NULL;
	g_autoptr(GArray) capped = NULL;
	static const guint32 want[] = {2437, 5180, 2412, 5200, 2462};

	g_assert_null(wifi_autoconnect_quick_freqs(lists, 8));
	g_assert_null(wifi_autoconnect_quick_freqs(NULL, 8));
	g_ptr_array_add(lists, freqs(0));
	g_assert_null(wifi_autoconnect_quick_freqs(lists, 8));
	/* Most recent network first; each network's latest frequency before
	 * anyone's second; duplicates once. */
	g_ptr_array_add(lists, freqs(3, 2437, 2412, 5200));
	g_ptr_array_add(lists, freqs(3, 5180, 2437, 2462));
	out = wifi_autoconnect_quick_freqs(lists, 8);
	g_assert_nonnull(out);
	g_assert_cmpuint(out->len, ==, G_N_ELEMENTS(want));
	for (guint i = 0; i < out->len; i++)
		g_assert_cmpuint(g_array_index(out, guint32, i), ==, want[i]);
	capped = wifi_autoconnect_quick_freqs(lists, 2);
	g_assert_cmpuint(capped->len, ==, 2);
	g_assert_cmpuint(g_array_index(capped, guint32, 0), ==, 2437);
	g_assert_cmpuint(g_array_index(capped, guint32, 1), ==, 5180);
}

static void
test_mgmt_leave(void)
{
	/* Deauthentication from 02:00:00:00:04:00, reason 3 (leaving). */
	static const guint8 deauth[] = {0xc0, 0x00, 0x3a, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00,
	                                0x02, 0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x02, 0x00,
	                                0x00, 0x00, 0x04, 0x00, 0x10, 0x00, 0x03, 0x00};
	static const guint8 ap[6] = {0x02, 0x00, 0x00, 0x00, 0x04, 0x00};
	guint8 frame[sizeof(deauth)];
	g_autoptr(GError) error = NULL;
	WifiMgmtLeave leave;

	g_assert_true(wifi_mgmt_parse_leave(deauth, sizeof(deauth), &leave, &error));
	g_assert_no_error(error);
	g_assert_false(leave.disassoc);
	g_assert_cmpuint(leave.reason, ==, 3);
	g_assert_cmpmem(leave.sa, 6, ap, 6);
	g_assert_cmpmem(leave.bssid, 6, ap, 6);
	/* Disassociation, reason 0x0108 (little-endian). */
	memcpy(frame, deauth, sizeof(frame));
	frame[0] = 0xa0;
	frame[24] = 0x08;
	frame[25] = 0x01;
	g_assert_true(wifi_mgmt_parse_leave(frame, sizeof(frame), &leave, NULL));
	g_assert_true(leave.disassoc);
	g_assert_cmpuint(leave.reason, ==, 0x0108);
	/* Malformed: too short, NULL, a data frame, an action frame. */
	for (gsize len = 0; len < sizeof(deauth); len++) {
		g_clear_error(&error);
		g_assert_false(wifi_mgmt_parse_leave(deauth, len, &leave, &error));
		g_assert_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED);
	}
	g_assert_false(wifi_mgmt_parse_leave(NULL, 26, &leave, NULL));
	frame[0] = 0x08;
	g_assert_false(wifi_mgmt_parse_leave(frame, sizeof(frame), &leave, NULL));
	frame[0] = 0xd0;
	g_assert_false(wifi_mgmt_parse_leave(frame, sizeof(frame), &leave, NULL));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/autochoice/choose-rank-and-flags", test_choose_rank_and_flags);
	g_test_add_func("/wifi/autochoice/choose-ties", test_choose_ties);
	g_test_add_func("/wifi/autochoice/choose-avoid-list", test_choose_avoid_list);
	g_test_add_func("/wifi/autochoice/choose-stale-bss", test_choose_stale_bss);
	g_test_add_func("/wifi/autochoice/backoff", test_backoff);
	g_test_add_func("/wifi/autochoice/quick-freqs", test_quick_freqs);
	g_test_add_func("/wifi/mgmt/leave", test_mgmt_leave);
	return g_test_run();
}
