/* eapol-key.c - EAPOL-Key frame layout (IEEE 802.11-2020 figure 12-32),
 * MIC algorithms and Key Data wrapping. */
#include "eapol-key.h"

#include <string.h>

#include "joind-secret.h"
#include "rsn-crypto.h"
#include "rsn-suites.h"

/* Offsets in a frame (802.1X header included). */
enum {
	OFF_PROTOCOL_VERSION = 0,
	OFF_PACKET_TYPE = 1,
	OFF_BODY_LENGTH = 2,
	OFF_DESCRIPTOR_TYPE = 4,
	OFF_KEY_INFO = 5,
	OFF_KEY_LENGTH = 7,
	OFF_REPLAY_COUNTER = 9,
	OFF_NONCE = 17,
	OFF_IV = 49,
	OFF_RSC = 65,
	OFF_RESERVED = 73,
	OFF_MIC = WIFI_EAPOL_KEY_MIC_OFFSET,
};
#define HEADER_LEN 4
/* Largest MIC any AKM defines (Suite B 192, FT-SHA384: 24 octets). */
#define MIC_MAX 32

static guint16
get_be16(const guint8 *p)
{
	return (guint16)(p[0] << 8 | p[1]);
}

static void
put_be16(guint8 *p, guint16 v)
{
	p[0] = (guint8)(v >> 8);
	p[1] = (guint8)(v & 0xff);
}

static gboolean malformed(GError **error, const gchar *format, ...) G_GNUC_PRINTF(2, 3);

static gboolean
malformed(GError **error, const gchar *format, ...)
{
	va_list args;
	g_autofree gchar *message = NULL;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MALFORMED,
	            "Malformed EAPOL-Key frame: %s", message);
	return FALSE;
}

/* The 802.1X header: an EAPOL-Key packet whose body fits in the buffer. */
static gboolean
parse_header(const guint8 *data, gsize len, gsize *body_len, GError **error)
{
	if (len < HEADER_LEN)
		return malformed(error,
		                 "%" G_GSIZE_FORMAT " octets is shorter than the "
		                 "IEEE 802.1X header",
		                 len);
	if (data[OFF_PROTOCOL_VERSION] < 1 || data[OFF_PROTOCOL_VERSION] > 3)
		return malformed(error, "unknown IEEE 802.1X protocol version %u",
		                 data[OFF_PROTOCOL_VERSION]);
	if (data[OFF_PACKET_TYPE] != WIFI_EAPOL_PACKET_KEY)
		return malformed(error, "EAPOL packet type %u is not EAPOL-Key (3)",
		                 data[OFF_PACKET_TYPE]);
	*body_len = get_be16(data + OFF_BODY_LENGTH);
	if (*body_len > len - HEADER_LEN)
		return malformed(error,
		                 "the body length %" G_GSIZE_FORMAT " runs past the end "
		                 "of the %" G_GSIZE_FORMAT " octet frame",
		                 *body_len, len);
	return TRUE;
}

