/* rsn-authenticator.h - the authenticator side of the IEEE 802.11 4-way
 * handshake and group key handshake (IEEE 802.11-2020 12.7.6 and 12.7.7):
 * what an access point runs with each associated station, and what each
 * peer of an RSN ad hoc network runs beside its supplicant. Like the
 * supplicant (rsn-handshake.h) it has no radio and no timer: the owner
 * feeds it the station's EAPOL-Key frames and calls
 * wifi_authenticator_timeout() when its retransmission timer fires; it
 * answers through the same callbacks (frames to send, the pairwise key to
 * install, state changes).
 *
 *   idle --start/msg1--> wait-msg2 --msg2/msg3--> wait-msg4 --msg4, TK--> complete
 *   complete --rekey/group msg1--> wait-group-msg2 --group msg2--> complete
 *   any --(message 2's RSNE differs, retries exhausted)--> failed
 *
 * A frame whose replay counter, MIC or key information is wrong is dropped
 * with a GError and changes nothing: a forged or stale frame cannot move
 * the handshake. Each timeout resends the message waited on with the next
 * replay counter; after WIFI_AUTHENTICATOR_TRIES sends the handshake fails
 * with the cause its evidence points to (a station whose message 2 failed
 * its MIC has another passphrase).
 *
 * Secrets (PMK, PTK) are never logged and are wiped on free. The group
 * keys are the access point's, shared by all its stations: the
 * authenticator reads them when it builds message 3 or a group message 1.
 */
#pragma once

#include <glib.h>

#include "rsn-handshake.h"
#include "rsn-kde.h"

G_BEGIN_DECLS

/* Sends of one message before the handshake gives up (hostapd's
 * dot11RSNAConfigPairwiseUpdateCount and GroupUpdateCount are 4). */
#define WIFI_AUTHENTICATOR_TRIES 4u

typedef enum {
	WIFI_AUTHENTICATOR_STATE_IDLE,            /* made, message 1 not sent yet */
	WIFI_AUTHENTICATOR_STATE_WAIT_MSG2,       /* message 1 sent */
	WIFI_AUTHENTICATOR_STATE_WAIT_MSG4,       /* message 3 sent */
	WIFI_AUTHENTICATOR_STATE_COMPLETE,        /* TK installed: authorise the port */
	WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2, /* group message 1 sent */
	WIFI_AUTHENTICATOR_STATE_FAILED,          /* terminal: deauthenticate the station */
	/* the last value, which name tables are checked against */
	WIFI_AUTHENTICATOR_STATE_LAST = WIFI_AUTHENTICATOR_STATE_FAILED,
} WifiAuthenticatorState;

/* The access point's group keys. gtk_id is 1 or 2 (the IDs alternate at
 * each rotation); igtk_id 4 or 5, with igtk_len 0 when management frame
 * protection is off. gtk_rsc is the GTK's transmit sequence counter as
 * message 3 tells it to a joining station (8 octets, least significant
 * first); ipn the IGTK's. */
typedef struct {
	guint gtk_id;
	guint8 gtk[WIFI_GTK_MAX_LEN];
	gsize gtk_len;
	guint8 gtk_rsc[8];
	guint igtk_id;
	guint8 igtk[WIFI_IGTK_MAX_LEN];
	gsize igtk_len;
	guint8 ipn[WIFI_IPN_LEN];
} WifiGroupKeys;

/* Fresh random group keys for these ciphers (group_mgmt 0: no IGTK), with
 * the key IDs the previous keys (NULL: none) did not use and counters 0.
 * Wipe with joind_secret_clear(). */
gboolean wifi_group_keys_generate(WifiGroupKeys *keys, guint group_cipher, guint group_mgmt_cipher,
                                  const WifiGroupKeys *previous, GError **error);

/* What the association negotiated. Buffers are copied by _new(), except
 * group_keys, which the access point owns and keeps current for as long
 * as the authenticator lives. */
