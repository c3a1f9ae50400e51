/* ap-fixture.h - the access point's unit tests' fixture: a WifiAp on a
 * fake nl80211 (fake-nl.c) and a radio with 2.4 GHz channels 1..13 (12
 * disabled, 13 passive), the client's frames built as a station sends
 * them, and the station's own supplicant as the client of the 4-way
 * handshake. */
#pragma once

#include "ap.h"
#include "fake-nl.h"
#include "rsn-handshake.h"

G_BEGIN_DECLS

#define IFINDEX 7

extern const guint8 bssid[6];
extern const guint8 sta_mac[6];
extern const guint8 other_mac[6];
/* The RSNEs a client sends: WPA2 without and with MFP capability, and one
 * asking for SAE. */
extern const guint8 rsne_psk[22];
extern const guint8 rsne_mfpc[22];
extern const guint8 rsne_sae[22];

typedef struct {
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	WifiAp *ap;
	WifiHandshake *sta;
	GQueue to_ap; /* GBytes: the supplicant's EAPOL frames */
	GString *log; /* "+mac" / "-mac" per station joining and leaving, state names */
	guint sta_keys;
	gpointer data; /* a test's own */
} Fixture;

void set_up(Fixture *f, gconstpointer data);
void tear_down(Fixture *f, gconstpointer data);
/* An AP configuration on channel 6 (open without a secret). */
WifiApConfig config(const gchar *ssid, const gchar *secret);
/* Starts the AP, answering every step; checks START_AP's attributes and
 * the client isolation (which a hidden AP's driver refuses: the AP starts
 * regardless). */
void start(Fixture *f, const WifiApConfig *c);
/* start()'s answers, for an AP started another way with c. */
void answer_start(Fixture *f, const WifiApConfig *c);
/* A management frame (consumed) from the station, as nl80211 passes it up. */
void rx_frame(Fixture *f, GBytes *frame);
/* A frame from sa: the fixed fields (and, for a probe, the elements) in
 * hex; an association request also names the SSID and rates, then rsne
 * (any elements: an RSNE and an RSNXE). */
GBytes *request_from(const guint8 sa[6], guint8 subtype, const gchar *fixed_hex, const guint8 *rsne,
                     gsize rsne_len);
GBytes *request(guint8 subtype, const gchar *fixed_hex, const guint8 *rsne, gsize rsne_len);
/* The oldest frame the AP transmitted (CMD_FRAME), answered (and, when
 * the AP wants it, acknowledged by the station). */
GBytes *tx_frame(Fixture *f);
/* The kernel's transmission status of the frame with this cookie: acked. */
void tx_status(Fixture *f, guint64 cookie);
void expect_answer(Fixture *f, gboolean assoc, guint16 status);

/* The client's supplicant: PSK from a passphrase, or as set up. */
typedef struct {
	guint akm;
	const guint8 *pmk; /* 32 octets */
	const guint8 *pmkid;
	const guint8 *rsne, *rsnxe;       /* what it sends (rsnxe may be NULL) */
	const guint8 *ap_rsne, *ap_rsnxe; /* the AP's beacon's */
} ClientSetup;
void client_start(Fixture *f, const ClientSetup *cs);
void client_new(Fixture *f, const gchar *passphrase, const guint8 *rsne, gsize rsne_len);
/* EAPOL between the AP (CONTROL_PORT_FRAME requests) and the client
 * (CONTROL_PORT_FRAME events). */
void eapol_to_client(Fixture *f, gboolean encrypted);
void eapol_to_ap(Fixture *f);
/* An association request with these elements up to the response. */
void assoc(Fixture *f, const guint8 *ies, gsize ies_len, gboolean mfp);
/* The 4-way handshake, the TK and the port. */
void keys(Fixture *f);
/* Open system authentication, association and keys with a WPA2 client. */
void join(Fixture *f, const guint8 *rsne, gsize rsne_len, gboolean mfp);

G_END_DECLS
