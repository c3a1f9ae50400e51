/* test-roam-choice.c - the roam's pure decisions: the score (band, BSS
 * Load, mobility domain), the margin that keeps signal-driven roams from
 * ping-pong and that other triggers skip, the access point's transition
 * list (preference, exclusion, abridged, expired validity), and the
 * avoid list's reasons and expiries. */
#include <string.h>

#include "neighbor.h"
#include "network.h"
#include "roam-choice.h"

#define NOW_US G_GINT64_CONSTANT(1000000000)
#define SEC    G_GINT64_CONSTANT(1000000)

/* An SSID "home" BSS; extra elements appended (BSS Load, MDE). */
static WifiBss *
make_bss(guint8 last, guint32 freq, gint signal, const guint8 *extra, gsize extra_len)
{
	guint8 ies[64] = {0, 4, 'h', 'o', 'm', 'e'};
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, last, 0x00};
	g_autoptr(GError) error = NULL;
	WifiBss *bss;

	g_assert_cmpuint(extra_len, <=, sizeof(ies) - 6);
	if (extra_len > 0)
		memcpy(ies + 6, extra, extra_len);
	bss = wifi_bss_new(bssid, freq, signal, WIFI_CAPABILITY_ESS, ies, 6 + extra_len, &error);
	g_assert_no_error(error);
	return bss;
}

static GPtrArray *
table(WifiBss *first, ...)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	va_list ap;

	va_start(ap, first);
	for (WifiBss *b = first; b != NULL; b = va_arg(ap, WifiBss *))
		g_ptr_array_add(out, b);
	va_end(ap);
	return out;
}

static void
test_score(void)
{
	static const guint8 busy[] = {11, 5, 3, 0, 255, 0, 0};  /* BSS Load: 100 % */
	static const guint8 half[] = {11, 5, 3, 0, 128, 0, 0};  /* ~50 % */
	static const guint8 mde[] = {54, 3, 0x34, 0x12, 0x01};  /* MDID 0x1234 */
	static const guint8 mde2[] = {54, 3, 0x35, 0x12, 0x01}; /* MDID 0x1235 */
	g_autoptr(WifiBss) cur = make_bss(1, 2437, -7000, mde, sizeof(mde));
	g_autoptr(WifiBss) b24 = make_bss(2, 2412, -6000, NULL, 0);
	g_autoptr(WifiBss) b5 = make_bss(3, 5180, -6000, NULL, 0);
	g_autoptr(WifiBss) loaded = make_bss(4, 2412, -6000, busy, sizeof(busy));
	g_autoptr(WifiBss) halfway = make_bss(5, 2412, -6000, half, sizeof(half));
	g_autoptr(WifiBss) same_md = make_bss(6, 2412, -6000, mde, sizeof(mde));
	g_autoptr(WifiBss) other_md = make_bss(7, 2412, -6000, mde2, sizeof(mde2));
	WifiRoamContext ctx = {.current = cur, .now_us = NOW_US};

	g_assert_cmpint(wifi_roam_score(b24, b24->signal, &ctx), ==, -6000);
	g_assert_cmpint(wifi_roam_score(b5, b5->signal, &ctx), ==, -5500);
	g_assert_cmpint(wifi_roam_score(loaded, loaded->signal, &ctx), ==, -6500);
	g_assert_cmpint(wifi_roam_score(halfway, halfway->signal, &ctx), ==, -6000 - 250);
	g_assert_cmpint(wifi_roam_score(same_md, same_md->signal, &ctx), ==, -5700);
	g_assert_cmpint(wifi_roam_score(other_md, other_md->signal, &ctx), ==, -6000);
	/* The score uses the signal it is given (the link's, for the current
	 * BSS), not the scan's; the band bonus goes with the signal: none
	 * below -75 dBm. */
	g_assert_cmpint(wifi_roam_score(b24, -8000, &ctx), ==, -8000);
	g_assert_cmpint(wifi_roam_score(b5, -8000, &ctx), ==, -8000);
	/* The score a connect chooses by, plus the mobility domain's bonus. */
	g_assert_cmpint(wifi_roam_score(b5, b5->signal, &ctx), ==, wifi_bss_score(b5));
	g_assert_cmpint(wifi_roam_score(same_md, same_md->signal, &ctx), ==,
	                wifi_bss_score(same_md) + 300);
}

