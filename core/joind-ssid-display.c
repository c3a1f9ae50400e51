/* joind-ssid-display.c - the one spelling of an SSID, or of any text from
 * outside, as a person reads it (see joind-station.h). Also built into
 * joinctl, which prints an imported file's strings the same way. */
#include "joind-station.h"

/* Bidi_Control characters reorder the text around them, so a name holding
 * one could read as another network's, or hide what follows it. */
static gboolean
is_bidi_control(gunichar c)
{
	return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

/* Every escape starts with a backslash and a literal backslash is doubled,
 * so the original octets can always be read back from the name. */
gchar *
joind_ssid_to_display(const guint8 *ssid, gsize ssid_len)
{
	GString *out = g_string_sized_new(ssid_len + 1);
	const gchar *p = (const gchar *)ssid;
	const gchar *end = p + ssid_len;

	while (p < end) {
		gunichar c = g_utf8_get_char_validated(p, end - p);

		/* (gunichar)-2 also covers an embedded NUL. */
		if (c == (gunichar)-1 || c == (gunichar)-2 || c < 0x20 || c == 0x7f) {
			g_string_append_printf(out, "\\x%02x", (guint8)*p);
			p++;
			continue;
		}
		if (c == '\\')
			g_string_append(out, "\\\\");
		else if ((c >= 0x80 && c <= 0x9f) || is_bidi_control(c))
			g_string_append_printf(out, "\\u%04x", c);
		else
			g_string_append_len(out, p, g_utf8_next_char(p) - p);
		p = g_utf8_next_char(p);
	}
	return g_string_free(out, FALSE);
}
