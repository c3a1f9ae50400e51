/* eapol-key.h - EAPOL-Key frames (IEEE 802.11-2020 12.7.2): parse, build,
 * MIC, and the AES key wrap of their Key Data field.
 *
 * A frame here is the whole EAPOL packet as it travels over nl80211's
 * control port or an AF_PACKET socket: the IEEE 802.1X header (protocol
 * version, packet type 3, body length) and the key descriptor. The Key MIC
 * field's length depends on the AKM (16 octets for every AKM this library
 * supports), so parsing takes it as an argument.
 */
#pragma once

#include <glib.h>

#include "rsn-keys.h"

G_BEGIN_DECLS

#define WIFI_EAPOL_PACKET_KEY   3
#define WIFI_EAPOL_KEY_DESC_RSN 2
#define WIFI_EAPOL_KEY_DESC_WPA 254

/* Key Information bits. */
#define WIFI_KEY_INFO_VERSION_MASK 0x0007u
#define WIFI_KEY_INFO_PAIRWISE     0x0008u
#define WIFI_KEY_INFO_INSTALL      0x0040u
#define WIFI_KEY_INFO_ACK          0x0080u
#define WIFI_KEY_INFO_MIC          0x0100u
#define WIFI_KEY_INFO_SECURE       0x0200u
#define WIFI_KEY_INFO_ERROR        0x0400u
#define WIFI_KEY_INFO_REQUEST      0x0800u
#define WIFI_KEY_INFO_ENCRYPTED    0x1000u
#define WIFI_KEY_INFO_SMK          0x2000u

/* Octets before the Key MIC (802.1X header and fixed descriptor fields),
 * i.e. the MIC's offset in a frame. */
#define WIFI_EAPOL_KEY_MIC_OFFSET 81
/* The shortest frame for a MIC length: header, fields, MIC, key data length. */
#define WIFI_EAPOL_KEY_MIN_LEN(mic_len) (WIFI_EAPOL_KEY_MIC_OFFSET + (mic_len) + 2)
/* Longest Key Data accepted (far above any real frame; bounds allocations). */
#define WIFI_EAPOL_KEY_DATA_MAX 2048

/* A parsed EAPOL-Key frame. mic and key_data point into the parsed buffer,
 * so the view lives as long as that buffer. To build a frame, fill the
 * fields (mic may be NULL: the MIC field is then zero, to be signed). */
typedef struct {
	guint8 protocol_version; /* IEEE 802.1X version: 1, 2 or 3 */
	guint8 descriptor_type;  /* WIFI_EAPOL_KEY_DESC_RSN */
	guint16 key_info;
	guint16 key_length;
	guint64 replay_counter;
	guint8 nonce[WIFI_NONCE_LEN];
	guint8 iv[16];
	guint8 rsc[8];
	const guint8 *mic;
	gsize mic_len;
	const guint8 *key_data;
	gsize key_data_len;
	gsize frame_len; /* header + body: what the MIC covers (set by parse) */
} WifiEapolKey;

/* The descriptor version bits of key_info. */
#define wifi_eapol_key_version(key) ((guint)((key)->key_info & WIFI_KEY_INFO_VERSION_MASK))

/* Parses a frame. Octets after the 802.1X body (link-layer padding) are
 * ignored. Fails with MALFORMED (lengths, packet type, descriptor version
 * 4..7) or UNSUPPORTED (the WPA1 descriptor). */
gboolean wifi_eapol_key_parse(const guint8 *data, gsize len, gsize mic_len, WifiEapolKey *key,
                              GError **error);

/* Serialises key (frame_len is ignored); returns a new buffer of *out_len
 * octets. */
guint8 *wifi_eapol_key_build(const WifiEapolKey *key, gsize *out_len);

/* Computes the MIC of a frame (its MIC field taken as zero) with the AKM's
 * algorithm: HMAC-SHA1-128 (AKMs 1, 2) or AES-128-CMAC (AKMs 5, 6, 8). */
gboolean wifi_eapol_key_compute_mic(guint akm, const guint8 *kck, gsize kck_len,
                                    const guint8 *frame, gsize frame_len, gsize mic_len,
                                    guint8 *mic, GError **error);
/* Writes the MIC into a built frame. */
gboolean wifi_eapol_key_sign(guint akm, const guint8 *kck, gsize kck_len, guint8 *frame,
                             gsize frame_len, gsize mic_len, GError **error);
/* Checks a parsed frame's MIC (constant-time compare); fails with MIC. */
gboolean wifi_eapol_key_verify_mic(guint akm, const guint8 *kck, gsize kck_len, const guint8 *frame,
                                   const WifiEapolKey *key, GError **error);

/* Key Data encryption: pads (0xdd then zeros, to a multiple of 8 and at
 * least 16 octets, 12.7.2 j) and wraps with the KEK. Returns a new buffer
 * of *out_len octets. */
guint8 *wifi_eapol_key_data_encrypt(const guint8 *kek, gsize kek_len, const guint8 *plain,
                                    gsize len, gsize *out_len, GError **error);
/* Unwraps Key Data; the result may end in padding, which the key data
 * parser recognises. Returns a new buffer (wipe it: it holds keys). */
guint8 *wifi_eapol_key_data_decrypt(const guint8 *kek, gsize kek_len, const guint8 *data, gsize len,
                                    gsize *out_len, GError **error);

G_END_DECLS
