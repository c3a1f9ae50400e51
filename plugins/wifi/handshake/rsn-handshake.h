/* rsn-handshake.h - the supplicant side of the IEEE 802.11 4-way handshake
 * and group key handshake (IEEE 802.11-2020 12.7.6 and 12.7.7) as an
 * explicit state machine, with no radio: the station feeds it the EAPOL-Key
 * frames it receives, and it answers through callbacks with frames to send
 * and keys to install (which the station turns into nl80211 NEW_KEY and
 * SET_KEY).
 *
 *   wait-msg1 --msg1/msg2--> wait-msg3 --msg3/msg4, install--> complete
 *                               ^  |msg1 again: msg2 again        |
 *                               |  v                              |
 *                               +---- msg1 (PTK rekey) ----------+
 *   complete --group msg1/group msg2, install GTK--> complete
 *   any --(RSNE mismatch, bad key data, abort)--> failed
 *
 * Frames that fail a check the standard says to discard silently (replay
 * counter, MIC, unexpected message) are dropped and reported to the caller
 * with a GError, without changing state; the access point retransmits or
 * gives up. When the station's handshake timer fires or the access point
 * deauthenticates, wifi_handshake_abort() turns the evidence gathered so far
 * into the error a person reads: "the passphrase is most likely wrong" when
 * the access point kept resending message 1 or message 3 failed its MIC.
 * Those signs can be forged by anyone in radio range, so an end after
 * message 2 is NO_MSG3 (a suspicion, for the caller to weigh over several
 * attempts) unless the access point's deauthentication gives reason 14
 * (MIC failure): WRONG_PASSPHRASE.
 *
 * Secrets (PMK, PTK, GTK, IGTK) are never logged and are wiped on free.
 * Callbacks must not free the handshake; free it after wifi_handshake_rx()
 * or wifi_handshake_abort() returns.
 */
#pragma once

#include <glib.h>

#include "ft-keys.h"
#include "ft-transition.h"
#include "rsn-keys.h"
#include "rsn-suites.h"

G_BEGIN_DECLS

typedef enum {
	WIFI_HANDSHAKE_STATE_WAIT_MSG1, /* associated, waiting for message 1 */
	WIFI_HANDSHAKE_STATE_WAIT_MSG3, /* message 2 sent, waiting for message 3 */
	WIFI_HANDSHAKE_STATE_COMPLETE,  /* message 4 sent, keys installed */
	WIFI_HANDSHAKE_STATE_FAILED,    /* terminal: the station deauthenticates */
	/* the last value, which name tables are checked against */
	WIFI_HANDSHAKE_STATE_LAST = WIFI_HANDSHAKE_STATE_FAILED,
} WifiHandshakeState;

typedef enum {
	WIFI_HANDSHAKE_RX_ACCEPTED, /* the frame was processed */
	WIFI_HANDSHAKE_RX_DROPPED,  /* discarded (error says why); state unchanged */
	WIFI_HANDSHAKE_RX_FAILED,   /* the handshake failed (error says why) */
} WifiHandshakeRx;

typedef enum {
	WIFI_HANDSHAKE_ABORT_TIMEOUT,         /* the station's handshake timer fired */
	WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED, /* deauthenticated or disassociated */
} WifiHandshakeAbort;

typedef enum {
	WIFI_KEY_KIND_PAIRWISE,   /* the TK: key index 0, the AA as peer */
	WIFI_KEY_KIND_GROUP,      /* the GTK: key index 1..3 */
	WIFI_KEY_KIND_GROUP_MGMT, /* the IGTK: key index 4..5 */
} WifiKeyKind;

/* A key to install. Pointers are valid during the callback only. */
typedef struct {
	WifiKeyKind kind;
	guint key_id;
	guint cipher; /* WifiCipherSuite; wifi_cipher_suite_selector() for nl80211 */
	const guint8 *key;
	gsize key_len;
	/* NL80211_KEY_SEQ: the GTK's receive sequence counter (Key RSC) or the
	 * IGTK's IPN, 6 octets, least significant first; empty for the TK. */
	const guint8 *seq;
	gsize seq_len;
	const guint8 *addr; /* the AA for the TK, NULL for group keys */
} WifiHandshakeKey;

typedef struct {
	/* An EAPOL frame (IEEE 802.1X header included) for the access point. */
	void (*send)(const guint8 *frame, gsize len, gpointer user_data);
	void (*install_key)(const WifiHandshakeKey *key, gpointer user_data);
	/* Optional; also called for complete -> complete (a group rekey). */
	void (*state_changed)(WifiHandshakeState old_state, WifiHandshakeState new_state,
	                      gpointer user_data);
} WifiHandshakeCallbacks;

