/* attempt.h - one Connect(): the network and BSS it joins and what it
 * authenticates and keys with. Open networks need nothing; a WPA2-PSK
 * or WPA3-Personal network needs the suites (the RSN plan) and a PSK, or
 * for SAE the passphrase, from its profile or from the agent; an 802.1X
 * network its profile (EAP asks the agent for what it lacks) and maybe a
 * cached PMKSA. An open network whose chosen BSS offers OWE (or names an
 * OWE BSS: transition mode) is joined with OWE: our Diffie-Hellman element
 * in the association, the PMK from the access point's answer.
 */
#pragma once

#include "bss.h"
#include "ft-transition.h"
#include "iface.h"
#include "joind.h"
#include "keying.h"
#include "network.h"
#include "owe.h"
#include "psk-secret.h"
#include "rsn.h"
#include "sae-pt.h"
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
	WifiOwe *owe;       /* OWE: our key pair in the group offered */
	guint owe_retries;  /* OWE: associations asked again after no answer */
	guint owe_renewals; /* OWE: fresh associations after a failed key step */
	/* SAE (sae-attempt.c): the interface whose PMKSA cache it uses, the
	 * network's PTs, the PMK that keys the link (SAE's, or the cached
	 * PMKSA's) and, once SAE accepted, its PMKID. */
	WifiIface *iface;
	/* The station's PMKSA cache (borrowed): what this attempt offers,
	 * adds and drops. */
	WifiPmksaCache *pmksa_cache;
	WifiSaePtCache *sae_pts;
	guint8 sae_pmk[WIFI_PSK_LEN];
	guint8 sae_pmkid[WIFI_PMKID_LEN];
	gboolean sae_accepted;
	/* The access point deauthenticated or disassociated us while we
	 * associated, and the attempt started over (once). */
	gboolean left_while_associating;
	/* WifiBss: the access points this Connect() found silent so far. */
	GPtrArray *silent;
	/* Fast transition (auth-ft.c): the key holders of the link this
	 * Connect() keyed last with an FT AKM and the PMK-R0 it holds (its
	 * pmk_len 0 until known: FT-802.1X's comes with EAP), and a
	 * transition over the air under way (NULL: none). */
	gboolean has_ft_holders;
	WifiFtHolders ft_holders;
	WifiFtKeys ft_keys;
	WifiFtTransition *ft_air;
	gboolean ft_again;   /* the transition was started over once */
	gboolean ft_over_ds; /* the transition goes through the access point left */
	/* FT-802.1X: the EAP method and identity of the link's last EAP
	 * conversation, which a transition carries to the target (where no
	 * EAP runs). */
	gchar *ft_eap_method;
	gchar *ft_eap_identity;
} WifiAttempt;

/* current: the interface's address now ("aa:bb:.."); sme: joind's SME authenticates
 * (then SAE is used where the access point and radio can). NULL with error
 * set when the network cannot be joined (NOT_SUPPORTED, NO_AGENT, NOT_FOUND:
 * an 802.1X network without a profile, a bad profile secret); *ask_agent
 * when the PSK must come from the agent. */
WifiAttempt *wifi_attempt_new(JoindCore *core, WifiNetwork *network, WifiBss *bss, WifiIface *iface,
                              WifiPmksaCache *pmksa_cache, gboolean sme, const gchar *current,
                              gboolean *ask_agent, GError **error);
/* Before authentication: gives the interface the address the attempt
 * chose (address.h), when it has another one now (address). */
/* The access point did not answer: the next of the network's (in their
 * rank) that this Connect() has not found silent, or NULL. */
WifiBss *wifi_attempt_next_bss(WifiAttempt *attempt);
/* The same Connect() on bss: its call, a secret the agent gave and the
 * silent access points carry over (attempt keeps none of them). NULL with
 * error set as for wifi_attempt_new(). */
WifiAttempt *wifi_attempt_move_to(WifiAttempt *attempt, JoindCore *core, WifiBss *bss, gboolean sme,
                                  const gchar *current, GError **error);
gboolean wifi_attempt_take_address(WifiAttempt *attempt, WifiIface *iface, const gchar *address,
                                   GError **error);
/* What the key step of a secure attempt works with. */
void wifi_attempt_keying_config(WifiAttempt *attempt, JoindCore *core, gboolean control_port_nl,
                                WifiKeyingConfig *config);
