/* sme.c - the messages of the userspace SME (see sme.h). The sequence
 * itself is the connector's: its AUTHENTICATING and ASSOCIATING states. */
#include "sme.h"

#include <netlink/attr.h>
#include <string.h>

#include "codes.h"
#include "mgmt.h"

gchar *
wifi_sme_refusal_message(const gchar *stage, gboolean timed_out, guint16 status)
{
	gchar buf[16];

	if (timed_out)
		return g_strdup_printf("The access point did not answer (%s).", stage);
	return g_strdup_printf("The access point refused the %s (%s).", stage,
	                       wifi_status_to_string(status, buf));
}

static void
sme_put_auth(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss, guint32 auth_type)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, bss->bssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, bss->freq);
	nla_put(msg, NL80211_ATTR_SSID, (int)bss->ies.ssid_len, bss->ies.ssid);
	nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, auth_type);
}

void
wifi_sme_put_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss)
{
	sme_put_auth(msg, ifindex, bss, NL80211_AUTHTYPE_OPEN_SYSTEM);
}

void
wifi_sme_put_ft_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                             const WifiRsnPlan *plan)
{
	guint8 ies[sizeof(plan->own_rsne) + sizeof(plan->own_mde) + sizeof(plan->own_fte)];
	gsize len = plan->own_rsne_len;

	sme_put_auth(msg, ifindex, bss, NL80211_AUTHTYPE_FT);
	memcpy(ies, plan->own_rsne, plan->own_rsne_len);
	memcpy(ies + len, plan->own_mde, plan->own_mde_len);
	len += plan->own_mde_len;
	memcpy(ies + len, plan->own_fte, plan->own_fte_len);
	len += plan->own_fte_len;
	nla_put(msg, NL80211_ATTR_IE, (int)len, ies);
}

void
wifi_sme_put_sae_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                              const guint8 *data, gsize len)
{
	sme_put_auth(msg, ifindex, bss, NL80211_AUTHTYPE_SAE);
	nla_put(msg, NL80211_ATTR_SAE_DATA, (int)len, data);
}

static gsize
append(guint8 *out, gsize len, const guint8 *element, gsize element_len)
{
	memcpy(out + len, element, element_len);
	return len + element_len;
}

/* Our elements of the association request, in IEEE 802.11's order: the
 * RSNE, RM Enabled Capabilities, Extended Capabilities, the RSNXE and
 * OWE's Diffie-Hellman element (mac80211 places its own among them by
 * that order). */
static void
sme_put_ies(struct nl_msg *msg, const WifiRsnPlan *plan, const WifiStaCaps *caps)
{
	guint8 ies[sizeof(WifiRsnPlan) + sizeof(WifiStaCaps)];
	gsize len = 0;

	if (plan != NULL)
		len = append(ies, len, plan->own_rsne, plan->own_rsne_len);
	len = append(ies, len, caps->rm, caps->rm_len);
	if (plan != NULL) {
		len = append(ies, len, plan->own_mde, plan->own_mde_len);
		len = append(ies, len, plan->own_fte, plan->own_fte_len);
	}
	len = append(ies, len, caps->ext, caps->ext_len);
	if (plan != NULL) {
		len = append(ies, len, plan->own_rsnxe, plan->own_rsnxe_len);
		len = append(ies, len, plan->owe_dh, plan->owe_dh_len);
	}
	if (len > 0)
		nla_put(msg, NL80211_ATTR_IE, (int)len, ies);
	if (caps->use_rrm)
		nla_put_flag(msg, NL80211_ATTR_USE_RRM);
}

void
wifi_sme_put_associate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                       const WifiRsnPlan *plan, const WifiStaCaps *caps, gboolean control_port_nl)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, bss->bssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, bss->freq);
	nla_put(msg, NL80211_ATTR_SSID, (int)bss->ies.ssid_len, bss->ies.ssid);
	sme_put_ies(msg, plan, caps);
	if (plan != NULL)
		wifi_rsn_put_associate(msg, plan, control_port_nl);
}

void
wifi_sme_put_connect(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                     const WifiRsnPlan *plan, const WifiStaCaps *caps, gboolean control_port_nl)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_SSID, (int)bss->ies.ssid_len, bss->ies.ssid);
	nla_put(msg, NL80211_ATTR_MAC, 6, bss->bssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, bss->freq);
	nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM);
	sme_put_ies(msg, plan, caps);
	if (plan != NULL)
		wifi_rsn_put_connect(msg, plan, control_port_nl);
}

void
wifi_sme_put_deauthenticate(struct nl_msg *msg, guint32 ifindex, const guint8 *bssid,
                            guint16 reason)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, bssid);
	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, reason);
}

struct nl_msg *
wifi_sme_msg_command(WifiNl *nl, guint8 cmd, guint32 ifindex, const WifiBss *bss,
                     const WifiRsnPlan *plan, const WifiWiphy *wiphy, gboolean control_port_nl)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, cmd, 0);
	WifiStaCaps caps;

	wifi_sta_caps_plan(wiphy, bss, &caps);
	if (cmd == NL80211_CMD_CONNECT)
		wifi_sme_put_connect(msg, ifindex, bss, plan, &caps, control_port_nl);
	else if (cmd == NL80211_CMD_AUTHENTICATE && plan != NULL && plan->ft_over_air)
		wifi_sme_put_ft_authenticate(msg, ifindex, bss, plan);
	else if (cmd == NL80211_CMD_AUTHENTICATE)
		wifi_sme_put_authenticate(msg, ifindex, bss);
	else
		wifi_sme_put_associate(msg, ifindex, bss, plan, &caps, control_port_nl);
	return msg;
}

struct nl_msg *
wifi_sme_msg_leave(WifiNl *nl, guint32 ifindex, const guint8 *bssid, guint16 reason)
{
	struct nl_msg *msg = wifi_nl_msg_new(
	        nl, bssid != NULL ? NL80211_CMD_DEAUTHENTICATE : NL80211_CMD_DISCONNECT, 0);

	if (bssid != NULL) {
		wifi_sme_put_deauthenticate(msg, ifindex, bssid, reason);
	} else {
		nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
		nla_put_u16(msg, NL80211_ATTR_REASON_CODE, reason);
	}
	return msg;
}

static gboolean
answer_from_bss(struct nlattr **attrs, const guint8 *bssid)
{
	struct nlattr *mac = attrs[NL80211_ATTR_MAC];

	return mac == NULL || (nla_len(mac) == 6 && memcmp(nla_data(mac), bssid, 6) == 0);
}

WifiSmeAnswer
wifi_sme_read_answer(guint8 cmd, struct nlattr **attrs, const guint8 *bssid, guint16 *status,
                     GError **error)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	WifiMgmtAnswer answer;

	if (attrs[NL80211_ATTR_TIMED_OUT] != NULL)
		return answer_from_bss(attrs, bssid) ? WIFI_SME_ANSWER_TIMED_OUT
		                                     : WIFI_SME_ANSWER_NONE;
	if (frame == NULL ||
	    !wifi_mgmt_parse_answer(nla_data(frame), (gsize)nla_len(frame), &answer, error))
		return WIFI_SME_ANSWER_NONE;
	if (answer.assoc != (cmd == NL80211_CMD_ASSOCIATE) || memcmp(answer.bssid, bssid, 6) != 0)
		return WIFI_SME_ANSWER_NONE;
	*status = answer.status;
	return answer.status == 0 ? WIFI_SME_ANSWER_SUCCESS : WIFI_SME_ANSWER_REFUSED;
}