gboolean
wifi_eapol_key_parse(const guint8 *data, gsize len, gsize mic_len, WifiEapolKey *key,
                     GError **error)
{
	gsize body_len = 0, frame_len, kd_off;

	g_return_val_if_fail(key != NULL, FALSE);
	g_return_val_if_fail(mic_len <= MIC_MAX, FALSE);
	memset(key, 0, sizeof(*key));
	if (!parse_header(data, len, &body_len, error))
		return FALSE;
	frame_len = HEADER_LEN + body_len;
	if (frame_len < WIFI_EAPOL_KEY_MIN_LEN(mic_len))
		return malformed(error,
		                 "the body of %" G_GSIZE_FORMAT " octets is too short for "
		                 "a key descriptor with a %" G_GSIZE_FORMAT " octet MIC",
		                 body_len, mic_len);
	if (data[OFF_DESCRIPTOR_TYPE] == WIFI_EAPOL_KEY_DESC_WPA) {
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		                    "The access point uses the WPA (version 1) key descriptor, "
		                    "which is not supported: only WPA2/WPA3 (RSN)");
		return FALSE;
	}
	if (data[OFF_DESCRIPTOR_TYPE] != WIFI_EAPOL_KEY_DESC_RSN)
		return malformed(error, "unknown key descriptor type %u",
		                 data[OFF_DESCRIPTOR_TYPE]);
	key->protocol_version = data[OFF_PROTOCOL_VERSION];
	key->descriptor_type = data[OFF_DESCRIPTOR_TYPE];
	key->key_info = get_be16(data + OFF_KEY_INFO);
	if (wifi_eapol_key_version(key) > WIFI_KEY_DESC_VERSION_CMAC_AES)
		return malformed(error, "unknown key descriptor version %u",
		                 wifi_eapol_key_version(key));
	key->key_length = get_be16(data + OFF_KEY_LENGTH);
	for (gsize i = 0; i < 8; i++)
		key->replay_counter = key->replay_counter << 8 | data[OFF_REPLAY_COUNTER + i];
	memcpy(key->nonce, data + OFF_NONCE, WIFI_NONCE_LEN);
	memcpy(key->iv, data + OFF_IV, sizeof(key->iv));
	memcpy(key->rsc, data + OFF_RSC, sizeof(key->rsc));
	key->mic = data + OFF_MIC;
	key->mic_len = mic_len;
	kd_off = OFF_MIC + mic_len + 2;
	key->key_data_len = get_be16(data + OFF_MIC + mic_len);
	if (key->key_data_len > frame_len - kd_off)
		return malformed(error,
		                 "the key data length %" G_GSIZE_FORMAT " runs past the "
		                 "end of the body (%" G_GSIZE_FORMAT " octets left)",
		                 key->key_data_len, frame_len - kd_off);
	key->key_data = key->key_data_len > 0 ? data + kd_off : NULL;
	key->frame_len = frame_len;
	return TRUE;
}

guint8 *
wifi_eapol_key_build(const WifiEapolKey *key, gsize *out_len)
{
	gsize len = WIFI_EAPOL_KEY_MIN_LEN(key->mic_len) + key->key_data_len;
	guint8 *frame;

	g_return_val_if_fail(key->mic_len <= MIC_MAX, NULL);
	g_return_val_if_fail(key->key_data_len <= WIFI_EAPOL_KEY_DATA_MAX, NULL);
	frame = g_malloc0(len);
	frame[OFF_PROTOCOL_VERSION] = key->protocol_version;
	frame[OFF_PACKET_TYPE] = WIFI_EAPOL_PACKET_KEY;
	put_be16(frame + OFF_BODY_LENGTH, (guint16)(len - HEADER_LEN));
	frame[OFF_DESCRIPTOR_TYPE] = key->descriptor_type;
	put_be16(frame + OFF_KEY_INFO, key->key_info);
	put_be16(frame + OFF_KEY_LENGTH, key->key_length);
	for (gsize i = 0; i < 8; i++)
		frame[OFF_REPLAY_COUNTER + i] = (guint8)(key->replay_counter >> (56 - 8 * i));
	memcpy(frame + OFF_NONCE, key->nonce, WIFI_NONCE_LEN);
	memcpy(frame + OFF_IV, key->iv, sizeof(key->iv));
	memcpy(frame + OFF_RSC, key->rsc, sizeof(key->rsc));
	if (key->mic != NULL)
		memcpy(frame + OFF_MIC, key->mic, key->mic_len);
	put_be16(frame + OFF_MIC + key->mic_len, (guint16)key->key_data_len);
	if (key->key_data_len > 0)
		memcpy(frame + OFF_MIC + key->mic_len + 2, key->key_data, key->key_data_len);
	*out_len = len;
	return frame;
}

