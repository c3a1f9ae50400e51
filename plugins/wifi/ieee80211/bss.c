/* bss.c - scan entries into WifiBss (see bss.h). */
#include "bss.h"

#include <linux/nl80211.h>
#include <string.h>

#include "joind-mac.h"
#include "joind-error.h"

WifiBss *
wifi_bss_ref(WifiBss *self)
{
	g_atomic_int_inc(&self->refcount);
	return self;
}

void
wifi_bss_unref(WifiBss *self)
{
	if (self == NULL || !g_atomic_int_dec_and_test(&self->refcount))
		return;
	g_clear_pointer(&self->ie_data, g_bytes_unref);
	g_free(self);
}

gboolean
wifi_security_classify(const WifiIes *ies, guint16 capability, JoindNetworkType *type)
{
	guint32 akms;

	if (ies->has_rsn) {
		akms = ies->rsn.akms;
		/* PSK, SAE or both: one network (as iwd), joined with SAE
		 * where the radio can (rsn.c). */
		if (akms & (WIFI_AKMS_PSK | WIFI_AKMS_SAE))
			*type = JOIND_NETWORK_TYPE_PSK;
		else if (akms & WIFI_AKMS_8021X)
			*type = JOIND_NETWORK_TYPE_8021X;
		else if (akms & WIFI_AKM_OWE)
			*type = JOIND_NETWORK_TYPE_OPEN; /* as iwd: Security says "owe" */
		else
			return FALSE;
		return TRUE;
	}
	if (ies->has_wpa) {
		if (ies->wpa.akms & WIFI_AKM_PSK)
			*type = JOIND_NETWORK_TYPE_PSK;
		else if (ies->wpa.akms & WIFI_AKM_8021X)
			*type = JOIND_NETWORK_TYPE_8021X;
		else
			return FALSE;
		return TRUE;
	}
	*type = (capability & WIFI_CAPABILITY_PRIVACY) ? JOIND_NETWORK_TYPE_WEP
	                                               : JOIND_NETWORK_TYPE_OPEN;
	return TRUE;
}

const gchar *
wifi_security_name(JoindNetworkType type, guint32 akms, gboolean mfp_required)
{
	gboolean psk = (akms & WIFI_AKMS_PSK) != 0, sae = (akms & WIFI_AKMS_SAE) != 0;

	if (type == JOIND_NETWORK_TYPE_PSK)
		return psk && sae ? "wpa2-wpa3" : sae ? "wpa3-sae" : "wpa2-psk";
	if (type == JOIND_NETWORK_TYPE_OPEN && (akms & WIFI_AKM_OWE))
		return "owe";
	if (type != JOIND_NETWORK_TYPE_8021X)
		return joind_network_type_to_string(type);
	if (akms & WIFI_AKM_8021X_SUITE_B_192)
		return "wpa3-enterprise-192";
	return mfp_required && (akms & WIFI_AKM_8021X_SHA256) ? "wpa3-enterprise"
	                                                      : "wpa2-enterprise";
}

WifiBss *
wifi_bss_new(const guint8 *bssid, guint32 freq, gint signal, guint16 capability, const guint8 *ies,
             gsize ies_len, GError **error)
{
	g_autoptr(WifiBss) self = g_new0(WifiBss, 1);
	g_autoptr(GError) local = NULL;
	gchar addr[JOIND_MAC_STRING_LEN];

	self->refcount = 1;
	memcpy(self->bssid, bssid, 6);
	self->freq = freq;
	self->signal = signal;
	self->capability = capability;
	self->ie_data = g_bytes_new(ies, ies_len);
	if (!wifi_ies_parse(ies, ies_len, &self->ies, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "BSS %s: %s",
		            joind_mac_to_string(bssid, addr), local->message);
		return NULL;
	}
	if (!wifi_security_classify(&self->ies, capability, &self->type)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "BSS %s offers no key management joind knows",
		            joind_mac_to_string(bssid, addr));
		return NULL;
	}
	return g_steal_pointer(&self);
}