/* The association succeeded: OWE reads the access point's element from
 * the ASSOCIATE event's frame or the CONNECT event's response elements
 * (attrs) and gives keying the PMK. FALSE with a sentence when the answer
 * cannot key the link (no element, another group, an invalid key). */
gboolean wifi_attempt_associated(WifiAttempt *attempt, struct nlattr **attrs, WifiKeying *keying,
                                 GError **error);
/* The access point did not answer the association (timed_out) or refused
 * it with status: TRUE when OWE tries again, the attempt then to
 * authenticate or associate again. After status 77 it offers its next
 * group (the request rewritten); after no answer the same, twice at most:
 * an access point that answers later than the kernel waits (its
 * Diffie-Hellman work on a slow machine) may answer a second request in
 * time. */
gboolean wifi_attempt_owe_again(WifiAttempt *attempt, gboolean timed_out, guint16 status);
/* OWE fresh associations after a failed key step, at most. */
#define WIFI_ATTEMPT_OWE_MAX_RENEWALS 2u
/* The key step of an OWE attempt failed before its link came up: a new
 * attempt for the same access point, group and caller (attempt->task
 * moves to it) with a new key pair; NULL when not OWE or after
 * WIFI_ATTEMPT_OWE_MAX_RENEWALS of them. */
WifiAttempt *wifi_attempt_owe_renew(WifiAttempt *attempt);
/* Fast transition over the air (auth-ft.c), for a roam's attempt.
 * Whether attempt may take it: the link left was keyed with the same FT
 * AKM in the mobility domain of attempt's BSS, and its PMK-R0 is known. */
gboolean wifi_attempt_ft_can_transition(const WifiAttempt *attempt);
/* Whether the transition goes over the DS: attempt's BSS advertises it
 * in its MDE (as wpa_supplicant, joind uses it whenever it is offered; a
 * failed exchange goes over the air). */
gboolean wifi_attempt_ft_over_ds(const WifiAttempt *attempt);
/* The link came up, or leaves for a roam: FT-802.1X's PMK-R0, which
 * EAP's MSK gave the key step (the first or a re-authentication), and
 * EAP's method and identity are kept for the roams that follow. */
void wifi_attempt_ft_remember(WifiAttempt *attempt, WifiKeying *keying);
/* The FT authentication request goes in the plan (RSNE naming PMKR0Name,
 * MDE, FTE with a fresh SNonce and the R0KH-ID). */
gboolean wifi_attempt_ft_begin(WifiAttempt *attempt, GError **error);
/* The target's FT authentication response (its elements): checked, the
 * PTK derived, the reassociation request (PMKR1Name, the FTE's MIC) in the
 * plan. */
gboolean wifi_attempt_ft_authenticated(WifiAttempt *attempt, const guint8 *ies, gsize ies_len,
                                       GError **error);
/* The transition is given up: the plan is a full association's again,
 * and this attempt does not try FT again. */
void wifi_attempt_ft_abandon(WifiAttempt *attempt);
/* How the link of attempt came ("FT over the air", "FT over the DS"), or
 * NULL when it came from no fast transition. */
const gchar *wifi_attempt_ft_transition_name(const WifiAttempt *attempt);
/* Cancels a secret request under way. */
void wifi_attempt_free(WifiAttempt *attempt);

/* Answers the caller with an error (once) and logs it. */
void wifi_attempt_fail(WifiAttempt *attempt, const gchar *ifname, gint code, const gchar *message);
/* The network's display name; NULL for no attempt. */
const gchar *wifi_attempt_get_name(WifiAttempt *attempt);

/* The link came up: the PSK (when new) goes into the profile, the
 * frequency and time into state.json, an open network becomes known;
 * SAE's facts and the keying's transition disable (sae-attempt.h). */
void wifi_attempt_remember(WifiAttempt *attempt, JoindCore *core, WifiKeying *keying);

/* error NULL: the PSK is in attempt->psk. Never called once the attempt
 * is freed. */
typedef void (*WifiAttemptSecretFunc)(WifiAttempt *attempt, const GError *error,
                                      gpointer user_data);
void wifi_attempt_request_secret(WifiAttempt *attempt, JoindCore *core, WifiAttemptSecretFunc func,
                                 gpointer user_data);

G_END_DECLS
