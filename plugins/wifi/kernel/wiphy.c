/* wiphy.c - radio capabilities from nl80211 (see wiphy.h). */
#include "wiphy.h"

#include "ie.h"

#define SUITE_OUI_IEEE 0x000fac

WifiWiphy *
wifi_wiphy_new(guint32 id)
{
	WifiWiphy *self = g_new0(WifiWiphy, 1);

	self->refcount = 1;
	self->id = id;
	self->channels = g_array_new(FALSE, TRUE, sizeof(WifiChannel));
	return self;
}

WifiWiphy *
wifi_wiphy_ref(WifiWiphy *self)
{
	g_atomic_int_inc(&self->refcount);
	return self;
}

void
wifi_wiphy_unref(WifiWiphy *self)
{
	if (self == NULL || !g_atomic_int_dec_and_test(&self->refcount))
		return;
	g_array_unref(self->channels);
	g_free(self->name);
	g_free(self);
}

static WifiChannel *
channel_lookup_or_add(WifiWiphy *self, guint32 freq)
{
	WifiChannel c = {.freq = freq};
	guint i;

	for (i = 0; i < self->channels->len; i++) {
		WifiChannel *have = &g_array_index(self->channels, WifiChannel, i);

		if (have->freq == freq)
			return have;
		if (have->freq > freq)
			break;
	}
	g_array_insert_val(self->channels, i, c);
	return &g_array_index(self->channels, WifiChannel, i);
}

static void
parse_freqs(WifiWiphy *self, struct nlattr *freqs)
{
	struct nlattr *f;
	int rem;

	nla_for_each_nested(f, freqs, rem)
	{
		struct nlattr *tb[NL80211_FREQUENCY_ATTR_MAX + 1];
		WifiChannel *c;

		if (nla_parse_nested(tb, NL80211_FREQUENCY_ATTR_MAX, f, NULL) < 0 ||
		    tb[NL80211_FREQUENCY_ATTR_FREQ] == NULL)
			continue;
		c = channel_lookup_or_add(self, nla_get_u32(tb[NL80211_FREQUENCY_ATTR_FREQ]));
		c->disabled = tb[NL80211_FREQUENCY_ATTR_DISABLED] != NULL;
		c->no_ir = tb[NL80211_FREQUENCY_ATTR_NO_IR] != NULL;
		c->radar = tb[NL80211_FREQUENCY_ATTR_RADAR] != NULL;
	}
}

static void
parse_bands(WifiWiphy *self, struct nlattr *bands)
{
	struct nlattr *band;
	int rem;

	nla_for_each_nested(band, bands, rem)
	{
		struct nlattr *tb[NL80211_BAND_ATTR_MAX + 1];
		guint32 bit = 1u << (nla_type(band) & 31);

		if (nla_parse_nested(tb, NL80211_BAND_ATTR_MAX, band, NULL) < 0)
			continue;
		if (tb[NL80211_BAND_ATTR_FREQS] != NULL) {
			parse_freqs(self, tb[NL80211_BAND_ATTR_FREQS]);
			self->bands |= bit;
		}
		if (tb[NL80211_BAND_ATTR_HT_CAPA] != NULL)
			self->ht_bands |= bit;
		if (tb[NL80211_BAND_ATTR_VHT_CAPA] != NULL)
			self->vht_bands |= bit;
		if (tb[NL80211_BAND_ATTR_IFTYPE_DATA] != NULL)
			self->he_bands |= bit;
	}
}

/* Suite selectors are (OUI << 8) | type; only IEEE 00-0F-AC ones map. */
static guint32
parse_suites(struct nlattr *attr, gboolean akm)
{
	const guint32 *suites = nla_data(attr);
	guint n = nla_len(attr) / sizeof(guint32);
	guint32 bits = 0;

	for (guint i = 0; i < n; i++) {
		guint type = suites[i] & 0xff;

		if ((suites[i] >> 8) != SUITE_OUI_IEEE)
			continue;
		if (akm && type >= 1 && type <= 25)
			bits |= WIFI_AKM_BIT(type);
		else if (!akm && type <= 13)
			bits |= 1u << type;
	}
	return bits;
}

