/* wired-eapol.c - EAPOL framing: parse and build. */
#include "wired-eapol.h"

#include <string.h>

const guint8 wired_eapol_pae_group[WIRED_ETH_ALEN] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x03};

#define EAP_HLEN 4

G_DEFINE_QUARK(wired - eapol - error - quark, wired_eapol_error)

static guint16
read_be16(const guint8 *p)
{
	return (guint16)((p[0] << 8) | p[1]);
}

/* An EAP packet must be whole inside the EAPOL body: the PAE peeks at its
 * code and type before the EAP engine sees it. */
static gboolean
eapol_check_eap(const WiredEapolPdu *pdu, GError **error)
{
	guint16 eap_len;

	if (pdu->body_len < EAP_HLEN) {
		g_set_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_EAP_LENGTH,
		            "EAPOL EAP-Packet body of %zu octets cannot hold an EAP header",
		            pdu->body_len);
		return FALSE;
	}
	eap_len = read_be16(pdu->body + 2);
	if (eap_len < EAP_HLEN || eap_len > pdu->body_len) {
		g_set_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_EAP_LENGTH,
		            "EAP length %u does not fit the EAPOL body of %zu octets", eap_len,
		            pdu->body_len);
		return FALSE;
	}
	return TRUE;
}

gboolean
wired_eapol_parse(const guint8 *data, gsize len, WiredEapolPdu *pdu, GError **error)
{
	guint16 body_len;

	g_return_val_if_fail(pdu != NULL, FALSE);
	if (data == NULL || len < WIRED_EAPOL_HLEN) {
		g_set_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_TRUNCATED,
		            "EAPOL PDU of %zu octets is shorter than its header", len);
		return FALSE;
	}
	body_len = read_be16(data + 2);
	if (body_len > len - WIRED_EAPOL_HLEN) {
		g_set_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_TRUNCATED,
		            "EAPOL body length %u exceeds the %zu octets received", body_len,
		            len - WIRED_EAPOL_HLEN);
		return FALSE;
	}
	/* 802.1X-2010 11.4: any version above ours is processed as ours; 0
	 * was never defined. */
	if (data[0] == 0) {
		g_set_error_literal(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_VERSION,
		                    "EAPOL protocol version 0 is not valid");
		return FALSE;
	}
	pdu->version = data[0];
	pdu->type = data[1];
	pdu->body = data + WIRED_EAPOL_HLEN;
	pdu->body_len = body_len;
	if (pdu->type == WIRED_EAPOL_EAP)
		return eapol_check_eap(pdu, error);
	return TRUE;
}

gboolean
wired_eapol_parse_frame(const guint8 *data, gsize len, WiredEapolFrame *frame, GError **error)
{
	guint16 ethertype;

	g_return_val_if_fail(frame != NULL, FALSE);
	if (data == NULL || len < WIRED_ETH_HLEN) {
		g_set_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_TRUNCATED,
		            "Ethernet frame of %zu octets is shorter than its header", len);
		return FALSE;
	}
	ethertype = read_be16(data + 12);
	if (ethertype != WIRED_ETH_P_PAE) {
		g_set_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_ETHERTYPE,
		            "EtherType 0x%04x is not EAPOL (0x888e)", ethertype);
		return FALSE;
	}
	memcpy(frame->dst, data, WIRED_ETH_ALEN);
	memcpy(frame->src, data + WIRED_ETH_ALEN, WIRED_ETH_ALEN);
	return wired_eapol_parse(data + WIRED_ETH_HLEN, len - WIRED_ETH_HLEN, &frame->pdu, error);
}

GByteArray *
wired_eapol_build_frame(const guint8 *dst, const guint8 *src, guint8 type, const guint8 *body,
                        gsize body_len)
{
	GByteArray *frame;
	guint8 header[WIRED_ETH_HLEN + WIRED_EAPOL_HLEN];

	g_return_val_if_fail(body_len <= G_MAXUINT16, NULL);
	g_return_val_if_fail(body != NULL || body_len == 0, NULL);
	memcpy(header, dst, WIRED_ETH_ALEN);
	memcpy(header + WIRED_ETH_ALEN, src, WIRED_ETH_ALEN);
	header[12] = WIRED_ETH_P_PAE >> 8;
	header[13] = WIRED_ETH_P_PAE & 0xff;
	header[14] = WIRED_EAPOL_VERSION;
	header[15] = type;
	header[16] = (guint8)(body_len >> 8);
	header[17] = (guint8)(body_len & 0xff);
	frame = g_byte_array_sized_new(sizeof(header) + body_len);
	g_byte_array_append(frame, header, sizeof(header));
	if (body_len > 0)
		g_byte_array_append(frame, body, body_len);
	return frame;
}

const gchar *
wired_eapol_type_to_string(guint8 type)
{
	static const gchar *const names[] = {
	        [WIRED_EAPOL_EAP] = "EAP-Packet",
	        [WIRED_EAPOL_START] = "EAPOL-Start",
	        [WIRED_EAPOL_LOGOFF] = "EAPOL-Logoff",
	        [WIRED_EAPOL_KEY] = "EAPOL-Key",
	        [WIRED_EAPOL_ASF_ALERT] = "EAPOL-Encapsulated-ASF-Alert",
	        [WIRED_EAPOL_MKA] = "EAPOL-MKA",
	        [WIRED_EAPOL_ANNOUNCEMENT_GENERIC] = "EAPOL-Announcement (Generic)",
	        [WIRED_EAPOL_ANNOUNCEMENT_SPECIFIC] = "EAPOL-Announcement (Specific)",
	        [WIRED_EAPOL_ANNOUNCEMENT_REQ] = "EAPOL-Announcement-Req",
	};

	if (type < G_N_ELEMENTS(names))
		return names[type];
	return "unknown EAPOL type";
}

gboolean
wired_eapol_parse_address(const gchar *text, guint8 *address)
{
	guint8 out[WIRED_ETH_ALEN];

	if (text == NULL || strlen(text) != 3 * WIRED_ETH_ALEN - 1)
		return FALSE;
	for (guint i = 0; i < WIRED_ETH_ALEN; i++) {
		gint hi = g_ascii_xdigit_value(text[3 * i]);
		gint lo = g_ascii_xdigit_value(text[3 * i + 1]);

		if (hi < 0 || lo < 0)
			return FALSE;
		if (i + 1 < WIRED_ETH_ALEN && text[3 * i + 2] != ':')
			return FALSE;
		out[i] = (guint8)(hi << 4 | lo);
	}
	memcpy(address, out, sizeof(out));
	return TRUE;
}
