/* codes.h - IEEE 802.11 status codes (a (re)association or
 * authentication response's) as words for log lines and error sentences.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "success", "try again later" and so on for the codes access points give
 * most, else "status N" (in buf). */
const gchar *wifi_status_to_string(guint16 status, gchar buf[16]);

G_END_DECLS
