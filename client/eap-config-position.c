/* eap-config-position.c - where an element starts, for messages. GMarkup
 * reports where its parser is, which by the time a callback runs is past
 * the tag (at the next line when a line break follows); the element's own
 * "<name" lies before that, and is looked for backwards from there.
 * Positions only grow while a file is parsed, so a cursor keeps the
 * offset of the last line found and the whole file is walked once.
 */
#include "eap-config-private.h"

#include <string.h>

/* The byte offset of GMarkup's line:column (columns count characters). */
static gsize
offset_of(EapConfigCursor *cursor, const gchar *data, gsize len, gint line, gint column)
{
	gsize off;

	while (cursor->line < line) {
		const gchar *nl = memchr(data + cursor->offset, '\n', len - cursor->offset);

		if (nl == NULL)
			break;
		cursor->offset = (gsize)(nl - data) + 1;
		cursor->line++;
	}
	off = cursor->offset;
	for (gint c = 1; c < column && off < len && data[off] != '\n'; c++) {
		off++;
		while (off < len && ((guchar)data[off] & 0xc0) == 0x80)
			off++;
	}
	return off;
}

static gboolean
matches(const gchar *data, gsize len, gsize at, const gchar *needle, gsize n)
{
	gchar next;

	if (at + n > len || memcmp(data + at, needle, n) != 0)
		return FALSE;
	if (!g_ascii_isalnum(needle[n - 1]))
		return TRUE;
	next = at + n < len ? data[at + n] : '\0';
	return next == '>' || next == '/' || g_ascii_isspace(next);
}

void
eap_config_position_find(EapConfigCursor *cursor, const gchar *data, gsize len, const gchar *needle,
                         gint *line, gint *column)
{
	gsize off = offset_of(cursor, data, len, *line, *column);
	gsize n = strlen(needle), at = off, line_start;
	gint lines_back = 0;

	while (at > 0 && !matches(data, len, at - 1, needle, n))
		at--;
	if (at == 0)
		return; /* not found: GMarkup's position stands */
	at--;
	for (gsize i = at; i < off; i++)
		lines_back += data[i] == '\n';
	line_start = at;
	while (line_start > 0 && data[line_start - 1] != '\n')
		line_start--;
	*line = cursor->line - lines_back;
	*column = (gint)g_utf8_strlen(data + line_start, (gssize)(at - line_start)) + 1;
}
