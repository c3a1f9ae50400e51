/* rsn-handshake-ft.c - the 4-way handshake of fast transition's initial
 * mobility domain association (IEEE 802.11-2020 12.4.2, 12.7.6.3 and
 * 12.7.6.4): the PTK from the FT key hierarchy, message 2 naming
 * PMKR1Name in our RSNE and repeating the association response's MDE and
 * FTE, message 3 checked to name the same. */
#include "rsn-handshake-private.h"

#include <string.h>

#include "joind-secret.h"

/* Message 2's key data: our RSNE again, now with PMKR1Name as its one
 * PMKID, the RSNXE, then the MDE and FTE as the access point sent them. */
gboolean
wifi_hs_ft_setup(WifiHandshake *hs, const WifiHandshakeConfig *c, GError **error)
{
	const WifiAkmInfo *akm = wifi_akm_info(c->akm);
	WifiRsne own;
	gsize len;

	if (akm == NULL || akm->ft != (c->ft != NULL))
		return wifi_keys_invalid(
		        error, akm != NULL && akm->ft
		                       ? "A fast transition AKM needs the FT key hierarchy"
		                       : "The FT key hierarchy is for the FT AKMs only");
	if (c->ft == NULL)
		return TRUE;
	if (c->ft->akm != c->akm || c->pmk_len != c->ft->pmk_len ||
	    memcmp(c->pmk, c->ft->pmk_r1, c->pmk_len) != 0)
		return wifi_keys_invalid(error,
		                         "The PMK of an FT handshake is the hierarchy's PMK-R1");
	if (!wifi_hs_check_element(c->ft_mde, c->ft_mde_len, WIFI_ELEMENT_MDE, TRUE,
	                           "the Mobility Domain element", error) ||
	    !wifi_hs_check_element(c->ft_fte, c->ft_fte_len, WIFI_ELEMENT_FTE, TRUE,
	                           "the Fast BSS Transition element", error))
		return FALSE;
	if (!wifi_rsne_parse(c->own_rsne, c->own_rsne_len, &own, error))
		return FALSE;
	hs->ft = TRUE;
	hs->ft_keys = *c->ft;
	memcpy(hs->ft_mde, c->ft_mde, c->ft_mde_len);
	hs->ft_mde_len = c->ft_mde_len;
	memcpy(hs->ft_fte, c->ft_fte, c->ft_fte_len);
	hs->ft_fte_len = c->ft_fte_len;
	len = wifi_rsne_write(&own, hs->ft_keys.pmk_r1_name, hs->own_ie);
	if (c->own_rsnxe_len > 0)
		memcpy(hs->own_ie + len, c->own_rsnxe, c->own_rsnxe_len);
	len += c->own_rsnxe_len;
	memcpy(hs->own_ie + len, hs->ft_mde, hs->ft_mde_len);
	len += hs->ft_mde_len;
	memcpy(hs->own_ie + len, hs->ft_fte, hs->ft_fte_len);
	hs->own_ie_len = len + hs->ft_fte_len;
	return TRUE;
}

/* An 802.1X re-authentication gave a new hierarchy: message 2 of the
 * access point's next 4-way handshake names the new PMKR1Name (same
 * length: our RSNE keeps its one PMKID), its PTK comes from the new
 * PMK-R1; the MDE and FTE stay those of the association. */
gboolean
wifi_handshake_set_ft_keys(WifiHandshake *hs, const WifiFtKeys *keys, GError **error)
{
	guint8 rsne[257];
	WifiRsne own;

	if (!hs->ft || keys->akm != hs->akm->akm || keys->pmk_len != hs->pmk_len)
		return wifi_keys_invalid(error, "A new FT key hierarchy is for the FT handshake "
		                                "of its AKM only");
	if (!wifi_rsne_parse(hs->own_ie, (gsize)hs->own_ie[1] + 2, &own, error))
		return FALSE;
	if (wifi_rsne_write(&own, keys->pmk_r1_name, rsne) != (gsize)hs->own_ie[1] + 2)
		return wifi_keys_invalid(error, "Our RSNE changed length with the new PMKR1Name");
	memcpy(hs->own_ie, rsne, (gsize)rsne[1] + 2);
	wifi_ft_keys_clear(&hs->ft_keys);
	hs->ft_keys = *keys;
	joind_secret_clear(hs->pmk, sizeof(hs->pmk));
	memcpy(hs->pmk, keys->pmk_r1, keys->pmk_len);
	hs->has_pmkid = FALSE;
	return TRUE;
}

