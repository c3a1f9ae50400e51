/* sme.c - the userspace SME's AUTHENTICATE / ASSOCIATE sequence (see
 * sme.h).
 *
 * Steps: IDLE -> AUTHENTICATING (CMD_AUTHENTICATE sent; its AUTHENTICATE
 * event carries the access point's authentication frame, or TIMED_OUT)
 * -> ASSOCIATING (CMD_ASSOCIATE sent; its ASSOCIATE event carries the
 * association response, or TIMED_OUT) -> IDLE with the result. An event
 * for another BSSID, or while IDLE, is not ours (an earlier attempt's).
 */
#include "sme.h"

#include <netlink/attr.h>
#include <string.h>

#include "mgmt.h"

typedef enum {
	SME_IDLE,
	SME_AUTHENTICATING,
	SME_ASSOCIATING,
} SmeStep;

struct _WifiSme {
	WifiIface *iface;
	WifiSmeFunc func;
	gpointer user_data;
	SmeStep step;
	WifiBss *bss;
	gboolean secure;
	WifiRsnPlan plan;
	gboolean control_port_nl;
	guint request;
};

static const gchar *
step_name(SmeStep step)
{
	switch (step) {
	case SME_AUTHENTICATING:
		return "authentication";
	case SME_ASSOCIATING:
		return "association";
	default:
		return "idle";
	}
}

const gchar *
wifi_sme_status_to_string(guint16 status, gchar buf[16])
{
	/* IEEE 802.11-2020 Table 9-50, the codes an access point gives most. */
	switch (status) {
	case 0:
		return "success";
	case 1:
		return "unspecified failure";
	case 10:
		return "capabilities not supported";
	case 13:
		return "authentication algorithm not supported";
	case 17:
		return "access point full";
	case 30:
		return "try again later";
	case 31:
		return "robust management frame policy violation";
	case 43:
		return "invalid AKM";
	case 72:
		return "invalid RSN element capabilities";
	default:
		g_snprintf(buf, 16, "status %u", status);
		return buf;
	}
}

/* Ends the sequence: back to IDLE, then the callback (which may start
 * another). */
static void
sme_finish(WifiSme *self, WifiSmeResult result, guint16 status, int kernel_error)
{
	const gchar *stage = step_name(self->step);

	wifi_nl_cancel(self->iface->nl, self->request);
	self->request = 0;
	self->step = SME_IDLE;
	g_clear_pointer(&self->bss, wifi_bss_unref);
	self->func(result, stage, status, kernel_error, self->user_data);
}

static void
sme_command_done(int error, gpointer user_data)
{
	WifiSme *self = user_data;

	self->request = 0;
	if (error == 0 || self->step == SME_IDLE)
		return;
	g_debug("%s: %s command: %s", self->iface->name, step_name(self->step), g_strerror(-error));
	sme_finish(self, WIFI_SME_RESULT_KERNEL, 0, error);
}

void
wifi_sme_put_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, bss->bssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, bss->freq);
	nla_put(msg, NL80211_ATTR_SSID, (int)bss->ies.ssid_len, bss->ies.ssid);
	nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM);
}

void
wifi_sme_put_associate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                       const WifiRsnPlan *plan, gboolean control_port_nl)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, bss->bssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, bss->freq);
	nla_put(msg, NL80211_ATTR_SSID, (int)bss->ies.ssid_len, bss->ies.ssid);
	if (plan != NULL)
		wifi_rsn_put_associate(msg, plan, control_port_nl);
}

void
wifi_sme_put_deauthenticate(struct nl_msg *msg, guint32 ifindex, const guint8 *bssid,
                            guint16 reason)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, bssid);
	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, reason);
}

static void
sme_send(WifiSme *self, guint8 cmd)
{
	struct nl_msg *msg = wifi_nl_msg_new(self->iface->nl, cmd, 0);
	gchar addr[18];

	if (cmd == NL80211_CMD_AUTHENTICATE)
		wifi_sme_put_authenticate(msg, self->iface->ifindex, self->bss);
	else
		wifi_sme_put_associate(msg, self->iface->ifindex, self->bss,
		                       self->secure ? &self->plan : NULL, self->control_port_nl);
	g_info("%s: %s with %s (userspace SME)", self->iface->name,
	       cmd == NL80211_CMD_AUTHENTICATE ? "AUTHENTICATE" : "ASSOCIATE",
	       wifi_bssid_to_string(self->bss->bssid, addr));
	self->request = wifi_nl_send(self->iface->nl, msg, NULL, sme_command_done, self, NULL);
}