gboolean
wifi_eapol_key_compute_mic(guint akm, const guint8 *kck, gsize kck_len, const guint8 *frame,
                           gsize frame_len, gsize mic_len, guint8 *mic, GError **error)
{
	const WifiAkmInfo *info = wifi_akm_info_sized(akm, 0, mic_len);
	static const guint8 zero_mic[MIC_MAX] = {0};
	guint8 full[64];
	WifiIov iov[3];

	if (info == NULL || mic_len != info->mic_len ||
	    frame_len < WIFI_EAPOL_KEY_MIN_LEN(mic_len)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "Cannot compute an EAPOL-Key MIC of %" G_GSIZE_FORMAT " octets for "
		            "AKM %s over %" G_GSIZE_FORMAT " octets",
		            mic_len, wifi_akm_suite_to_string(akm), frame_len);
		return FALSE;
	}
	/* The MIC covers the whole frame with its own field set to zero. */
	iov[0] = (WifiIov){frame, OFF_MIC};
	iov[1] = (WifiIov){zero_mic, mic_len};
	iov[2] = (WifiIov){frame + OFF_MIC + mic_len, frame_len - OFF_MIC - mic_len};
	if (info->mic_cmac) {
		if (!wifi_aes_cmac(kck, kck_len, iov, G_N_ELEMENTS(iov), full, error))
			return FALSE;
	} else if (!wifi_hmac(info->hash != NULL ? info->hash : "SHA1", kck, kck_len, iov,
	                      G_N_ELEMENTS(iov), full, sizeof(full), NULL, error)) {
		return FALSE;
	}
	memcpy(mic, full, mic_len);
	return TRUE;
}

gboolean
wifi_eapol_key_sign(guint akm, const guint8 *kck, gsize kck_len, guint8 *frame, gsize frame_len,
                    gsize mic_len, GError **error)
{
	return wifi_eapol_key_compute_mic(akm, kck, kck_len, frame, frame_len, mic_len,
	                                  frame + OFF_MIC, error);
}

gboolean
wifi_eapol_key_verify_mic(guint akm, const guint8 *kck, gsize kck_len, const guint8 *frame,
                          const WifiEapolKey *key, GError **error)
{
	guint8 mic[MIC_MAX];

	if (!(key->key_info & WIFI_KEY_INFO_MIC)) {
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MIC,
		                    "The EAPOL-Key frame carries no MIC");
		return FALSE;
	}
	if (!wifi_eapol_key_compute_mic(akm, kck, kck_len, frame, key->frame_len, key->mic_len, mic,
	                                error))
		return FALSE;
	if (!wifi_equal_const_time(mic, key->mic, key->mic_len)) {
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MIC,
		                    "The EAPOL-Key frame failed its integrity check (MIC)");
		return FALSE;
	}
	return TRUE;
}

guint8 *
wifi_eapol_key_data_encrypt(const guint8 *kek, gsize kek_len, const guint8 *plain, gsize len,
                            gsize *out_len, GError **error)
{
	gsize padded_len = MAX((len + 7) / 8 * 8, (gsize)16);
	g_autofree guint8 *padded = NULL;
	guint8 *out;

	if (len > WIFI_EAPOL_KEY_DATA_MAX) {
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		                    "Key data too long to encrypt");
		return NULL;
	}
	padded = g_malloc0(padded_len);
	if (len > 0)
		memcpy(padded, plain, len);
	if (padded_len > len)
		padded[len] = 0xdd;
	out = g_malloc(padded_len + 8);
	if (!wifi_aes_key_wrap(kek, kek_len, padded, padded_len, out, error)) {
		joind_secret_clear(padded, padded_len);
		g_free(out);
		return NULL;
	}
	joind_secret_clear(padded, padded_len);
	*out_len = padded_len + 8;
	return out;
}

guint8 *
wifi_eapol_key_data_decrypt(const guint8 *kek, gsize kek_len, const guint8 *data, gsize len,
                            gsize *out_len, GError **error)
{
	guint8 *out;

	if (len < 24 || len % 8 != 0 || len > WIFI_EAPOL_KEY_DATA_MAX) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "Encrypted key data of %" G_GSIZE_FORMAT " octets cannot be "
		            "AES-key-wrapped (a multiple of 8, at least 24)",
		            len);
		return NULL;
	}
	out = g_malloc(len - 8);
	if (!wifi_aes_key_unwrap(kek, kek_len, data, len, out, error)) {
		joind_secret_clear(out, len - 8);
		g_free(out);
		return NULL;
	}
	*out_len = len - 8;
	return out;
}
