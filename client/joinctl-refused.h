/* joinctl-refused.h - the server a station's last attempt refused for want
 * of trust, as `joinctl station DEV show` prints it: what the WiFi
 * plugin's diagnostics report ("refused_server" in a device's details:
 * subject, issuer, not_before, not_after, pin, pin_setting, network, and
 * names / domain_mask_setting when its names were what failed) and the
 * way through, `joinctl known-networks trust NAME`.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The refused server of a device's diagnostics entry, or NULL when its
 * last attempt refused none (borrowed from entry). */
JsonObject *joinctl_refused_server(JsonObject *entry);
/* The command that pins it: "joinctl known-networks trust NAME", NAME
 * quoted when a shell would split or expand it. */
gchar *joinctl_refused_server_command(JsonObject *refused);
/* The section for people: a heading, the certificate's fields, and the
 * sentence naming the command above. */
gchar *joinctl_refused_server_text(JsonObject *refused);

G_END_DECLS