gboolean
wifi_hs_derive_ptk(WifiHandshake *hs, GError **error)
{
	if (hs->ft)
		return wifi_ft_ptk_derive(&hs->ft_keys, hs->pairwise_cipher, hs->snonce, hs->anonce,
		                          hs->aa, hs->spa, &hs->tptk, NULL, error);
	return wifi_ptk_derive(hs->akm->akm, hs->pairwise_cipher, hs->pmk, hs->pmk_len, hs->aa,
	                       hs->spa, hs->anonce, hs->snonce, &hs->tptk, error);
}

static gboolean
ft_mismatch(GError **error, const gchar *what)
{
	g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,
	            "Message 3 of the fast transition handshake %s; not connecting", what);
	return FALSE;
}

gboolean
wifi_hs_ft_check_msg3(const WifiHandshake *hs, const WifiKeyData *kd, GError **error)
{
	WifiRsne rsne;

	if (!hs->ft)
		return TRUE;
	if (!wifi_rsne_parse(kd->rsne, kd->rsne_len, &rsne, NULL) || !rsne.has_pmkid ||
	    memcmp(rsne.pmkid, hs->ft_keys.pmk_r1_name, WIFI_FT_NAME_LEN) != 0)
		return ft_mismatch(error, "names a PMK-R1 other than ours (PMKR1Name)");
	if (kd->mde_len != hs->ft_mde_len || memcmp(kd->mde, hs->ft_mde, hs->ft_mde_len) != 0)
		return ft_mismatch(error, "carries another Mobility Domain element than the "
		                          "association response");
	if (kd->fte_len != hs->ft_fte_len || memcmp(kd->fte, hs->ft_fte, hs->ft_fte_len) != 0)
		return ft_mismatch(error, "carries another Fast BSS Transition element than the "
		                          "association response");
	return TRUE;
}

/* A fast transition over the air keyed the link without a 4-way
 * handshake: the PTK from the authentication, the group keys from the
 * reassociation response; later group key handshakes run on them. */
gboolean
wifi_handshake_ft_keyed(WifiHandshake *hs, const WifiPtk *ptk, const WifiFtGroupKeys *gk,
                        GError **error)
{
	WifiKeyData kd = {
	        .has_gtk = gk->has_gtk,
	        .gtk_key_id = gk->gtk_key_id,
	        .gtk = gk->gtk,
	        .gtk_len = gk->gtk_len,
	        .has_igtk = gk->has_igtk,
	        .igtk_key_id = gk->igtk_key_id,
	        .igtk_ipn = gk->igtk_ipn,
	        .igtk = gk->igtk,
	        .igtk_len = gk->igtk_len,
	};

	if (!hs->ft || hs->completed_once)
		return wifi_keys_invalid(error,
		                         "Only a fresh FT handshake takes a transition's keys");
	if (ptk->tk_len != wifi_cipher_key_len(hs->pairwise_cipher) ||
	    !wifi_hs_check_group_keys(hs, &kd, TRUE, "The reassociation response", error))
		return FALSE;
	hs->ptk = *ptk;
	wifi_hs_install(hs, WIFI_KEY_KIND_PAIRWISE, 0, hs->pairwise_cipher, hs->ptk.tk,
	                hs->ptk.tk_len, NULL);
	(void)wifi_hs_install_group_keys(hs, &kd, gk->gtk_rsc);
	hs->completed_once = TRUE;
	wifi_hs_transition(hs, WIFI_HANDSHAKE_STATE_COMPLETE,
	                   "fast transition: keys from the reassociation, no 4-way handshake");
	return TRUE;
}
