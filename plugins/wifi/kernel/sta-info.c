/* sta-info.c - NL80211_ATTR_STA_INFO (see sta-info.h). */
#include "sta-info.h"

#include <linux/nl80211.h>
#include <netlink/attr.h>
#include <string.h>

G_DEFINE_QUARK(wifi - sta - info - error - quark, wifi_sta_info_error)

/* Walks the attributes by hand so that a truncated one is an error (libnl's
 * nla_parse() only logs it); memcpy keeps unaligned input safe. */
static gboolean
sta_info_collect(const guint8 *data, gsize len, const guint8 **found, guint16 *found_len, guint max,
                 GError **error)
{
	gsize off = 0;

	while (off < len) {
		struct nlattr hdr;
		guint16 type;

		if (len - off < sizeof(hdr)) {
			g_set_error(error, WIFI_STA_INFO_ERROR, WIFI_STA_INFO_ERROR_MALFORMED,
			            "station info: %zu stray octets at the end", len - off);
			return FALSE;
		}
		memcpy(&hdr, data + off, sizeof(hdr));
		if (hdr.nla_len < sizeof(hdr) || hdr.nla_len > len - off) {
			g_set_error(error, WIFI_STA_INFO_ERROR, WIFI_STA_INFO_ERROR_MALFORMED,
			            "station info: attribute length %u at offset %zu does not fit",
			            hdr.nla_len, off);
			return FALSE;
		}
		type = hdr.nla_type & NLA_TYPE_MASK;
		if (type <= max) {
			found[type] = data + off + sizeof(hdr);
			found_len[type] = (guint16)(hdr.nla_len - sizeof(hdr));
		}
		off += NLA_ALIGN(hdr.nla_len);
	}
	return TRUE;
}

/* 1 when the attribute is there with at least size octets, 0 when absent,
 * -1 (error set) when it is too short. */
static gint
sta_info_sized(const guint8 *const *found, const guint16 *found_len, guint type, gsize size,
               GError **error)
{
	if (found[type] == NULL)
		return 0;
	if (found_len[type] >= size)
		return 1;
	g_set_error(error, WIFI_STA_INFO_ERROR, WIFI_STA_INFO_ERROR_MALFORMED,
	            "station info: attribute %u has %u octets, expected %zu", type, found_len[type],
	            size);
	return -1;
}

