/* hs-test-util.c - hex decoding for test vectors, shared checks. */
#include "hs-test-util.h"

#include <string.h>

#include "rsn-kde.h"
#include "rsn-suites.h"

GBytes *
hs_test_hex(const gchar *hex)
{
	GByteArray *out = g_byte_array_new();
	int hi = -1;

	for (const gchar *p = hex; *p != '\0'; p++) {
		int v;

		if (g_ascii_isspace(*p))
			continue;
		v = g_ascii_xdigit_value(*p);
		g_assert_cmpint(v, >=, 0);
		if (hi < 0) {
			hi = v;
		} else {
			guint8 b = (guint8)(hi << 4 | v);

			g_byte_array_append(out, &b, 1);
			hi = -1;
		}
	}
	g_assert_cmpint(hi, <, 0);
	return g_byte_array_free_to_bytes(out);
}

void
hs_test_hex_into(const gchar *hex, guint8 *buf, gsize len)
{
	g_autoptr(GBytes) bytes = hs_test_hex(hex);

	g_assert_cmpuint(g_bytes_get_size(bytes), ==, len);
	memcpy(buf, g_bytes_get_data(bytes, NULL), len);
}

void
hs_check_key_data_malformed(const gchar *hex, const gchar *why)
{
	g_autoptr(GBytes) data = hs_test_hex(hex);
	g_autoptr(GError) error = NULL;
	WifiKeyData kd;

	g_assert_false(wifi_key_data_parse(g_bytes_get_data(data, NULL), g_bytes_get_size(data),
	                                   &kd, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MALFORMED);
	if (why != NULL)
		g_assert_nonnull(strstr(error->message, why));
}
