/* joinctl-escape.h - text from outside (an imported file's strings, and
 * errors that quote them) as joinctl prints it: in the spelling of an SSID
 * (joind_ssid_to_display()), so that no control or bidi character reaches
 * the terminal; a line break of joinctl's own stays one.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* text escaped, each of its lines apart; NULL for NULL. Free with g_free(). */
gchar *joinctl_escape(const gchar *text);

G_END_DECLS
