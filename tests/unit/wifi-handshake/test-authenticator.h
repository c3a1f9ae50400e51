/* test-authenticator.h - a small model of an access point's authenticator
 * (the other side of the 4-way and group key handshakes), built from the
 * library's primitives, for driving the supplicant in tests. It behaves
 * like hostapd where that matters: it checks message 2's MIC and answers a
 * bad one by resending message 1; each frame it sends takes the next
 * replay counter. Knobs make it misbehave on purpose.
 */
#pragma once

#include <glib.h>

#include "ft-keys.h"
#include "rsn-keys.h"

G_BEGIN_DECLS

typedef struct {
	guint akm, pairwise, group, group_mgmt;
	guint8 aa[WIFI_ADDR_LEN], spa[WIFI_ADDR_LEN];
	guint8 pmk[64]; /* the AKM's PMK length (wifi_akm_info(); OWE's by group) */
	gsize pmk_len;
	GBytes *rsne;   /* the AP's RSNE, as in its beacon */
	GBytes *rsnxe;  /* optional */
	GBytes *sta_ie; /* if set, message 2's key data must equal it */
	guint8 protocol_version;

	guint64 counter; /* the last replay counter used */
	guint anonce_seed;
	guint8 anonce[WIFI_NONCE_LEN];
	guint8 snonce[WIFI_NONCE_LEN];
	gboolean have_ptk;
	WifiPtk ptk;

	guint8 gtk[32];
	guint gtk_id;
	guint8 gtk_rsc[8];
	guint8 igtk[32];
	guint igtk_id;
	guint8 ipn[6];

	/* Message 1 carries this PMKID KDE when set (as an AP does for an
	 * 802.1X PMKSA). */
	const guint8 *msg1_pmkid;
	/* Message 3 carries a Transition Disable KDE with these bits when
	 * not 0 (hostapd's transition_disable). */
	guint8 transition_disable;
	/* Fast transition's initial mobility domain association: the PTK
	 * comes from this hierarchy's PMK-R1 (pmk is that PMK-R1), and
	 * message 3 carries ft_ies (the MDE and FTE of the association
	 * response) after its KDEs; msg3_rsne names PMKR1Name. */
	const WifiFtKeys *ft;
	GBytes *ft_ies;

	/* Misbehaviour for msg3 and group msg1. */
	GBytes *msg3_rsne;       /* replaces the RSNE in message 3 */
	gboolean omit_rsnxe;     /* leave the RSNXE out of message 3 */
	gboolean omit_gtk;       /* no GTK KDE */
	gboolean omit_igtk;      /* no IGTK KDE although MFP is on */
	gboolean plain_key_data; /* key data not encrypted */
	gboolean wrong_kek;      /* key data encrypted with another KEK */
} TestAuth;

/* rsne: the AP's RSNE (a whole element). pmk: as long as akm's (32
 * octets, 48 for the 192-bit AKM). */
TestAuth *test_auth_new(guint akm, guint pairwise, guint group, guint group_mgmt, const guint8 *pmk,
                        const gchar *rsne_hex);
void test_auth_free(TestAuth *a);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TestAuth, test_auth_free)

/* Message 1 with a fresh ANonce; message 1 again with the same ANonce. */
GBytes *test_auth_msg1(TestAuth *a);
GBytes *test_auth_msg1_again(TestAuth *a);
/* Checks message 2 like an authenticator (fields, MIC with the PTK from the
 * SNonce) and keeps the PTK. FALSE with a reason in *why on failure. */
gboolean test_auth_rx_msg2(TestAuth *a, GBytes *frame, gchar **why);
/* Message 3 for the current ANonce (MIC with the PTK from message 2, or the
 * one derived from snonce if message 2 did not verify). */
GBytes *test_auth_msg3(TestAuth *a);
gboolean test_auth_rx_msg4(TestAuth *a, GBytes *frame, gchar **why);
/* Group message 1 carrying the current GTK (and IGTK with MFP). */
GBytes *test_auth_group_msg1(TestAuth *a);
gboolean test_auth_rx_group_msg2(TestAuth *a, GBytes *frame, gchar **why);
/* Picks a new GTK (and IGTK) with the other key ID. */
void test_auth_rekey_group(TestAuth *a);
/* Derives the PTK from a given SNonce without checking message 2: what an
 * AP with another passphrase would use for its message 3. */
void test_auth_take_snonce(TestAuth *a, GBytes *msg2);

G_END_DECLS