typedef struct {
	guint akm;                 /* WifiAkmSuite */
	guint pairwise_cipher;     /* CCMP, GCMP, CCMP-256 or GCMP-256 */
	guint group_cipher;        /* the same set */
	guint group_mgmt_cipher;   /* a BIP suite when MFP was negotiated, else 0 */
	guint8 aa[WIFI_ADDR_LEN];  /* our address (the BSSID) */
	guint8 spa[WIFI_ADDR_LEN]; /* the station's */
	const guint8 *pmk;         /* the PSK, or the PMK from SAE or OWE */
	gsize pmk_len;
	/* Optional: message 1 names it in a PMKID KDE (SAE's, as hostapd). */
	const guint8 *pmkid;
	/* Whole elements. own_*: ours, as in the beacon, repeated in message
	 * 3. sta_*: from the station's (Re)Association Request, which message
	 * 2 must repeat. The RSNXEs are optional. */
	const guint8 *own_rsne;
	gsize own_rsne_len;
	const guint8 *own_rsnxe;
	gsize own_rsnxe_len;
	const guint8 *sta_rsne;
	gsize sta_rsne_len;
	const guint8 *sta_rsnxe;
	gsize sta_rsnxe_len;
	/* Optional: message 3 carries a Transition Disable KDE with these
	 * bits (WIFI_TRANSITION_DISABLE_*) when not 0. */
	guint8 transition_disable;
	const WifiGroupKeys *group_keys;
} WifiAuthenticatorConfig;

/* send: a frame for the station (unencrypted while
 * wifi_authenticator_has_ptk() is FALSE). install_key: the TK, with addr
 * the station's. state_changed: optional; to complete means authorise. */
typedef struct {
	void (*send)(const guint8 *frame, gsize len, gpointer user_data);
	void (*install_key)(const WifiHandshakeKey *key, gpointer user_data);
	void (*state_changed)(WifiAuthenticatorState old_state, WifiAuthenticatorState new_state,
	                      gpointer user_data);
} WifiAuthenticatorCallbacks;

typedef struct _WifiAuthenticator WifiAuthenticator;

/* Checks the configuration (INVALID_ARGS, UNSUPPORTED); starts idle. */
WifiAuthenticator *wifi_authenticator_new(const WifiAuthenticatorConfig *config,
                                          const WifiAuthenticatorCallbacks *callbacks,
                                          gpointer user_data, GError **error);
void wifi_authenticator_free(WifiAuthenticator *auth);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiAuthenticator, wifi_authenticator_free)

/* Sends message 1 with a fresh ANonce. */
gboolean wifi_authenticator_start(WifiAuthenticator *auth, GError **error);
/* Feeds one EAPOL frame from the station (IEEE 802.1X header included). */
WifiHandshakeRx wifi_authenticator_rx(WifiAuthenticator *auth, const guint8 *frame, gsize len,
                                      GError **error);
/* The owner's retransmission timer fired: resends the message waited on,
 * or fails (FALSE, error says why) after WIFI_AUTHENTICATOR_TRIES sends.
 * TRUE with nothing sent when nothing is waited on. */
gboolean wifi_authenticator_timeout(WifiAuthenticator *auth, GError **error);
/* The group keys changed: sends group message 1 (complete only; else
 * the next message 3 carries them). */
gboolean wifi_authenticator_rekey_group(WifiAuthenticator *auth, GError **error);

WifiAuthenticatorState wifi_authenticator_get_state(const WifiAuthenticator *auth);
/* Whether the TK is installed: later frames go out encrypted. */
gboolean wifi_authenticator_has_ptk(const WifiAuthenticator *auth);
const gchar *wifi_authenticator_state_to_string(WifiAuthenticatorState state);

/* Fixed ANonce and first replay counter instead of random and 0: for
 * tests and for replaying captured handshakes only. */
void wifi_authenticator_set_anonce(WifiAuthenticator *auth, const guint8 anonce[WIFI_NONCE_LEN],
                                   guint64 last_replay_counter);

G_END_DECLS