/* What the association negotiated. Buffers are copied by _new(). */
typedef struct {
	guint akm;                 /* WifiAkmSuite */
	guint pairwise_cipher;     /* CCMP, GCMP, CCMP-256 or GCMP-256 */
	guint group_cipher;        /* the same set */
	guint group_mgmt_cipher;   /* a BIP suite when MFP was negotiated, else 0 */
	guint8 spa[WIFI_ADDR_LEN]; /* our address */
	guint8 aa[WIFI_ADDR_LEN];  /* the access point's (the BSSID) */
	const guint8 *pmk;         /* the PSK, or the PMK from EAP or SAE */
	gsize pmk_len;
	/* Whole elements (ID and length included). own_*: as sent in the
	 * (Re)Association Request, repeated in message 2. ap_*: from the
	 * beacon or probe response, which message 3 must match. The RSNXEs
	 * are optional. */
	const guint8 *own_rsne;
	gsize own_rsne_len;
	const guint8 *own_rsnxe;
	gsize own_rsnxe_len;
	const guint8 *ap_rsne;
	gsize ap_rsne_len;
	const guint8 *ap_rsnxe;
	gsize ap_rsnxe_len;
	/* Optional: the PMKID of pmk. A message 1 whose PMKID KDE names
	 * another PMK is dropped with PMKID_MISMATCH (the access point keys
	 * with a PMK we do not have). */
	const guint8 *pmkid;
	/* Fast transition's initial mobility domain association (an FT AKM):
	 * the key hierarchy derived for the association response's key
	 * holders, pmk being its PMK-R1, and that response's Mobility Domain
	 * and Fast BSS Transition elements, which message 2 repeats after our
	 * RSNE (naming PMKR1Name) and message 3 must carry unchanged. NULL for
	 * the other AKMs. */
	const WifiFtKeys *ft;
	const guint8 *ft_mde;
	gsize ft_mde_len;
	const guint8 *ft_fte;
	gsize ft_fte_len;
} WifiHandshakeConfig;

typedef struct _WifiHandshake WifiHandshake;

/* Checks the configuration (INVALID_ARGS, UNSUPPORTED) and starts in
 * wait-msg1. */
WifiHandshake *wifi_handshake_new(const WifiHandshakeConfig *config,
                                  const WifiHandshakeCallbacks *callbacks, gpointer user_data,
                                  GError **error);
void wifi_handshake_free(WifiHandshake *hs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiHandshake, wifi_handshake_free)

WifiHandshakeState wifi_handshake_get_state(const WifiHandshake *hs);
/* Whether a pairwise key is installed (from the first message 3 on). A
 * frame sent while none is must go out unencrypted (nl80211's
 * CONTROL_PORT_NO_ENCRYPT); message 4 is sent just before the TK is
 * installed, and the messages of a PTK rekey are encrypted with the old TK. */
gboolean wifi_handshake_has_ptk(const WifiHandshake *hs);
/* The Transition Disable bits (WIFI_TRANSITION_DISABLE_*) of the verified
 * message 3s, 0 when none carried the KDE. */
guint8 wifi_handshake_get_transition_disable(const WifiHandshake *hs);
const gchar *wifi_handshake_state_to_string(WifiHandshakeState state);

/* A new PMK (and its PMKID, or NULL), after an 802.1X re-authentication:
 * the access point's next 4-way handshake keys with it. */
gboolean wifi_handshake_set_pmk(WifiHandshake *hs, const guint8 *pmk, gsize pmk_len,
                                const guint8 *pmkid, GError **error);

/* The same for fast transition (config->ft): the hierarchy EAP's new
 * MSK gave; message 2 names its PMKR1Name. */
gboolean wifi_handshake_set_ft_keys(WifiHandshake *hs, const WifiFtKeys *keys, GError **error);

/* Feeds one received EAPOL frame (IEEE 802.1X header included). */
WifiHandshakeRx wifi_handshake_rx(WifiHandshake *hs, const guint8 *frame, gsize len,
                                  GError **error);

/* The station gives up (timeout) or was deauthenticated (reason_code from
 * the frame, 0 if unknown): moves to failed and sets error to the most
 * likely cause: after message 2, NO_MSG3, or WRONG_PASSPHRASE when the
 * access point gave reason 14 (MIC failure). */
void wifi_handshake_abort(WifiHandshake *hs, WifiHandshakeAbort cause, guint16 reason_code,
                          GError **error);

/* Uses a fixed SNonce instead of a random one: for tests and for replaying
 * captured handshakes only. */
void wifi_handshake_set_snonce(WifiHandshake *hs, const guint8 snonce[WIFI_NONCE_LEN]);

/* A fast transition over the air (ft-transition.h) keyed the link: its
 * PTK and group keys are installed and the handshake is complete, so that
 * group key handshakes follow; an FT handshake (config->ft) that has not
 * completed only. */
gboolean wifi_handshake_ft_keyed(WifiHandshake *hs, const WifiPtk *ptk, const WifiFtGroupKeys *gk,
                                 GError **error);

G_END_DECLS
