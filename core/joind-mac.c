/* joind-mac.c - MAC addresses as text (see joind-mac.h). */
#include "joind-mac.h"

#include <string.h>

gboolean
joind_mac_parse(const gchar *text, guint8 mac[JOIND_MAC_LEN])
{
	if (text == NULL || strlen(text) != JOIND_MAC_STRING_LEN - 1)
		return FALSE;
	for (guint i = 0; i < JOIND_MAC_LEN; i++) {
		const gchar *p = text + i * 3;

		if (!g_ascii_isxdigit(p[0]) || !g_ascii_isxdigit(p[1]))
			return FALSE;
		if (i < JOIND_MAC_LEN - 1 && p[2] != ':' && p[2] != '-')
			return FALSE;
		mac[i] = (guint8)(g_ascii_xdigit_value(p[0]) << 4 | g_ascii_xdigit_value(p[1]));
	}
	return TRUE;
}

const gchar *
joind_mac_to_string(const guint8 mac[JOIND_MAC_LEN], gchar buf[JOIND_MAC_STRING_LEN])
{
	g_snprintf(buf, JOIND_MAC_STRING_LEN, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
	           mac[2], mac[3], mac[4], mac[5]);
	return buf;
}