/* Netlink attributes are in host order. */
static guint32
get_u32(const guint8 *p)
{
	guint32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static guint64
get_u64(const guint8 *p)
{
	guint64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The transmit rate nested in NL80211_STA_INFO_TX_BITRATE. */
static gboolean
sta_info_bitrate(const guint8 *data, gsize len, WifiStaInfo *info, GError **error)
{
	const guint8 *rate[NL80211_RATE_INFO_BITRATE32 + 1] = {NULL};
	guint16 rate_len[NL80211_RATE_INFO_BITRATE32 + 1] = {0};
	gint r32, r16;
	guint16 v16;

	if (!sta_info_collect(data, len, rate, rate_len, NL80211_RATE_INFO_BITRATE32, error))
		return FALSE;
	r32 = sta_info_sized(rate, rate_len, NL80211_RATE_INFO_BITRATE32, 4, error);
	if (r32 < 0)
		return FALSE;
	r16 = sta_info_sized(rate, rate_len, NL80211_RATE_INFO_BITRATE, 2, error);
	if (r16 < 0)
		return FALSE;
	if (r32 > 0) {
		info->tx_bitrate_100kbps = get_u32(rate[NL80211_RATE_INFO_BITRATE32]);
	} else if (r16 > 0) {
		memcpy(&v16, rate[NL80211_RATE_INFO_BITRATE], sizeof(v16));
		info->tx_bitrate_100kbps = v16;
	}
	info->has_tx_bitrate = r32 > 0 || r16 > 0;
	return TRUE;
}

/* A signed dBm octet: *has and *dbm; FALSE (error set) when malformed. */
static gboolean
sta_info_dbm(const guint8 *const *a, const guint16 *a_len, guint type, gboolean *has, gint *dbm,
             GError **error)
{
	gint r = sta_info_sized(a, a_len, type, 1, error);

	*has = r > 0;
	if (r > 0)
		*dbm = a[type][0] < 0x80 ? (gint)a[type][0] : (gint)a[type][0] - 0x100; /* s8 */
	return r >= 0;
}

static gboolean
sta_info_fill(const guint8 *const *a, const guint16 *a_len, WifiStaInfo *info, GError **error)
{
	gint r;

	if (!sta_info_dbm(a, a_len, NL80211_STA_INFO_SIGNAL, &info->has_signal, &info->signal_dbm,
	                  error) ||
	    !sta_info_dbm(a, a_len, NL80211_STA_INFO_SIGNAL_AVG, &info->has_signal_avg,
	                  &info->signal_avg_dbm, error))
		return FALSE;
	r = sta_info_sized(a, a_len, NL80211_STA_INFO_CONNECTED_TIME, 4, error);
	info->has_connected_time = r > 0;
	if (r > 0)
		info->connected_time_s = get_u32(a[NL80211_STA_INFO_CONNECTED_TIME]);
	if (r < 0)
		return FALSE;
	r = sta_info_sized(a, a_len, NL80211_STA_INFO_INACTIVE_TIME, 4, error);
	info->has_inactive_time = r > 0;
	if (r > 0)
		info->inactive_time_ms = get_u32(a[NL80211_STA_INFO_INACTIVE_TIME]);
	return r >= 0;
}

/* Byte counters: the 64-bit ones when the kernel gives them. */
static gboolean
sta_info_bytes(const guint8 *const *a, const guint16 *a_len, WifiStaInfo *info, GError **error)
{
	gint rx64, tx64, rx32, tx32;

	rx64 = sta_info_sized(a, a_len, NL80211_STA_INFO_RX_BYTES64, 8, error);
	tx64 = rx64 < 0 ? -1 : sta_info_sized(a, a_len, NL80211_STA_INFO_TX_BYTES64, 8, error);
	rx32 = tx64 < 0 ? -1 : sta_info_sized(a, a_len, NL80211_STA_INFO_RX_BYTES, 4, error);
	tx32 = rx32 < 0 ? -1 : sta_info_sized(a, a_len, NL80211_STA_INFO_TX_BYTES, 4, error);
	if (tx32 < 0)
		return FALSE;
	if (rx64 > 0 && tx64 > 0) {
		info->rx_bytes = get_u64(a[NL80211_STA_INFO_RX_BYTES64]);
		info->tx_bytes = get_u64(a[NL80211_STA_INFO_TX_BYTES64]);
		info->has_bytes = TRUE;
	} else if (rx32 > 0 && tx32 > 0) {
		info->rx_bytes = get_u32(a[NL80211_STA_INFO_RX_BYTES]);
		info->tx_bytes = get_u32(a[NL80211_STA_INFO_TX_BYTES]);
		info->has_bytes = TRUE;
	}
	return TRUE;
}

gboolean
wifi_sta_info_parse(const guint8 *data, gsize len, WifiStaInfo *info, GError **error)
{
	const guint8 *a[NL80211_STA_INFO_MAX + 1] = {NULL};
	guint16 a_len[NL80211_STA_INFO_MAX + 1] = {0};

	memset(info, 0, sizeof(*info));
	if (data == NULL && len > 0) {
		g_set_error_literal(error, WIFI_STA_INFO_ERROR, WIFI_STA_INFO_ERROR_MALFORMED,
		                    "station info: no data");
		return FALSE;
	}
	if (!sta_info_collect(data, len, a, a_len, NL80211_STA_INFO_MAX, error) ||
	    !sta_info_fill(a, a_len, info, error) || !sta_info_bytes(a, a_len, info, error))
		return FALSE;
	if (a[NL80211_STA_INFO_TX_BITRATE] != NULL &&
	    !sta_info_bitrate(a[NL80211_STA_INFO_TX_BITRATE], a_len[NL80211_STA_INFO_TX_BITRATE],
	                      info, error))
		return FALSE;
	return TRUE;
}