static void
test_margin(void)
{
	g_autoptr(WifiBss) cur = make_bss(1, 2412, -7500, NULL, 0);
	g_autoptr(GPtrArray) t = table(wifi_bss_ref(cur), make_bss(2, 2437, -6800, NULL, 0),
	                               make_bss(3, 2462, -6600, NULL, 0), NULL);
	WifiRoamContext ctx = {.trigger = WIFI_ROAM_TRIGGER_SIGNAL,
	                       .current = cur,
	                       .current_bssid = cur->bssid,
	                       .current_signal = -7500,
	                       .now_us = NOW_US};
	const gchar *why = NULL;
	WifiBss *got;

	/* 9 dB better beats the 8 dB margin; the better of two wins. */
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_nonnull(got);
	g_assert_null(why);
	g_assert_cmpuint(got->bssid[4], ==, 3);
	/* The link's latest signal counts, not the scan's: at -73 dBm, 7 dB
	 * better is not enough (no ping-pong). */
	ctx.current_signal = -7300;
	g_assert_null(wifi_roam_choose(&ctx, t, &why));
	g_assert_nonnull(why);
	/* Exactly the margin is enough. */
	ctx.current_signal = -7400;
	g_assert_nonnull(wifi_roam_choose(&ctx, t, &why));
	/* Without the current BSS in the table, its signal alone. */
	ctx.current = NULL;
	ctx.current_signal = -7300;
	g_assert_null(wifi_roam_choose(&ctx, t, &why));
	/* Other triggers need no margin: even a weaker BSS is taken (beacon
	 * loss: anything beats a link that is gone). */
	ctx.current = cur;
	ctx.current_signal = -6000;
	for (WifiRoamTrigger tr = WIFI_ROAM_TRIGGER_BEACON_LOSS; tr <= WIFI_ROAM_TRIGGER_LAST;
	     tr++) {
		ctx.trigger = tr;
		got = wifi_roam_choose(&ctx, t, &why);
		g_assert_nonnull(got);
		g_assert_cmpuint(got->bssid[4], ==, 3);
	}
}

static void
test_current_and_avoided(void)
{
	g_autoptr(WifiRoamAvoid) avoid = wifi_roam_avoid_new();
	g_autoptr(WifiBss) cur = make_bss(1, 2412, -8000, NULL, 0);
	g_autoptr(GPtrArray) t = table(wifi_bss_ref(cur), make_bss(2, 2437, -5000, NULL, 0),
	                               make_bss(3, 2462, -6000, NULL, 0), NULL);
	WifiRoamContext ctx = {.trigger = WIFI_ROAM_TRIGGER_BEACON_LOSS,
	                       .current = cur,
	                       .current_bssid = cur->bssid,
	                       .current_signal = -8000,
	                       .avoid = avoid,
	                       .now_us = NOW_US};
	guint8 two[6] = {0x02, 0, 0, 0, 2, 0};
	const gchar *why;
	WifiBss *got;

	wifi_roam_avoid_add(avoid, two, WIFI_ROAM_AVOID_FAILED, NOW_US, 60 * SEC);
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 3);
	/* Once it expires, the better one is back. */
	ctx.now_us = NOW_US + 60 * SEC;
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 2);
	/* Only the current BSS: nothing. */
	g_ptr_array_set_size(t, 1);
	g_assert_null(wifi_roam_choose(&ctx, t, &why));
	g_assert_nonnull(why);
	g_assert_null(wifi_roam_choose(&ctx, NULL, &why));
}

static void
add_neighbor(GArray *list, guint8 last, gint preference)
{
	WifiNeighbor n = {.bssid = {0x02, 0, 0, 0, last, 0}, .op_class = 81, .channel = 6};

	if (preference >= 0) {
		n.has_preference = TRUE;
		n.preference = (guint8)preference;
	}
	g_array_append_val(list, n);
}