static void
parse_commands(WifiWiphy *self, struct nlattr *cmds)
{
	struct nlattr *c;
	int rem;

	gboolean auth = FALSE;
	gboolean assoc = FALSE;

	nla_for_each_nested(c, cmds, rem)
	{
		guint32 cmd = nla_get_u32(c);

		if (cmd == NL80211_CMD_AUTHENTICATE)
			auth = TRUE;
		else if (cmd == NL80211_CMD_ASSOCIATE)
			assoc = TRUE;
		else if (cmd == NL80211_CMD_CONNECT)
			self->supports_connect = TRUE;
	}
	if (auth && assoc)
		self->supports_auth_assoc = TRUE;
}

static void
parse_iftypes(WifiWiphy *self, struct nlattr *types)
{
	struct nlattr *t;
	int rem;

	nla_for_each_nested(t, types, rem) self->iftypes |= 1u << (nla_type(t) & 31);
}

void
wifi_wiphy_update(WifiWiphy *self, struct nlattr **attrs)
{
	if (attrs[NL80211_ATTR_WIPHY_NAME] != NULL) {
		g_free(self->name);
		self->name = g_strdup(nla_get_string(attrs[NL80211_ATTR_WIPHY_NAME]));
	}
	if (attrs[NL80211_ATTR_WIPHY_BANDS] != NULL)
		parse_bands(self, attrs[NL80211_ATTR_WIPHY_BANDS]);
	if (attrs[NL80211_ATTR_CIPHER_SUITES] != NULL)
		self->ciphers = parse_suites(attrs[NL80211_ATTR_CIPHER_SUITES], FALSE);
	if (attrs[NL80211_ATTR_AKM_SUITES] != NULL)
		self->akms = parse_suites(attrs[NL80211_ATTR_AKM_SUITES], TRUE);
	if (attrs[NL80211_ATTR_SUPPORTED_IFTYPES] != NULL)
		parse_iftypes(self, attrs[NL80211_ATTR_SUPPORTED_IFTYPES]);
	if (attrs[NL80211_ATTR_SUPPORTED_COMMANDS] != NULL)
		parse_commands(self, attrs[NL80211_ATTR_SUPPORTED_COMMANDS]);
	if (attrs[NL80211_ATTR_FEATURE_FLAGS] != NULL)
		self->features = nla_get_u32(attrs[NL80211_ATTR_FEATURE_FLAGS]);
	if (attrs[NL80211_ATTR_MAX_NUM_SCAN_SSIDS] != NULL)
		self->max_scan_ssids = nla_get_u8(attrs[NL80211_ATTR_MAX_NUM_SCAN_SSIDS]);
	if (attrs[NL80211_ATTR_MAX_SCAN_IE_LEN] != NULL)
		self->max_scan_ie_len = nla_get_u16(attrs[NL80211_ATTR_MAX_SCAN_IE_LEN]);
	if (attrs[NL80211_ATTR_EXT_FEATURES] != NULL) {
		gsize n = MIN((gsize)nla_len(attrs[NL80211_ATTR_EXT_FEATURES]),
		              sizeof(self->ext_features));

		memcpy(self->ext_features, nla_data(attrs[NL80211_ATTR_EXT_FEATURES]), n);
	}
	if (attrs[NL80211_ATTR_EXT_CAPA] != NULL) {
		self->ext_capa_len = (guint8)MIN((gsize)nla_len(attrs[NL80211_ATTR_EXT_CAPA]),
		                                 sizeof(self->ext_capa));
		memcpy(self->ext_capa, nla_data(attrs[NL80211_ATTR_EXT_CAPA]), self->ext_capa_len);
	}
}

gboolean
wifi_wiphy_has_ext_feature(const WifiWiphy *self, guint feature)
{
	if (feature / 8 >= sizeof(self->ext_features))
		return FALSE;
	return (self->ext_features[feature / 8] & (1u << (feature % 8))) != 0;
}

