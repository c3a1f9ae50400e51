/* psk-secret.h - the PSK a WPA2-PSK connection keys with: from the
 * network's profile (PreSharedKey, else Passphrase), else from the agent;
 * cached in the profile as PreSharedKey once a link with it came up. SAE
 * (WPA3-Personal) needs the passphrase itself: the profile's, or the
 * agent's, which its profile then keeps as Passphrase (as iwd does). */
#pragma once

#include "joind.h"
#include "network.h"
#include "rsn-keys.h"

G_BEGIN_DECLS

typedef struct {
	guint8 pmk[WIFI_PSK_LEN];
	gboolean save;            /* the profile does not hold this PSK yet */
	gchar *passphrase;        /* when known; wiped by wifi_psk_secret_clear() */
	gboolean save_passphrase; /* the agent's: not in the profile yet */
} WifiPskSecret;

void wifi_psk_secret_clear(WifiPskSecret *secret);

/* TRUE with out filled from the profile; FALSE with error unset when the
 * profile (or its absence) gives none: the agent must be asked; FALSE with
 * error set when the profile's secret is unusable. */
gboolean wifi_psk_from_profile(WifiNetwork *network, WifiPskSecret *out, GError **error);

/* Asks the agent for the network's passphrase; the GTask's source object
 * is network. After cancellable is cancelled the callback still runs
 * (G_IO_ERROR_CANCELLED). */
/* requester: the client the connection is for (joind-agent.h), or NULL. */
void wifi_psk_request(JoindCore *core, const gchar *requester, WifiNetwork *network,
                      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
/* The PSK derived from the agent's passphrase (to be saved). */
gboolean wifi_psk_request_finish(WifiNetwork *network, GAsyncResult *result, WifiPskSecret *out,
                                 GError **error);

/* Caches secret in the network's profile when it is new there (see the
 * file's comment; sae: the link used the passphrase); logs the outcome. */
void wifi_psk_save(JoindCore *core, WifiNetwork *network, WifiPskSecret *secret, gboolean sae,
                   const gchar *ifname);

G_END_DECLS
