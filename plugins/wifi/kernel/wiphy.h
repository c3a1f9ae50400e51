/* wiphy.h - what a radio (wiphy) can do, from nl80211's wiphy dump.
 *
 * The kernel splits one wiphy over several dump messages
 * (NL80211_ATTR_SPLIT_WIPHY_DUMP); wifi_wiphy_update() merges each into the
 * same WifiWiphy.
 */
#pragma once

#include <glib.h>
#include <linux/nl80211.h>
#include <netlink/attr.h>

G_BEGIN_DECLS

typedef struct {
	guint32 freq; /* MHz */
	gboolean disabled;
	gboolean no_ir; /* passive scanning only */
	gboolean radar;
} WifiChannel;

typedef struct {
	gint refcount;
	guint32 id;
	gchar *name;
	GArray *channels; /* WifiChannel, sorted by frequency */
	guint32 bands;    /* 1 << NL80211_BAND_* with at least one channel */
	guint32 ht_bands; /* bands with HT capabilities */
	guint32 vht_bands;
	guint32 he_bands;
	guint32 ciphers;         /* WifiCipher bits */
	guint32 iftypes;         /* 1 << NL80211_IFTYPE_* */
	guint32 features;        /* NL80211_ATTR_FEATURE_FLAGS */
	guint8 ext_features[16]; /* NL80211_ATTR_EXT_FEATURES bitmap */
	/* NL80211_ATTR_EXT_CAPA: the Extended Capabilities the driver
	 * offers (octets), which a station's association request carries. */
	guint8 ext_capa[16];
	guint8 ext_capa_len;
	guint32 akms; /* WifiAkm bits the driver lists, 0 if it lists none */
	guint max_scan_ssids;
	guint max_scan_ie_len;
	gboolean supports_auth_assoc; /* CMD_AUTHENTICATE and CMD_ASSOCIATE: userspace SME */
	gboolean supports_connect;    /* CMD_CONNECT */
} WifiWiphy;

WifiWiphy *wifi_wiphy_new(guint32 id);
WifiWiphy *wifi_wiphy_ref(WifiWiphy *self);
void wifi_wiphy_unref(WifiWiphy *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiWiphy, wifi_wiphy_unref)

/* Merges one NEW_WIPHY message (attrs indexed by NL80211_ATTR_*). */
void wifi_wiphy_update(WifiWiphy *self, struct nlattr **attrs);

gboolean wifi_wiphy_has_ext_feature(const WifiWiphy *self, guint feature);
/* Whether the kernel takes NL80211_ATTR_USE_RRM (radio measurement in
 * the association): the feature flags it asks for, or EXT_FEATURE_RRM. */
gboolean wifi_wiphy_can_rrm(const WifiWiphy *self);
/* Whether the radio lists cipher suite 00-0F-AC:suite_type (e.g. 6 for
 * BIP-CMAC-128, which management frame protection needs). */
gboolean wifi_wiphy_supports_cipher(const WifiWiphy *self, guint suite_type);
/* Whether EAPOL can travel over nl80211 (CONTROL_PORT_OVER_NL80211). */
gboolean wifi_wiphy_can_control_port_nl80211(const WifiWiphy *self);
/* Can this radio run SAE (in the kernel, or with userspace SAE frames)? */
gboolean wifi_wiphy_can_sae(const WifiWiphy *self);
/* Can joind's SME run SAE on this radio (CMD_AUTHENTICATE with SAE
 * frames)? */
gboolean wifi_wiphy_can_sae_sme(const WifiWiphy *self);
/* One line for logs: bands, channel count, ciphers, modes, features. */
gchar *wifi_wiphy_describe(const WifiWiphy *self);

/* 2.4, 5, 6 GHz band of a frequency (NL80211_BAND_*), -1 when unknown. */
gint wifi_freq_to_band(guint32 freq);
guint wifi_freq_to_channel(guint32 freq);

G_END_DECLS
