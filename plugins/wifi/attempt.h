/* attempt.h - one Connect(): the network and BSS it joins and what it
 * authenticates and keys with. Open networks need nothing; a WPA2-PSK
 * or WPA3-Personal network needs the suites (the RSN plan) and a PSK, or
 * for SAE the passphrase, from its profile or from the agent; an 802.1X
 * network its profile (EAP asks the agent for what it lacks) and maybe a
 * cached PMKSA.
 */
#pragma once

#include "bss.h"
#include "iface.h"
#include "joind.h"
#include "keying.h"
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
	guint8 spa[6];        /* our address (address.h's choice), for the handshake */
	GCancellable *secret; /* the agent's request under way */
	/* 802.1X: the profile EAP runs with (its credentials come from it or,
	 * during the conversation, from the agent), the network's key in the
	 * PMKSA cache and the cached PMKSA our RSNE names (or NULL). */
	JoindProfile *eap_profile;
	gchar *network_key;
	WifiPmksa *pmksa;
} WifiAttempt;

/* address: the interface's now ("aa:bb:.."); sme: joind's SME authenticates
 * (then SAE is used where the access point and radio can). NULL with error
 * set when the network cannot be joined (NOT_SUPPORTED, NO_AGENT, NOT_FOUND:
 * an 802.1X network without a profile, a bad profile secret); *ask_agent
 * when the PSK must come from the agent. */
WifiAttempt *wifi_attempt_new(JoindCore *core, WifiNetwork *network, WifiBss *bss, WifiIface *iface,
                              gboolean sme, const gchar *address, gboolean *ask_agent,
                              GError **error);
/* Before authentication: gives the interface the address the attempt
 * chose (address.h), when it has another one now (address). */
gboolean wifi_attempt_take_address(WifiAttempt *attempt, WifiIface *iface, const gchar *address,
                                   GError **error);
/* What the key step of a secure attempt works with. */
void wifi_attempt_keying_config(WifiAttempt *attempt, JoindCore *core, gboolean control_port_nl,
                                WifiKeyingConfig *config);
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
