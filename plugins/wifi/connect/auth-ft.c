/* auth-ft.c - fast transition (802.11r) in the connector: an attempt on
 * a BSS that offers FT-PSK with a Mobility Domain element associates
 * with its MDE (initial mobility domain association, rsn.c's plan), and
 * the association response's key holders give the FT key hierarchy that
 * the 4-way handshake then runs over (handshake/rsn-handshake-ft.c). */
#include "attempt-private.h"

#include <string.h>

#include "ft-ie.h"
#include "joind-secret.h"

gboolean
wifi_attempt_ft_prepare(WifiAttempt *attempt, gboolean sme, GError **error)
{
	GError *local = NULL;

	if (!wifi_rsn_plan_ft(&attempt->plan, attempt->bss, sme, &local)) {
		if (local == NULL)
			return TRUE;
		g_propagate_error(error, local);
		return FALSE;
	}
	/* The mobility domain's two octets as on the air (hostapd's
	 * mobility_domain). */
	g_info("%s: “%s” is joined with %s in mobility domain %02x%02x (fast transition)",
	       attempt->iface->name, wifi_attempt_get_name(attempt),
	       wifi_akm_suite_to_string(attempt->plan.akm), attempt->plan.own_mde[2],
	       attempt->plan.own_mde[3]);
	return TRUE;
}

/* The key holders the association response names, checked against the
 * mobility domain we associated in. */
static gboolean
ft_holders(const WifiAttempt *attempt, const WifiFtIes *ft, WifiFtHolders *h, GError **error)
{
	if (memcmp(ft->mdid, attempt->plan.own_mde + 2, 2) != 0 || !ft->parsed.has_r1kh_id ||
	    ft->parsed.r0kh_id_len == 0) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "The access point's association response names another "
		                    "mobility domain or no key holders (R0KH-ID, R1KH-ID): fast "
		                    "transition cannot key.");
		return FALSE;
	}
	memset(h, 0, sizeof(*h));
	memcpy(h->mdid, ft->mdid, 2);
	memcpy(h->r0kh_id, ft->parsed.r0kh_id, ft->parsed.r0kh_id_len);
	h->r0kh_id_len = ft->parsed.r0kh_id_len;
	memcpy(h->r1kh_id, ft->parsed.r1kh_id, 6);
	memcpy(h->spa, attempt->spa, 6);
	return TRUE;
}

gboolean
wifi_attempt_ft_associated(WifiAttempt *attempt, const guint8 *ies, gsize ies_len,
                           WifiKeying *keying, GError **error)
{
	GBytes *ssid = joind_network_get_ssid(JOIND_NETWORK(attempt->network));
	WifiFtHolders holders;
	WifiFtKeys keys;
	WifiFtIes ft;
	gboolean ok;

	if (!wifi_ft_ies_parse(ies, ies_len, 16, &ft, error)) {
		g_prefix_error(error, "The access point's association response is not one of fast "
		                      "transition: ");
		return FALSE;
	}
	if (!ft_holders(attempt, &ft, &holders, error))
		return FALSE;
	ok = wifi_ft_keys_derive(attempt->plan.akm, attempt->psk.pmk, sizeof(attempt->psk.pmk),
	                         g_bytes_get_data(ssid, NULL), g_bytes_get_size(ssid), &holders,
	                         &keys, error) &&
	     wifi_keying_set_ft(keying, &keys, ft.mde, ft.mde_len, ft.fte, ft.fte_len, error);
	wifi_ft_keys_clear(&keys);
	return ok;
}
