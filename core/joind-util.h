/* joind-util.h - small helpers private to the core. */
#pragma once

#include <glib.h>

/* Like g_set_str() (GLib 2.76, newer than Debian 12): replace *dst with a
 * copy of src; TRUE when the value changed. */
static inline gboolean
joind_set_str(gchar **dst, const gchar *src)
{
	if (g_strcmp0(*dst, src) == 0)
		return FALSE;
	g_free(*dst);
	*dst = g_strdup(src);
	return TRUE;
}