static void
test_btm_list(void)
{
	g_autoptr(GArray) list = g_array_new(FALSE, TRUE, sizeof(WifiNeighbor));
	g_autoptr(WifiBss) cur = make_bss(1, 2412, -5000, NULL, 0);
	g_autoptr(GPtrArray) t =
	        table(wifi_bss_ref(cur), make_bss(2, 2437, -4000, NULL, 0),
	              make_bss(3, 2462, -6500, NULL, 0), make_bss(4, 2462, -6000, NULL, 0), NULL);
	WifiRoamContext ctx = {.trigger = WIFI_ROAM_TRIGGER_BTM_IMMINENT,
	                       .current = cur,
	                       .current_bssid = cur->bssid,
	                       .current_signal = -5000,
	                       .btm_list = list,
	                       .btm_valid = TRUE,
	                       .now_us = NOW_US};
	const gchar *why;
	WifiBss *got;

	/* 3 is preferred over 4 by the AP: its preference wins over a better
	 * signal while the list is valid; 2, the strongest, is unlisted. */
	add_neighbor(list, 3, 200);
	add_neighbor(list, 4, 100);
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 3);
	/* Expired: the list is advisory, the signal decides (2 by 25 dB). */
	ctx.btm_valid = FALSE;
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 2);
	/* Advisory, the preference still counts for up to 10 dB, no more:
	 * 4 (-60 dBm, 100: +3.9 dB) beats 3 (-65 dBm, 200: +7.8 dB). */
	g_ptr_array_remove_index(t, 1);
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 4);
	/* Abridged and valid: an unlisted BSS is excluded. */
	ctx.btm_valid = TRUE;
	ctx.btm_abridged = TRUE;
	g_ptr_array_add(t, make_bss(5, 2412, -3000, NULL, 0));
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 3);
	/* Preference 0 is the disallow list: never, valid or not. */
	g_array_index(list, WifiNeighbor, 0).preference = 0;
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 4);
	ctx.btm_valid = FALSE;
	got = wifi_roam_choose(&ctx, t, &why);
	g_assert_cmpuint(got->bssid[4], ==, 5);
	g_array_index(list, WifiNeighbor, 1).preference = 0;
	ctx.btm_valid = TRUE;
	g_assert_null(wifi_roam_choose(&ctx, t, &why));
}

static void
test_avoid_list(void)
{
	g_autoptr(WifiRoamAvoid) avoid = wifi_roam_avoid_new();
	guint8 a[6] = {2, 0, 0, 0, 1, 0}, b[6] = {2, 0, 0, 0, 2, 0};

	g_assert_cmpint(wifi_roam_avoid_lookup(avoid, a, NOW_US), ==, WIFI_ROAM_AVOID_NONE);
	wifi_roam_avoid_add(avoid, a, WIFI_ROAM_AVOID_BUSY, NOW_US, 30 * SEC);
	wifi_roam_avoid_add(avoid, b, WIFI_ROAM_AVOID_BTM_LEFT, NOW_US, 10 * SEC);
	g_assert_cmpint(wifi_roam_avoid_lookup(avoid, a, NOW_US), ==, WIFI_ROAM_AVOID_BUSY);
	/* Renewed with a shorter time: the later expiry stays, the newer
	 * reason wins. */
	wifi_roam_avoid_add(avoid, a, WIFI_ROAM_AVOID_FAILED, NOW_US + SEC, 5 * SEC);
	g_assert_cmpint(wifi_roam_avoid_lookup(avoid, a, NOW_US + 20 * SEC), ==,
	                WIFI_ROAM_AVOID_FAILED);
	g_assert_cmpint(wifi_roam_avoid_lookup(avoid, b, NOW_US + 10 * SEC), ==,
	                WIFI_ROAM_AVOID_NONE);
	g_assert_cmpint(wifi_roam_avoid_lookup(avoid, a, NOW_US + 30 * SEC), ==,
	                WIFI_ROAM_AVOID_NONE);
	g_assert_cmpstr(wifi_roam_avoid_reason_to_string(WIFI_ROAM_AVOID_BUSY), ==, "busy");
	for (guint r = 0; r <= WIFI_ROAM_AVOID_LAST; r++)
		g_assert_cmpstr(wifi_roam_avoid_reason_to_string(r), !=, "unknown");
	for (guint t = 0; t <= WIFI_ROAM_TRIGGER_LAST; t++)
		g_assert_cmpstr(wifi_roam_trigger_to_string(t), !=, "unknown");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/roam-choice/score", test_score);
	g_test_add_func("/wifi/roam-choice/margin", test_margin);
	g_test_add_func("/wifi/roam-choice/current-and-avoided", test_current_and_avoided);
	g_test_add_func("/wifi/roam-choice/btm-list", test_btm_list);
	g_test_add_func("/wifi/roam-choice/avoid-list", test_avoid_list);
	return g_test_run();
}
