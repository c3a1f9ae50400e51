/* attempt-private.h - what the parts of an attempt share and the
 * connector does not see: attempt.c prepares an attempt and, once its plan
 * is made, asks the transition rules (attempt-transition.c) and SAE's part
 * (sae-attempt.c) whether it may go.
 */
#pragma once

#include "attempt.h"

G_BEGIN_DECLS

/* The attempt against its network profile's rules, once its plan is
 * made (attempt->secure FALSE: a plain open access point): when they
 * forbid it, the attempt moves to another access point of the network
 * they allow (its plan made with sae: whether SAE can run), or fails with
 * wifi_td_set_error()'s sentence (why: as there). */
gboolean wifi_attempt_td_check(WifiAttempt *attempt, gboolean sae, const gchar *why,
                               GError **error);

/* Once the plan and the secret's source are known (passphrase: the
 * attempt will have one, from the profile or the agent): the profile's
 * transition rules (FALSE with JOIND_ERROR_NOT_SUPPORTED: refused), then
 * the cached PMKSA offered. */
gboolean wifi_attempt_sae_check(WifiAttempt *attempt, gboolean sae, gboolean passphrase,
                                GError **error);

/* The attempt failed before its link came up: a PMKSA it offered goes. */
void wifi_attempt_sae_failed(WifiAttempt *attempt);
/* The link came up: PTs and transition disable into the profile, then the
 * PMKSA into the cache (a profile change flushes the network's). */
void wifi_attempt_sae_remember(WifiAttempt *attempt, JoindCore *core, WifiKeying *keying);

/* Fast transition's part of an attempt (auth-ft.c): the plan takes the
 * BSS's FT AKM where it can (sme: joind's SME runs the link; an FT-only
 * BSS without it fails), and the association response's key holders key
 * the 4-way handshake of the initial mobility domain association. */
gboolean wifi_attempt_ft_prepare(WifiAttempt *attempt, gboolean sme, GError **error);
gboolean wifi_attempt_ft_associated(WifiAttempt *attempt, const guint8 *ies, gsize ies_len,
                                    WifiKeying *keying, GError **error);

G_END_DECLS
