/* hs-test-util.h - helpers shared by the handshake library's unit tests. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Decodes hex (whitespace ignored) into a new GBytes; aborts the test on
 * bad input. */
GBytes *hs_test_hex(const gchar *hex);
/* Decodes hex into buf, which must hold exactly len octets. */
void hs_test_hex_into(const gchar *hex, guint8 *buf, gsize len);
/* Asserts that the key data in hex fails to parse with MALFORMED and, when
 * why is not NULL, that the message contains why. */
void hs_check_key_data_malformed(const gchar *hex, const gchar *why);
/* Asserts that data equals the hex string. */
#define hs_assert_hex(data, len, hex)                                             \
	G_STMT_START                                                              \
	{                                                                         \
		g_autoptr(GBytes) expected_ = hs_test_hex(hex);                   \
		g_assert_cmpmem((data), (len), g_bytes_get_data(expected_, NULL), \
		                g_bytes_get_size(expected_));                     \
	}                                                                         \
	G_STMT_END

G_END_DECLS
