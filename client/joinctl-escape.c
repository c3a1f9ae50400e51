/* joinctl-escape.c - see joinctl-escape.h. */
#include "joinctl-escape.h"

#include <string.h>

#include "joind-station.h"

gchar *
joinctl_escape(const gchar *text)
{
	g_auto(GStrv) lines = NULL;

	if (text == NULL)
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		gchar *shown = joind_ssid_to_display((const guint8 *)lines[i], strlen(lines[i]));

		g_free(lines[i]);
		lines[i] = shown;
	}
	return g_strjoinv("\n", lines);
}