gboolean
wifi_wiphy_can_rrm(const WifiWiphy *self)
{
	const guint32 minimal = NL80211_FEATURE_DS_PARAM_SET_IE_IN_PROBES | NL80211_FEATURE_QUIET;

	return (self->features & minimal) == minimal ||
	       wifi_wiphy_has_ext_feature(self, NL80211_EXT_FEATURE_RRM);
}

gboolean
wifi_wiphy_supports_cipher(const WifiWiphy *self, guint suite_type)
{
	/* parse_suites() keeps IEEE suites as 1 << type. */
	return suite_type < 32 && (self->ciphers & (1u << suite_type)) != 0;
}

gboolean
wifi_wiphy_can_control_port_nl80211(const WifiWiphy *self)
{
	return wifi_wiphy_has_ext_feature(self, NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211);
}

gboolean
wifi_wiphy_can_sae(const WifiWiphy *self)
{
	/* A driver that lists its AKMs must list SAE; otherwise the SAE
	 * feature flag (userspace SAE through CMD_AUTHENTICATE) or offload. */
	if (self->akms != 0 && !(self->akms & WIFI_AKM_SAE))
		return FALSE;
	return (self->features & NL80211_FEATURE_SAE) ||
	       wifi_wiphy_has_ext_feature(self, NL80211_EXT_FEATURE_SAE_OFFLOAD);
}

gboolean
wifi_wiphy_can_sae_sme(const WifiWiphy *self)
{
	if (self->akms != 0 && !(self->akms & WIFI_AKM_SAE))
		return FALSE;
	return self->supports_auth_assoc && (self->features & NL80211_FEATURE_SAE) != 0;
}

gchar *
wifi_wiphy_describe(const WifiWiphy *self)
{
	static const gchar *const band_names[] = {"2.4GHz", "5GHz", "60GHz", "6GHz"};
	GString *s = g_string_new(NULL);
	guint enabled = 0;

	for (guint i = 0; i < G_N_ELEMENTS(band_names); i++) {
		if (self->bands & (1u << i))
			g_string_append_printf(s, "%s%s", s->len > 0 ? "+" : "", band_names[i]);
	}
	for (guint i = 0; i < self->channels->len; i++)
		enabled += !g_array_index(self->channels, WifiChannel, i).disabled;
	g_string_append_printf(s, ", %u channels, ciphers", enabled);
	for (guint b = 0; b < 14; b++) {
		if (self->ciphers & (1u << b))
			g_string_append_printf(s, " %s", wifi_cipher_to_string(1u << b));
	}
	g_string_append_printf(s, ", station%s, AP%s, max %u scan SSIDs, SME %s, SAE %s",
	                       (self->iftypes & (1u << NL80211_IFTYPE_STATION)) ? "" : " no",
	                       (self->iftypes & (1u << NL80211_IFTYPE_AP)) ? "" : " no",
	                       self->max_scan_ssids,
	                       self->supports_auth_assoc ? "userspace" : "in driver",
	                       wifi_wiphy_can_sae(self) ? "yes" : "no");
	return g_string_free(s, FALSE);
}

gint
wifi_freq_to_band(guint32 freq)
{
	if (freq >= 2400 && freq <= 2500)
		return NL80211_BAND_2GHZ;
	if (freq >= 5925 && freq <= 7125)
		return NL80211_BAND_6GHZ;
	if (freq >= 4900 && freq < 5925)
		return NL80211_BAND_5GHZ;
	if (freq >= 57000 && freq <= 71000)
		return NL80211_BAND_60GHZ;
	return -1;
}

guint
wifi_freq_to_channel(guint32 freq)
{
	if (freq == 2484)
		return 14;
	if (freq >= 2412 && freq < 2484)
		return (freq - 2407) / 5;
	if (freq == 5935)
		return 2;
	if (freq > 5950 && freq <= 7125)
		return (freq - 5950) / 5;
	if (freq >= 4910 && freq <= 5895)
		return (freq - 5000) / 5;
	return 0;
}
