/* fake-bss.c - scan results as the kernel dumps them (see fake-bss.h). */
#include "fake-bss.h"

#include <string.h>
#include <time.h>

#include "ie.h"

guint64
fake_bss_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (guint64)ts.tv_sec * G_GUINT64_CONSTANT(1000000000) + (guint64)ts.tv_nsec;
}

/* SSID, DS parameter set (the channel), and RSN with CCMP and PSK. */
static GByteArray *
beacon_ies(const FakeBss *bss)
{
	static const guint8 rsn_psk[] = {WIFI_IE_RSN, 20,   0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
	                                 0x01,        0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
	                                 0x00,        0x0f, 0xac, 0x02, 0x00, 0x00};
	GByteArray *ies = g_byte_array_new();
	guint8 ssid_hdr[2] = {WIFI_IE_SSID, (guint8)strlen(bss->ssid)};
	guint8 ds[3] = {WIFI_IE_DS_PARAMETER, 1, 0};

	ds[2] = (guint8)(bss->freq < 2484 ? (bss->freq - 2407) / 5 : (bss->freq - 5000) / 5);
	g_byte_array_append(ies, ssid_hdr, 2);
	g_byte_array_append(ies, (const guint8 *)bss->ssid, ssid_hdr[1]);
	g_byte_array_append(ies, ds, sizeof(ds));
	if (bss->psk)
		g_byte_array_append(ies, rsn_psk, sizeof(rsn_psk));
	return ies;
}

struct nl_msg *
fake_bss_entry(const FakeBss *bss)
{
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_NEW_SCAN_RESULTS);
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, bss->high, bss->last};
	g_autoptr(GByteArray) ies = beacon_ies(bss);
	struct nlattr *nest;

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, 7);
	nest = nla_nest_start(msg, NL80211_ATTR_BSS);
	nla_put(msg, NL80211_BSS_BSSID, sizeof(bssid), bssid);
	nla_put_u32(msg, NL80211_BSS_FREQUENCY, bss->freq);
	nla_put_u32(msg, NL80211_BSS_SIGNAL_MBM, (guint32)bss->signal_mbm);
	nla_put_u16(msg, NL80211_BSS_CAPABILITY, bss->psk ? 0x0011 : 0x0001);
	if (!bss->no_ies)
		nla_put(msg, NL80211_BSS_INFORMATION_ELEMENTS, (int)ies->len, ies->data);
	if (bss->last_seen != 0)
		nla_put_u64(msg, NL80211_BSS_LAST_SEEN_BOOTTIME, bss->last_seen);
	else
		nla_put_u32(msg, NL80211_BSS_SEEN_MS_AGO, bss->seen_ms_ago);
	nla_nest_end(msg, nest);
	return msg;
}

void
fake_bss_answer_dump(FakeNl *fake, FakeNlRequest *req, const FakeBss *bsses, guint n)
{
	g_assert_cmpuint(req->cmd, ==, NL80211_CMD_GET_SCAN);
	for (guint i = 0; i < n; i++)
		fake_nl_reply(fake, req, fake_bss_entry(&bsses[i]));
	fake_nl_done(fake, req, 0);
}

void
fake_bss_complete_scan(FakeNl *fake, WifiNl *nl, const FakeBss *bsses, guint n)
{
	fake_nl_done(fake, fake_nl_expect(fake, NL80211_CMD_TRIGGER_SCAN), 0);
	fake_nl_event(nl, fake_nl_iface_event_new(NL80211_CMD_NEW_SCAN_RESULTS, 7));
	fake_bss_answer_dump(fake, fake_nl_expect(fake, NL80211_CMD_GET_SCAN), bsses, n);
}
