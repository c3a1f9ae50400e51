/* rsn.c - nl80211 messages of a WPA2-PSK connection (see rsn.h). */
#include "rsn.h"

#include <netlink/attr.h>
#include <stdio.h>
#include <string.h>

#include "joind-error.h"

static guint32
selector(guint suite)
{
	return 0x000fac00u | suite;
}

static gboolean
has_suite(const guint32 *list, guint n, guint suite)
{
	for (guint i = 0; i < n; i++) {
		if (list[i] == selector(suite))
			return TRUE;
	}
	return FALSE;
}

gboolean
wifi_rsn_plan(const WifiBss *bss, WifiRsnPlan *plan, GError **error)
{
	gsize len = 0, body_len = 0;
	const guint8 *ies = g_bytes_get_data(bss->ie_data, &len);
	const guint8 *body = wifi_ie_find(ies, len, WIFI_IE_RSN, &body_len);
	WifiRsne ap, own = {0};

	memset(plan, 0, sizeof(*plan));
	if (body == NULL || !wifi_rsne_parse(body - 2, body_len + 2, &ap, NULL)) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    "The access point has no usable RSN element.");
		return FALSE;
	}
	plan->ap_rsne = body - 2;
	plan->ap_rsne_len = body_len + 2;
	if (has_suite(ap.akms, ap.n_akms, WIFI_AKM_SUITE_PSK))
		plan->akm = WIFI_AKM_SUITE_PSK;
	else if (has_suite(ap.akms, ap.n_akms, WIFI_AKM_SUITE_PSK_SHA256))
		plan->akm = WIFI_AKM_SUITE_PSK_SHA256;
	if (plan->akm == 0 || !has_suite(ap.pairwise, ap.n_pairwise, WIFI_CIPHER_SUITE_CCMP) ||
	    (ap.capabilities & WIFI_RSN_CAP_MFPR) != 0 ||
	    (ap.group_cipher & 0xffffff00u) != 0x000fac00u) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    "joind cannot join this access point yet (it needs an AKM "
		                    "other than PSK, a cipher other than CCMP, or requires "
		                    "management frame protection).");
		return FALSE;
	}
	plan->pairwise_cipher = WIFI_CIPHER_SUITE_CCMP;
	plan->group_cipher = ap.group_cipher & 0xff;
	own.version = 1;
	own.group_cipher = ap.group_cipher;
	own.pairwise[0] = selector(plan->pairwise_cipher);
	own.n_pairwise = 1;
	own.akms[0] = selector(plan->akm);
	own.n_akms = 1;
	plan->own_rsne_len = wifi_rsne_write(&own, NULL, plan->own_rsne);
	return TRUE;
}

void
wifi_rsn_put_connect(struct nl_msg *msg, const WifiRsnPlan *plan)
{
	nla_put(msg, NL80211_ATTR_IE, (int)plan->own_rsne_len, plan->own_rsne);
	nla_put_flag(msg, NL80211_ATTR_PRIVACY);
	nla_put_u32(msg, NL80211_ATTR_WPA_VERSIONS, NL80211_WPA_VERSION_2);
	nla_put_u32(msg, NL80211_ATTR_CIPHER_SUITES_PAIRWISE,
	            wifi_cipher_suite_selector(plan->pairwise_cipher));
	nla_put_u32(msg, NL80211_ATTR_CIPHER_SUITE_GROUP,
	            wifi_cipher_suite_selector(plan->group_cipher));
	nla_put_u32(msg, NL80211_ATTR_AKM_SUITES, selector(plan->akm));
	/* The port stays closed until SET_STATION authorizes it; EAPOL
	 * travels over this netlink socket, which owns the connection. */
	nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, WIFI_ETH_P_PAE);
	nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_OVER_NL80211);
	nla_put_flag(msg, NL80211_ATTR_SOCKET_OWNER);
}

struct nl_msg *
wifi_rsn_msg_eapol(WifiNl *nl, guint32 ifindex, const guint8 *aa, const guint8 *frame, gsize len,
                   gboolean no_encrypt)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_CONTROL_PORT_FRAME, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_FRAME, (int)len, frame);
	nla_put(msg, NL80211_ATTR_MAC, 6, aa);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, WIFI_ETH_P_PAE);
	if (no_encrypt)
		nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT);
	return msg;
}

struct nl_msg *
wifi_rsn_msg_new_key(WifiNl *nl, guint32 ifindex, const WifiHandshakeKey *key)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_NEW_KEY, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_KEY_DATA, (int)key->key_len, key->key);
	nla_put_u8(msg, NL80211_ATTR_KEY_IDX, (guint8)key->key_id);
	nla_put_u32(msg, NL80211_ATTR_KEY_CIPHER, wifi_cipher_suite_selector(key->cipher));
	if (key->seq_len > 0)
		nla_put(msg, NL80211_ATTR_KEY_SEQ, (int)key->seq_len, key->seq);
	if (key->kind == WIFI_KEY_KIND_PAIRWISE && key->addr != NULL)
		nla_put(msg, NL80211_ATTR_MAC, 6, key->addr);
	return msg;
}

struct nl_msg *
wifi_rsn_msg_authorize(WifiNl *nl, guint32 ifindex, const guint8 *aa)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_SET_STATION, 0);
	struct nl80211_sta_flag_update flags = {
	        .mask = 1u << NL80211_STA_FLAG_AUTHORIZED,
	        .set = 1u << NL80211_STA_FLAG_AUTHORIZED,
	};

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, aa);
	nla_put(msg, NL80211_ATTR_STA_FLAGS2, sizeof(flags), &flags);
	return msg;
}

gboolean
wifi_parse_address(const gchar *text, guint8 addr[6])
{
	/* "aa:bb:cc:dd:ee:ff", as the core formats addresses. */
	if (text == NULL || strlen(text) != 17)
		return FALSE;
	for (guint i = 0; i < 6; i++) {
		const gchar *p = text + 3 * i;
		gint hi = g_ascii_xdigit_value(p[0]);
		gint lo = g_ascii_xdigit_value(p[1]);

		if (hi < 0 || lo < 0 || (i < 5 && p[2] != ':'))
			return FALSE;
		addr[i] = (guint8)((hi << 4) | lo);
	}
	return TRUE;
}
