/* ft-transition.h - one fast BSS transition over the air (IEEE
 * 802.11-2020 13.5.1, 13.8): what the station puts in its FT
 * authentication request (RSNE naming PMKR0Name, MDE, FTE with SNonce and
 * R0KH-ID) and reassociation request (RSNE naming PMKR1Name, MDE, FTE with
 * the MIC), and the checks of the target's answers: the authentication
 * response's elements and key holders (PMK-R1 and the PTK follow), the
 * reassociation response's MIC, and its GTK and IGTK unwrapped. Pure: no
 * radio; the keys are secrets (wifi_ft_transition_free() wipes them).
 */
#pragma once

#include <glib.h>

#include "ft-keys.h"
#include "rsn-keys.h"

G_BEGIN_DECLS

typedef struct _WifiFtTransition WifiFtTransition;

typedef struct {
	guint akm;
	guint pairwise_cipher;
	const guint8 *own_rsne; /* our RSNE as planned (its PMKIDs are replaced) */
	gsize own_rsne_len;
	const guint8 *mde; /* the whole MDE of the mobility domain */
	const guint8 *spa;
	const guint8 *target;   /* the target's BSSID */
	const WifiFtKeys *keys; /* holds PMK-R0 and PMKR0Name */
	const guint8 *r0kh_id;
	gsize r0kh_id_len;
} WifiFtTransitionConfig;

/* The group keys of the reassociation response, unwrapped. */
typedef struct {
	gboolean has_gtk;
	guint gtk_key_id;
	guint8 gtk[32];
	gsize gtk_len;
	guint8 gtk_rsc[8];
	gboolean has_igtk;
	guint igtk_key_id;
	guint8 igtk[32];
	gsize igtk_len;
	guint8 igtk_ipn[6];
} WifiFtGroupKeys;

/* A fresh SNonce (snonce NULL) or a fixed one (tests, replayed captures). */
WifiFtTransition *wifi_ft_transition_new(const WifiFtTransitionConfig *config, const guint8 *snonce,
                                         GError **error);
void wifi_ft_transition_free(WifiFtTransition *ft);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiFtTransition, wifi_ft_transition_free)

/* The authentication request's elements. */
GBytes *wifi_ft_transition_auth_ies(WifiFtTransition *ft);
/* The authentication response's elements (status success): the RSNE names
 * our PMKR0Name, the MDE is ours, the FTE repeats our SNonce and R0KH-ID
 * and names an R1KH-ID; then PMK-R1, PMKR1Name and the PTK. Fails with
 * WIFI_HANDSHAKE_ERROR (RSNE_MISMATCH) or WIFI_IE_ERROR. */
gboolean wifi_ft_transition_auth_response(WifiFtTransition *ft, const guint8 *ies, gsize len,
                                          GError **error);
/* The reassociation request's elements, the FTE's MIC over them. */
GBytes *wifi_ft_transition_reassoc_ies(WifiFtTransition *ft, GError **error);
/* The reassociation response's elements: the same RSNE, MDE and FTE
 * nonces and key holders, its MIC verified (WIFI_HANDSHAKE_ERROR_MIC
 * otherwise); the GTK and IGTK unwrapped with the KEK into keys. */
gboolean wifi_ft_transition_reassoc_response(WifiFtTransition *ft, const guint8 *ies, gsize len,
                                             WifiFtGroupKeys *keys, GError **error);
/* After a successful authentication response: the PTK and the PMK-R1
 * keys (for a later handshake with the target). */
const WifiPtk *wifi_ft_transition_get_ptk(const WifiFtTransition *ft);
const WifiFtKeys *wifi_ft_transition_get_keys(const WifiFtTransition *ft);
void wifi_ft_group_keys_clear(WifiFtGroupKeys *keys);

G_END_DECLS
