/* rsn.h - what a WPA2-PSK connect sends to nl80211: the suites chosen from
 * the access point's RSN element, our RSN element, and the messages for
 * CMD_CONNECT's security attributes, EAPOL over the control port, keys
 * (NEW_KEY) and the authorized port (SET_STATION).
 */
#pragma once

#include "bss.h"
#include "nl80211.h"
#include "rsn-handshake.h"
#include "rsn-kde.h"

G_BEGIN_DECLS

#define WIFI_ETH_P_PAE 0x888e

typedef struct {
	guint akm;             /* WifiAkmSuite */
	guint pairwise_cipher; /* WifiCipherSuite */
	guint group_cipher;
	guint8 own_rsne[257]; /* as sent in the association request */
	gsize own_rsne_len;
	const guint8 *ap_rsne; /* in the BSS's ie_data (keep the BSS alive) */
	gsize ap_rsne_len;
} WifiRsnPlan;

/* Picks PSK (or PSK-SHA256) and CCMP from the BSS's RSN element. Fails
 * with JOIND_ERROR_NOT_SUPPORTED for what joind does not do yet
 * (management frame protection required, no CCMP, no PSK AKM). */
gboolean wifi_rsn_plan(const WifiBss *bss, WifiRsnPlan *plan, GError **error);

/* The RSN attributes of CMD_CONNECT, with the control port over nl80211. */
void wifi_rsn_put_connect(struct nl_msg *msg, const WifiRsnPlan *plan);

struct nl_msg *wifi_rsn_msg_eapol(WifiNl *nl, guint32 ifindex, const guint8 *aa,
                                  const guint8 *frame, gsize len, gboolean no_encrypt);
struct nl_msg *wifi_rsn_msg_new_key(WifiNl *nl, guint32 ifindex, const WifiHandshakeKey *key);
struct nl_msg *wifi_rsn_msg_authorize(WifiNl *nl, guint32 ifindex, const guint8 *aa);

/* "aa:bb:cc:dd:ee:ff" -> 6 octets. */
gboolean wifi_parse_address(const gchar *text, guint8 addr[6]);

G_END_DECLS
