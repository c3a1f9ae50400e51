/* transition-disable.h - WPA3's Transition Disable: the access points of a
 * network say, in message 3's KDE, that the legacy side of their network
 * must no longer be used. joind keeps that in the network's profile under
 * iwd's keys, which an admin may write too:
 *
 *   [Settings] TransitionDisable=true   no association without management
 *                                       frame protection
 *   [Settings] DisabledTransitionModes  a comma-separated list of
 *     personal    never WPA2-Personal (PSK): WPA3-Personal (SAE) only
 *     enterprise  never WPA2-Enterprise (802.1X without management frame
 *                 protection): WPA3-Enterprise only
 *     open        never a plain open access point: Enhanced Open (OWE) only
 *
 * The SAE-PK bit has no word of iwd's and is not kept. This file reads the
 * rules, judges one access point's plan against them and words the
 * refusal; the attempt (connect/attempt-transition.c) looks for an access
 * point of the network the rules allow before it refuses.
 */
#pragma once

#include "joind.h"
#include "rsn.h"

G_BEGIN_DECLS

/* What TransitionDisable=true alone forbids, beside the mode bits
 * (WIFI_TRANSITION_DISABLE_*). */
#define WIFI_TD_NO_MFP 0x100u

typedef struct {
	guint8 modes; /* WIFI_TRANSITION_DISABLE_* of DisabledTransitionModes */
	gboolean mfp; /* TransitionDisable=true */
} WifiTdRules;

/* The profile's rules (none for a NULL profile); words other than iwd's
 * three are ignored (the profile check warns of them). */
void wifi_td_rules_from_profile(JoindProfile *profile, WifiTdRules *rules);

/* What rules forbid in joining a network of type through an access point
 * with plan (NULL: a plain open one, no RSN): a mode bit, WIFI_TD_NO_MFP,
 * or 0 when allowed. */
guint wifi_td_forbidden(const WifiTdRules *rules, JoindNetworkType type, const WifiRsnPlan *plan);

/* The refusal of what wifi_td_forbidden() said, for the network called
 * name: "“name” is WPA3-Personal only (its access points disabled the
 * transition mode; DisabledTransitionModes=personal in its profile), and
 * why." why NULL: the mode's own, no access point of it in range offers
 * what it needs, JOIND_ERROR_NOT_FOUND (a later scan may find one:
 * autoconnect tries again); a why (this radio, this profile cannot):
 * JOIND_ERROR_NOT_SUPPORTED. WIFI_TD_NO_MFP's sentence has no why
 * (NOT_FOUND). */
void wifi_td_set_error(GError **error, guint forbidden, const gchar *name, const gchar *why);

/* DisabledTransitionModes with bits added: the profile's words first,
 * then iwd's words for the bits it lacks. */
gchar *wifi_td_modes_with(JoindProfile *profile, guint8 bits);

G_END_DECLS