void
wifi_sme_start(WifiSme *self, WifiBss *bss, const WifiRsnPlan *plan, gboolean control_port_nl)
{
	wifi_sme_reset(self);
	self->bss = wifi_bss_ref(bss);
	self->secure = plan != NULL;
	if (plan != NULL)
		self->plan = *plan;
	self->control_port_nl = control_port_nl;
	self->step = SME_AUTHENTICATING;
	sme_send(self, NL80211_CMD_AUTHENTICATE);
}

void
wifi_sme_reset(WifiSme *self)
{
	wifi_nl_cancel(self->iface->nl, self->request);
	self->request = 0;
	self->step = SME_IDLE;
	g_clear_pointer(&self->bss, wifi_bss_unref);
}

gboolean
wifi_sme_is_pending(const WifiSme *self)
{
	return self->step != SME_IDLE;
}

/* The frame of an AUTHENTICATE / ASSOCIATE event: ours when it answers
 * the step under way, from our BSS. */
static gboolean
sme_answer(WifiSme *self, struct nlattr *frame, WifiMgmtAnswer *answer)
{
	g_autoptr(GError) error = NULL;

	if (!wifi_mgmt_parse_answer(nla_data(frame), (gsize)nla_len(frame), answer, &error)) {
		g_debug("%s: %s event: %s", self->iface->name, step_name(self->step),
		        error->message);
		return FALSE;
	}
	return answer->assoc == (self->step == SME_ASSOCIATING) &&
	       memcmp(answer->bssid, self->bss->bssid, 6) == 0;
}

gboolean
wifi_sme_handle_event(WifiSme *self, guint8 cmd, struct nlattr **attrs)
{
	SmeStep expected = cmd == NL80211_CMD_AUTHENTICATE ? SME_AUTHENTICATING : SME_ASSOCIATING;
	WifiMgmtAnswer answer;
	gchar buf[16];

	if (self->step == SME_IDLE || self->step != expected)
		return FALSE;
	if (attrs[NL80211_ATTR_TIMED_OUT] != NULL) {
		if (attrs[NL80211_ATTR_MAC] != NULL &&
		    (nla_len(attrs[NL80211_ATTR_MAC]) != 6 ||
		     memcmp(nla_data(attrs[NL80211_ATTR_MAC]), self->bss->bssid, 6) != 0))
			return FALSE;
		g_info("%s: %s timed out", self->iface->name, step_name(self->step));
		sme_finish(self, WIFI_SME_RESULT_NO_ANSWER, 0, 0);
		return TRUE;
	}
	if (attrs[NL80211_ATTR_FRAME] == NULL ||
	    !sme_answer(self, attrs[NL80211_ATTR_FRAME], &answer))
		return FALSE;
	g_info("%s: %s: %s", self->iface->name, step_name(self->step),
	       wifi_sme_status_to_string(answer.status, buf));
	if (answer.status != 0) {
		sme_finish(self, WIFI_SME_RESULT_REFUSED, answer.status, 0);
		return TRUE;
	}
	if (self->step == SME_AUTHENTICATING) {
		self->step = SME_ASSOCIATING;
		sme_send(self, NL80211_CMD_ASSOCIATE);
		return TRUE;
	}
	sme_finish(self, WIFI_SME_RESULT_ASSOCIATED, 0, 0);
	return TRUE;
}

WifiSme *
wifi_sme_new(WifiIface *iface, WifiSmeFunc func, gpointer user_data)
{
	WifiSme *self = g_new0(WifiSme, 1);

	self->iface = wifi_iface_ref(iface);
	self->func = func;
	self->user_data = user_data;
	return self;
}

void
wifi_sme_free(WifiSme *self)
{
	if (self == NULL)
		return;
	wifi_sme_reset(self);
	wifi_iface_unref(self->iface);
	g_free(self);
}