/* nla_get_*() reads the full width whatever the attribute's length: a
 * short one must be refused before it is read. */
static const struct nla_policy bss_policy[NL80211_BSS_MAX + 1] = {
        [NL80211_BSS_FREQUENCY] = {.type = NLA_U32},
        [NL80211_BSS_SIGNAL_MBM] = {.type = NLA_U32},
        [NL80211_BSS_SIGNAL_UNSPEC] = {.type = NLA_U8},
        [NL80211_BSS_CAPABILITY] = {.type = NLA_U16},
        [NL80211_BSS_LAST_SEEN_BOOTTIME] = {.type = NLA_U64},
        [NL80211_BSS_SEEN_MS_AGO] = {.type = NLA_U32},
};

WifiBss *
wifi_bss_new_from_nl(struct nlattr *bss_attr, GError **error)
{
	struct nlattr *tb[NL80211_BSS_MAX + 1];
	WifiBss *self;
	gint signal = -10000;
	guint16 capability = 0;

	if (nla_parse_nested(tb, NL80211_BSS_MAX, bss_attr, bss_policy) < 0) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "scan entry with a malformed attribute");
		return NULL;
	}
	if (tb[NL80211_BSS_BSSID] == NULL || nla_len(tb[NL80211_BSS_BSSID]) != 6 ||
	    tb[NL80211_BSS_FREQUENCY] == NULL || tb[NL80211_BSS_INFORMATION_ELEMENTS] == NULL) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "scan entry without BSSID, frequency or elements");
		return NULL;
	}
	if (tb[NL80211_BSS_SIGNAL_MBM] != NULL)
		signal = (gint)nla_get_u32(tb[NL80211_BSS_SIGNAL_MBM]);
	else if (tb[NL80211_BSS_SIGNAL_UNSPEC] != NULL) /* 0..100: map onto -100..-40 dBm */
		signal = -10000 + 60 * nla_get_u8(tb[NL80211_BSS_SIGNAL_UNSPEC]);
	if (tb[NL80211_BSS_CAPABILITY] != NULL)
		capability = nla_get_u16(tb[NL80211_BSS_CAPABILITY]);
	self = wifi_bss_new(nla_data(tb[NL80211_BSS_BSSID]), nla_get_u32(tb[NL80211_BSS_FREQUENCY]),
	                    signal, capability, nla_data(tb[NL80211_BSS_INFORMATION_ELEMENTS]),
	                    nla_len(tb[NL80211_BSS_INFORMATION_ELEMENTS]), error);
	if (self == NULL)
		return NULL;
	if (tb[NL80211_BSS_LAST_SEEN_BOOTTIME] != NULL)
		self->last_seen_ns = nla_get_u64(tb[NL80211_BSS_LAST_SEEN_BOOTTIME]);
	if (tb[NL80211_BSS_SEEN_MS_AGO] != NULL)
		self->seen_ms_ago = nla_get_u32(tb[NL80211_BSS_SEEN_MS_AGO]);
	self->from_probe_response = tb[NL80211_BSS_PRESP_DATA] != NULL;
	return self;
}

guint
wifi_bss_entry_hash(gconstpointer bss)
{
	const WifiBss *self = bss;
	guint h = 5381u + (guint)self->type;

	for (guint i = 0; i < 6; i++)
		h = h * 33u + self->bssid[i];
	for (guint i = 0; i < self->ies.ssid_len; i++)
		h = h * 33u + self->ies.ssid[i];
	return h;
}

gboolean
wifi_bss_entry_equal(gconstpointer a, gconstpointer b)
{
	const WifiBss *x = a, *y = b;

	return x->type == y->type && x->ies.ssid_len == y->ies.ssid_len &&
	       memcmp(x->bssid, y->bssid, 6) == 0 &&
	       memcmp(x->ies.ssid, y->ies.ssid, x->ies.ssid_len) == 0;
}

gboolean
wifi_bss_is_hidden(const WifiBss *self)
{
	return !self->ies.has_ssid || wifi_ssid_is_hidden(self->ies.ssid, self->ies.ssid_len);
}
