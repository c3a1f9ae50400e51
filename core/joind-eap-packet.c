/* joind-eap-packet.c - EAP packet framing (RFC 3748 section 4). */
#undef G_LOG_DOMAIN
#define G_LOG_DOMAIN "joind-eap"

#include "joind-eap-packet.h"

#include <string.h>

#include <gio/gio.h>

#include "joind-eap.h"

static gboolean
eap_packet_check_type(JoindEapPacket *packet, GError **error)
{
	if (packet->length < JOIND_EAP_HEADER_LEN + 1) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP %s without a Type (Length %u)",
		            joind_eap_code_to_string(packet->code), packet->length);
		return FALSE;
	}
	/* RFC 3748 5.7: Vendor-Id (3) and Vendor-Type (4) follow Type 254. */
	if (packet->type == JOIND_EAP_TYPE_EXPANDED && packet->type_data_len < 7) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP Expanded Type with %zu octets, needs 7 for the vendor fields",
		            packet->type_data_len);
		return FALSE;
	}
	return TRUE;
}

gboolean
joind_eap_packet_parse(const guint8 *data, gsize len, JoindEapPacket *packet, GError **error)
{
	memset(packet, 0, sizeof(*packet));
	if (data == NULL || len < JOIND_EAP_HEADER_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP packet of %zu octets is shorter than the 4-octet header", len);
		return FALSE;
	}
	packet->raw = data;
	packet->code = data[0];
	packet->id = data[1];
	packet->length = (guint16)((data[2] << 8) | data[3]);
	if (packet->length < JOIND_EAP_HEADER_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP Length %u is shorter than the header", packet->length);
		return FALSE;
	}
	if (packet->length > len) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP Length %u exceeds the %zu octets received", packet->length, len);
		return FALSE;
	}
	switch (packet->code) {
	case JOIND_EAP_CODE_REQUEST:
	case JOIND_EAP_CODE_RESPONSE:
		if (packet->length > JOIND_EAP_HEADER_LEN) {
			packet->type = data[4];
			packet->type_data = data + 5;
			packet->type_data_len = packet->length - 5u;
		}
		return eap_packet_check_type(packet, error);
	case JOIND_EAP_CODE_SUCCESS:
	case JOIND_EAP_CODE_FAILURE:
		if (packet->length != JOIND_EAP_HEADER_LEN) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "EAP %s with Length %u (must be 4)",
			            joind_eap_code_to_string(packet->code), packet->length);
			return FALSE;
		}
		return TRUE;
	default:
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP code %u is not supported", packet->code);
		return FALSE;
	}
}

GByteArray *
joind_eap_packet_build(guint8 code, guint8 id, guint8 type, const guint8 *type_data,
                       gsize type_data_len, GError **error)
{
	gsize total = JOIND_EAP_HEADER_LEN + (type != 0 ? 1 + type_data_len : 0);
	GByteArray *packet;
	guint8 header[5];

	if (total > G_MAXUINT16) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
		            "EAP packet of %zu octets exceeds the 16-bit Length", total);
		return NULL;
	}
	header[0] = code;
	header[1] = id;
	header[2] = (guint8)(total >> 8);
	header[3] = (guint8)total;
	header[4] = type;
	packet = g_byte_array_sized_new((guint)total);
	g_byte_array_append(packet, header, type != 0 ? 5 : 4);
	if (type != 0 && type_data_len > 0)
		g_byte_array_append(packet, type_data, (guint)type_data_len);
	return packet;
}

const gchar *
joind_eap_code_to_string(guint8 code)
{
	switch (code) {
	case JOIND_EAP_CODE_REQUEST:
		return "Request";
	case JOIND_EAP_CODE_RESPONSE:
		return "Response";
	case JOIND_EAP_CODE_SUCCESS:
		return "Success";
	case JOIND_EAP_CODE_FAILURE:
		return "Failure";
	default:
		return "unknown code";
	}
}

const gchar *
joind_eap_type_to_string(guint8 type, gchar *buf, gsize buf_len)
{
	static const struct {
		guint8 type;
		const gchar *name;
	} names[] = {
	        {JOIND_EAP_TYPE_IDENTITY, "Identity"},
	        {JOIND_EAP_TYPE_NOTIFICATION, "Notification"},
	        {JOIND_EAP_TYPE_NAK, "Nak"},
	        {JOIND_EAP_TYPE_MD5, "MD5"},
	        {JOIND_EAP_TYPE_GTC, "GTC"},
	        {JOIND_EAP_TYPE_TLS, "TLS"},
	        {JOIND_EAP_TYPE_TTLS, "TTLS"},
	        {JOIND_EAP_TYPE_PEAP, "PEAP"},
	        {JOIND_EAP_TYPE_MSCHAPV2, "MSCHAPV2"},
	        {JOIND_EAP_TYPE_PWD, "PWD"},
	        {JOIND_EAP_TYPE_EXPANDED, "Expanded"},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
		if (names[i].type == type)
			return names[i].name;
	}
	g_snprintf(buf, buf_len, "type %u", type);
	return buf;
}
