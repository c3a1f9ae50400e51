/* keying.h - the key step of a connection: the 4-way handshake over a PMK
 * (a PSK; for 802.1X the PMK from EAP's MSK, eap-auth.c, or from a cached
 * PMKSA the access point accepted, which skips EAP), EAPOL over
 * the nl80211 control port or an AF_PACKET socket, the keys it yields
 * installed (NEW_KEY, SET_KEY) and the port authorized (SET_STATION). The
 * group key handshakes that follow run here for the life of the link.
 *
 * Made before the association is asked for: message 1 may be read before
 * the CONNECT or ASSOCIATE event that says the association is done, when
 * the kernel would still refuse the answer; such a frame is held until
 * wifi_keying_associated(). OWE's PMK comes with that event: its keying is
 * made with no PMK and no profile, and starts at wifi_keying_set_pmk().
 */
#pragma once

#include "iface.h"
#include "joind.h"
#include "pmksa.h"
#include "rsn.h"

G_BEGIN_DECLS

typedef struct _WifiKeying WifiKeying;

typedef struct {
	const WifiRsnPlan *plan; /* outlives the keying */
	const guint8 *pmk;       /* NULL for an 802.1X AKM (EAP or a PMKSA gives it), OWE */
	gsize pmk_len;
	guint8 spa[6];            /* our address */
	guint8 aa[6];             /* the access point's */
	gboolean control_port_nl; /* EAPOL over nl80211, else AF_PACKET */
	/* 802.1X: the EAP conversation's profile and whom to ask
	 * (eap-auth.h), the network's key for the PMKSA cache, and the
	 * cached PMKSA our RSNE names (NULL: none). */
	JoindCore *core;
	JoindProfile *profile;
	const gchar *object_path;
	const gchar *requester;
	const gchar *network;
	const WifiPmksa *pmksa;
	/* Where a PMKSA from a full EAP authentication goes, and which one
	 * the access point refused is dropped from (borrowed). */
	WifiPmksaCache *pmksa_cache;
} WifiKeyingConfig;

/* error NULL: the first handshake's keys are in and the port is
 * authorized (once). Otherwise a handshake failed, the first or a later
 * group key handshake (a WIFI_HANDSHAKE_ERROR or JOIND_ERROR): the link
 * must go. A 4-way handshake the access point starts over on the keyed
 * link is bounded (a few seconds): WIFI_HANDSHAKE_ERROR_TIMEOUT. */
typedef void (*WifiKeyingFunc)(const GError *error, gpointer user_data);

WifiKeying *wifi_keying_new(WifiIface *iface, const WifiKeyingConfig *config, WifiKeyingFunc func,
                            gpointer user_data, GError **error);
void wifi_keying_free(WifiKeying *self);

/* OWE: the PMK and the PMKID message 1 may name, from the association's
 * answer; a message 1 held until now is taken. */
gboolean wifi_keying_set_pmk(WifiKeying *self, const guint8 *pmk, gsize pmk_len,
                             const guint8 *pmkid, GError **error);
/* The association is done: 802.1X waits for the authenticator. */
void wifi_keying_associated(WifiKeying *self);
/* Fast transition's initial mobility domain association, in place of
 * wifi_keying_set_pmk(): the 4-way handshake over the hierarchy's PMK-R1,
 * with the association response's MDE and FTE (copied). */
gboolean wifi_keying_set_ft(WifiKeying *self, const WifiFtKeys *keys, const guint8 *mde,
                            gsize mde_len, const guint8 *fte, gsize fte_len, GError **error);
/* FT-802.1X's initial mobility domain association: the association
 * response's key holders, MDE and FTE (copied), and the SSID; once EAP
 * gives the MSK, its XXKey gives the hierarchy (ft-keys.h) and the
 * 4-way handshake runs over its PMK-R1. */
gboolean wifi_keying_set_ft_holders(WifiKeying *self, const WifiFtHolders *holders,
                                    const guint8 *ssid, gsize ssid_len, const guint8 *mde,
                                    gsize mde_len, const guint8 *fte, gsize fte_len,
                                    GError **error);
/* The hierarchy EAP's MSK gave (FT-802.1X), or NULL. */
const WifiFtKeys *wifi_keying_get_ft_keys(WifiKeying *self);
/* Fast transition over the air keyed the link (ft-transition.h): the
 * handshake over the target's PMK-R1 with the reassociation response's MDE
 * and FTE takes the transition's PTK and group keys, installed with no
 * 4-way handshake; the port is authorized and func told as after one. Call
 * inside the association's event (mac80211 refuses the keys before). */
gboolean wifi_keying_ft_transition(WifiKeying *self, const WifiFtTransition *ft, const guint8 *mde,
                                   gsize mde_len, const guint8 *fte, gsize fte_len,
                                   const WifiFtGroupKeys *group, GError **error);
/* An 802.1X key step, which bounds its own steps (EAP's timers, then the
 * handshake's once the PMK is known); the connector bounds the others. */
gboolean wifi_keying_is_8021x(WifiKeying *self);
/* Whether error (from this keying) says the credentials are wrong: a
 * passphrase whose handshake failed, an EAP-Failure after credentials. */
gboolean wifi_keying_blames_credentials(WifiKeying *self, const GError *error);

/* For diagnostics, 802.1X only (NULL / FALSE otherwise): the EAP method,
 * the identity sent, whether a cached PMKSA keyed the link. */
const gchar *wifi_keying_get_eap_method(WifiKeying *self);
const gchar *wifi_keying_get_eap_identity(WifiKeying *self);
/* The EAP server's certificate and TLS parameters (joind-eap.h's report),
 * or NULL (transfer none). */
GVariant *wifi_keying_get_eap_server_cert(WifiKeying *self);
gboolean wifi_keying_pmksa_used(WifiKeying *self);
/* The access point's Transition Disable bits from message 3 (0: none). */
guint8 wifi_keying_get_transition_disable(WifiKeying *self);
/* A newer snapshot of the profile, only the credentials EAP remembered
 * written into it: TRUE, nothing changes. */
gboolean wifi_keying_adopt_profile(WifiKeying *self, JoindProfile *profile);

/* Whether the access point sent the EAPOL frame that follows unprotected
 * (the control port says so): answers to it go unprotected too. An access
 * point that took a retransmitted association request for a new
 * association drops our keys and starts the 4-way handshake over in the
 * clear, and could not read an answer under the keys we hold. */
void wifi_keying_set_peer_clear(WifiKeying *self, gboolean clear);
/* An EAPOL frame from the control port (src may be NULL: not said). */
void wifi_keying_rx(WifiKeying *self, const guint8 *src, const guint8 *frame, gsize len);
/* The handshake cannot finish (cause, with the IEEE 802.11 reason of a
 * deauthentication): its verdict, a wrong passphrase or not. */
GError *wifi_keying_abort(WifiKeying *self, WifiHandshakeAbort cause, guint16 reason);
/* The JOIND_ERROR code a caller gets for a key step's error: a handshake
 * that stopped after our message 2 is AuthenticationFailed even when only
 * suspected (the user is there to judge, and a retry is one call away). */
gint wifi_keying_error_code(const GError *error);

G_END_DECLS
