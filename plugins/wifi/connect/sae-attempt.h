/* sae-attempt.h - what a WPA3-Personal (SAE) attempt adds to attempt.c:
 *
 * - transition disable: the profile's rules (transition-disable.h) checked
 *   once the plan is made, with the reason SAE cannot run when the radio
 *   or the profile's secret rules it out; the bits of message 3 (any
 *   secure attempt's: WPA3-Personal, WPA3-Enterprise, OWE) written there
 *   once the link is up;
 * - the PMKSA cache: a PMKSA of an earlier SAE with this access point
 *   skips SAE (open system authentication, its PMKID in our RSNE); when the
 *   access point refuses it, SAE runs after all; a new SAE's PMKSA is
 *   cached once its link came up;
 * - hash-to-element's PTs: read from the profile, written back when
 *   derived anew (sae-pt.h). */
#pragma once

#include "attempt.h"
#include "sae-auth.h"

G_BEGIN_DECLS

/* The SAE exchange cur authenticates with; NULL when it does not (not
 * SAE, or a cached PMKSA is offered). */
WifiSaeAuth *wifi_attempt_sae_auth_new(WifiAttempt *attempt, WifiSaeAuthDone done,
                                       gpointer user_data);
/* SAE accepted: its PMK keys the link, its PMKSA is cached once up. */
void wifi_attempt_sae_accepted(WifiAttempt *attempt, WifiSaeAuth *auth);
/* A step of the attempt was refused, or unanswered: TRUE when it offered
 * a cached SAE PMKSA, now dropped: SAE must run
 * (wifi_attempt_sae_auth_new()). */
gboolean wifi_attempt_sae_pmksa_refused(WifiAttempt *attempt, gboolean unanswered);
G_END_DECLS
