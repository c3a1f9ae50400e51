/* rsn-handshake-private.h - the supplicant's handshake object, shared by
 * the files that implement it: rsn-handshake.c (the object, its state and
 * the frame dispatch), rsn-handshake-4way.c (messages 1 and 3, and the
 * evidence an abort turns into an error) and rsn-handshake-group.c (the
 * group key handshake, and the key data checks message 3 shares with it).
 * An authenticator is a handshake of its own beside these, not a mode of
 * this struct.
 */
#pragma once

#include "eapol-key.h"
#include "rsn-handshake.h"
#include "rsn-kde.h"

G_BEGIN_DECLS

#define ELEMENT_MAX 257 /* ID, length and 255 octets */
#define PMK_MAX     64
#define SEQ_LEN     6 /* the PN/IPN octets nl80211 takes for CCMP, GCMP and BIP */

struct _WifiHandshake {
	WifiHandshakeCallbacks cb;
	gpointer user_data;
	const WifiAkmInfo *akm;
	guint pairwise_cipher, group_cipher, group_mgmt_cipher;
	guint8 spa[WIFI_ADDR_LEN], aa[WIFI_ADDR_LEN];
	guint8 pmk[PMK_MAX];
	gsize pmk_len;
	guint8 pmkid[WIFI_PMKID_LEN];
	gboolean has_pmkid;
	/* own RSNE then RSNXE (FT: then the MDE and FTE): message 2's key data */
	guint8 own_ie[4 * ELEMENT_MAX];
	gsize own_ie_len;
	guint8 ap_rsne[ELEMENT_MAX];
	gsize ap_rsne_len;
	guint8 ap_rsnxe[ELEMENT_MAX];
	gsize ap_rsnxe_len;
	/* FT's initial mobility domain association (ft-keys.h). */
	gboolean ft;
	WifiFtKeys ft_keys;
	guint8 ft_mde[ELEMENT_MAX];
	gsize ft_mde_len;
	guint8 ft_fte[ELEMENT_MAX];
	gsize ft_fte_len;

	WifiHandshakeState state;
	gboolean completed_once;   /* a PTK is installed: group rekeys are allowed */
	guint8 transition_disable; /* a verified message 3's Transition Disable bits */
	gboolean snonce_fixed, have_snonce;
	guint8 snonce[WIFI_NONCE_LEN];
	guint8 anonce[WIFI_NONCE_LEN];
	WifiPtk tptk; /* derived at message 1, verified by message 3 */
	WifiPtk ptk;  /* installed */
	gboolean replay_valid;
	guint64 replay_counter; /* of the last frame whose MIC verified */
	guint8 protocol_version;

	/* Installed group keys by key ID (GTK 0..3, IGTK 4..5): a key is never
	 * reinstalled under the ID that holds it already, which would reset
	 * its receive counter and reopen the replay window (KRACK). */
	guint8 gtk[4][WIFI_GTK_MAX_LEN];
	gsize gtk_len[4];
	guint gtk_key_id; /* the last one installed */
	guint8 igtk[2][WIFI_IGTK_MAX_LEN];
	gsize igtk_len[2];

	/* Evidence for wifi_handshake_abort(), for the current 4-way handshake. */
	guint n_msg1;
	guint n_msg3_mic_failures;
};

/* The one place the state changes: logs "old -> new (reason)". */
void wifi_hs_transition(WifiHandshake *hs, WifiHandshakeState new_state, const gchar *format, ...)
        G_GNUC_PRINTF(3, 4);
/* A frame the standard says to discard: report it, keep the state. */
WifiHandshakeRx wifi_hs_drop(GError **error, WifiHandshakeErrorCode code, const gchar *format, ...)
        G_GNUC_PRINTF(3, 4);
/* Ends the handshake with failure (taken over). */
WifiHandshakeRx wifi_hs_fail(WifiHandshake *hs, GError *failure, GError **error);
WifiHandshakeRx wifi_hs_fail_new(WifiHandshake *hs, GError **error, WifiHandshakeErrorCode code,
                                 const gchar *format, ...) G_GNUC_PRINTF(4, 5);
/* The checks of a configuration the supplicant and the authenticator
 * share: the suites are ones the handshakes do and the PMK fits the AKM;
 * an element is one whole element with this ID (or absent, when not
 * required). */
gboolean wifi_hs_check_suites(guint akm, guint pairwise, guint group, guint group_mgmt,
                              const guint8 *pmk, gsize pmk_len, GError **error);
gboolean wifi_hs_check_element(const guint8 *ie, gsize len, guint8 id, gboolean required,
                               const gchar *what, GError **error);
/* Builds, signs and sends a supplicant frame (message 2, 4, group 2). */
gboolean wifi_hs_send(WifiHandshake *hs, const WifiPtk *ptk, guint16 key_info,
                      guint64 replay_counter, const guint8 *nonce, const guint8 *key_data,
                      gsize key_data_len, GError **error);
void wifi_hs_install(WifiHandshake *hs, WifiKeyKind kind, guint key_id, guint cipher,
                     const guint8 *key, gsize key_len, const guint8 *seq);

/* The 4-way handshake (rsn-handshake-4way.c). */
WifiHandshakeRx wifi_hs_rx_msg1(WifiHandshake *hs, const WifiEapolKey *key, GError **error);
WifiHandshakeRx wifi_hs_rx_msg3(WifiHandshake *hs, const guint8 *frame, const WifiEapolKey *key,
                                GError **error);

/* The group key handshake and the key data it shares with message 3
 * (rsn-handshake-group.c). */
WifiHandshakeRx wifi_hs_rx_group_msg1(WifiHandshake *hs, const guint8 *frame,
                                      const WifiEapolKey *key, GError **error);
/* Decrypts and parses the Key Data of a MIC-verified frame; the returned
 * buffer (which holds keys) is what kd points into. */
guint8 *wifi_hs_decrypt_key_data(const WifiPtk *ptk, const WifiEapolKey *key, const gchar *what,
                                 gsize *len, WifiKeyData *kd, GError **error);
/* The group keys of message 3 or a group message 1 fit what was
 * negotiated. IGTKs are checked only when management frame protection is
 * on (without it they are not installed). */
gboolean wifi_hs_check_group_keys(const WifiHandshake *hs, const WifiKeyData *kd,
                                  gboolean need_igtk, const gchar *what, GError **error);
/* Installs the GTK and, with MFP, the IGTK of checked key data (key IDs
 * and lengths were checked by wifi_hs_check_group_keys()). Returns whether
 * the GTK was new. */
gboolean wifi_hs_install_group_keys(WifiHandshake *hs, const WifiKeyData *kd, const guint8 rsc[8]);

/* rsn-handshake-ft.c: the FT variant of the 4-way handshake. */
gboolean wifi_hs_ft_setup(WifiHandshake *hs, const WifiHandshakeConfig *c, GError **error);
gboolean wifi_hs_derive_ptk(WifiHandshake *hs, GError **error);
gboolean wifi_hs_ft_check_msg3(const WifiHandshake *hs, const WifiKeyData *kd, GError **error);

G_END_DECLS
