/* codes.h - IEEE 802.11 status codes (a (re)association or
 * authentication response's) and reason codes (a deauthentication's or
 * disassociation's) as words for log lines and error sentences.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "success", "try again later" and so on for the codes access points give
 * most, else "status N" (in buf). */
const gchar *wifi_status_to_string(guint16 status, gchar buf[16]);

/* "inactivity", "4-way handshake timeout" and so on, or "reason not
 * known to joind". */
const gchar *wifi_reason_to_string(guint16 reason_code);

G_END_DECLS
