/* connect-info.c - the connector's link as plain facts for the
 * diagnostics (see connection-info.h). */
#include "connect-private.h"

#include <string.h>

/* MFP is in use when both our association RSNE and the AP's say MFPC. */
static void
info_from_plan(const WifiRsnPlan *plan, WifiConnectionInfo *info)
{
	WifiRsne own, ap;

	info->akm = plan->akm;
	info->sae_group = plan->sae_group;
	info->sae_h2e = plan->sae_h2e;
	info->owe_group = plan->owe_group;
	info->ft = plan->own_mde_len > 0;
	if (info->ft)
		memcpy(info->mdid, plan->own_mde + 2, 2);
	info->pmksa_used = plan->sae_pmksa;
	info->pairwise_cipher = plan->pairwise_cipher;
	info->group_cipher = plan->group_cipher;
	if (!wifi_rsne_parse(plan->own_rsne, plan->own_rsne_len, &own, NULL) ||
	    !wifi_rsne_parse(plan->ap_rsne, plan->ap_rsne_len, &ap, NULL))
		return;
	info->mfp = (own.capabilities & WIFI_RSN_CAP_MFPC) != 0 &&
	            (ap.capabilities & WIFI_RSN_CAP_MFPC) != 0;
	if (info->mfp) {
		guint32 mgmt =
		        own.group_mgmt_cipher != 0 ? own.group_mgmt_cipher : ap.group_mgmt_cipher;
		/* Absent means the default, BIP-CMAC-128. */
		info->group_mgmt_cipher = mgmt != 0 ? mgmt & 0xff : WIFI_CIPHER_SUITE_BIP_CMAC;
	}
}

static void
copy_report_string(GVariant *report, const gchar *key, gchar *out, gsize size)
{
	const gchar *value = NULL;

	if (g_variant_lookup(report, key, "&s", &value))
		g_strlcpy(out, value, size);
}

/* The EAP session's TLS report (joind-eap.h), when a TLS-based method ran. */
static void
info_from_server_cert(GVariant *report, WifiConnectionInfo *info)
{
	if (report == NULL)
		return;
	copy_report_string(report, "tls-version", info->tls_version, sizeof(info->tls_version));
	copy_report_string(report, "cipher", info->tls_cipher, sizeof(info->tls_cipher));
	copy_report_string(report, "subject", info->server_subject, sizeof(info->server_subject));
	copy_report_string(report, "pin", info->server_pin, sizeof(info->server_pin));
}

gboolean
wifi_connector_get_connection_info(WifiConnector *self, WifiConnectionInfo *info)
{
	WifiBss *bss = wifi_connector_get_connected_bss(self);
	const WifiRsnPlan *plan = wifi_connector_get_rsn_plan(self);
	WifiKeying *keying = wifi_connector_get_keying(self);

	memset(info, 0, sizeof(*info));
	if (bss == NULL)
		return FALSE;
	memcpy(info->bssid, bss->bssid, 6);
	info->freq = bss->freq;
	if (plan != NULL)
		info_from_plan(plan, info);
	info->transition = self->cur != NULL ? wifi_attempt_ft_transition_name(self->cur) : NULL;
	if (keying != NULL && wifi_keying_get_eap_method(keying) != NULL) {
		g_strlcpy(info->eap_method, wifi_keying_get_eap_method(keying),
		          sizeof(info->eap_method));
		if (wifi_keying_get_eap_identity(keying) != NULL)
			g_strlcpy(info->eap_identity, wifi_keying_get_eap_identity(keying),
			          sizeof(info->eap_identity));
		info->pmksa_used = wifi_keying_pmksa_used(keying);
		if (!info->pmksa_used)
			info_from_server_cert(wifi_keying_get_eap_server_cert(keying), info);
	}
	/* A fast transition ran no EAP: the link's last conversation. */
	if (info->eap_identity[0] == '\0' && self->cur != NULL &&
	    self->cur->ft_eap_method != NULL && self->cur->ft_eap_identity != NULL) {
		g_strlcpy(info->eap_method, self->cur->ft_eap_method, sizeof(info->eap_method));
		g_strlcpy(info->eap_identity, self->cur->ft_eap_identity,
		          sizeof(info->eap_identity));
	}
	wifi_connector_get_times(self, &info->connect_started_real, &info->connected_mono);
	return TRUE;
}
