/* attempt.h - one Connect(): the network and BSS it joins and what it
 * authenticates and keys with. Open networks need nothing; a WPA2-PSK
 * network needs the suites (the RSN plan) and a PSK, from its profile or
 * from the agent. SAE's and EAP's credentials are the next kinds here.
 */
#pragma once

#include "bss.h"
#include "joind.h"
#include "network.h"
#include "psk-secret.h"
#include "rsn.h"
#include "wiphy.h"

G_BEGIN_DECLS

typedef struct {
	GTask *task; /* the caller's; NULL once answered */
	WifiNetwork *network;
	WifiBss *bss;
	gboolean secure;
	WifiRsnPlan plan; /* secure: the suites (ap_rsne points into bss) */
	WifiPskSecret psk;
	guint8 spa[6];        /* secure: our address, for the handshake */
	GCancellable *secret; /* the agent's request under way */
} WifiAttempt;

/* address: the interface's ("aa:bb:.."). NULL with error set when the
 * network cannot be joined (NOT_SUPPORTED, NO_AGENT, a bad profile
 * secret); *ask_agent when the PSK must come from the agent. */
WifiAttempt *wifi_attempt_new(JoindCore *core, WifiNetwork *network, WifiBss *bss,
                              const WifiWiphy *wiphy, const gchar *address, gboolean *ask_agent,
                              GError **error);
/* Cancels a secret request under way. */
void wifi_attempt_free(WifiAttempt *attempt);

/* Answers the caller with an error (once) and logs it. */
void wifi_attempt_fail(WifiAttempt *attempt, const gchar *ifname, gint code, const gchar *message);
/* The network's display name; NULL for no attempt. */
const gchar *wifi_attempt_get_name(WifiAttempt *attempt);

/* The link came up: the PSK (when new) goes into the profile, the
 * frequency and time into state.json, an open network becomes known. */
void wifi_attempt_remember(WifiAttempt *attempt, JoindCore *core, const gchar *ifname);

/* error NULL: the PSK is in attempt->psk. Never called once the attempt
 * is freed. */
typedef void (*WifiAttemptSecretFunc)(WifiAttempt *attempt, const GError *error,
                                      gpointer user_data);
void wifi_attempt_request_secret(WifiAttempt *attempt, JoindCore *core, WifiAttemptSecretFunc func,
                                 gpointer user_data);

G_END_DECLS
