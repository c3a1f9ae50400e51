/* eap-auth.h - the IEEE 802.1X supplicant of one WiFi association: the
 * EAP conversation with the access point's authenticator, run by the
 * core's EAP engine (JoindEapSession, as on a wired port), over EAPOL
 * frames that the key step (keying.c) carries.
 *
 *   idle            not associated yet
 *   starting        associated: the authenticator normally begins at once;
 *                   when it has not within 3 s, EAPOL-Start (startWhen,
 *                   maxStart)
 *   authenticating  the conversation runs; authWhile bounds the
 *                   authenticator's silence (not the agent's: a person
 *                   typing a password is no silence)
 *   authenticated   EAP-Success with an MSK; a new Request/Identity from
 *                   the authenticator (re-authentication) starts over
 *   stopped         the key step needs no EAP (a cached PMKSA was taken)
 *   failed          the conversation failed or the authenticator went away
 *
 * Retransmissions are the authenticator's (the engine has no timers); a
 * failure of any kind ends the association, so nothing here retries.
 */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct _WifiEapAuth WifiEapAuth;

typedef struct {
	/* An EAPOL frame (IEEE 802.1X header included) for the access point. */
	void (*send)(const guint8 *frame, gsize len, gpointer user_data);
	/* The authenticator began a conversation (its first Request). */
	void (*started)(gpointer user_data);
	/* EAP-Success; msk valid during the call. */
	void (*succeeded)(const guint8 *msk, gsize msk_len, gpointer user_data);
	/* error: a JOIND_ERROR sentence (AUTHENTICATION_FAILED, NO_AGENT,
	 * ABORTED, INVALID_ARGS, FAILED). rejected: the authenticator or the
	 * method refused after credentials were sent (an explicit
	 * EAP-Failure), which retrying cannot mend. */
	void (*failed)(const GError *error, gboolean rejected, gpointer user_data);
} WifiEapAuthCallbacks;

/* profile: the network's .8021x profile. object_path: what agents are
 * asked about (the network); requester: whose agent (NULL: none in
 * particular). NULL with error (INVALID_ARGS) when the profile cannot
 * work. */
WifiEapAuth *wifi_eap_auth_new(JoindCore *core, JoindProfile *profile, const gchar *object_path,
                               const gchar *requester, const gchar *ifname,
                               const WifiEapAuthCallbacks *callbacks, gpointer user_data,
                               GError **error);
void wifi_eap_auth_free(WifiEapAuth *self);

/* Associated: wait for the authenticator, EAPOL-Start if it stays quiet. */
void wifi_eap_auth_associated(WifiEapAuth *self);
/* A cached PMKSA keys the link: no EAP, no timers. */
void wifi_eap_auth_stop(WifiEapAuth *self, const gchar *reason);
/* An EAPOL frame of packet type EAP-Packet (header included). */
void wifi_eap_auth_rx(WifiEapAuth *self, const guint8 *frame, gsize len);

/* For diagnostics: the method that ran (or was configured) and the
 * identity sent (outer identity); NULL when none. */
const gchar *wifi_eap_auth_get_method(WifiEapAuth *self);
const gchar *wifi_eap_auth_get_identity(WifiEapAuth *self);
/* For diagnostics: the TLS server's certificate and the TLS parameters
 * (joind-eap.h's report), NULL without a TLS-based method (transfer none). */
GVariant *wifi_eap_auth_get_server_cert(WifiEapAuth *self);
/* A newer snapshot of the profile that changes nothing the conversation
 * uses (the credentials it remembered were written): TRUE, taken. */
gboolean wifi_eap_auth_adopt_profile(WifiEapAuth *self, JoindProfile *profile);

/* EAPOL packet types (IEEE 802.1X-2020 table 11-3) the station meets. */
#define WIFI_EAPOL_EAP_PACKET 0
#define WIFI_EAPOL_START      1
#define WIFI_EAPOL_KEY_PACKET 3
#define WIFI_EAPOL_HLEN       4

G_END_DECLS
