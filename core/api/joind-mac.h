/* joind-mac.h - MAC addresses as text: the one parser and formatter that
 * the core, the device plugins and the front ends share.
 */
#pragma once

#include <glib.h>

#include "joind-export.h"

G_BEGIN_DECLS

#define JOIND_MAC_LEN 6
/* "aa:bb:cc:dd:ee:ff" and its NUL. */
#define JOIND_MAC_STRING_LEN 18

/* "aa:bb:cc:dd:ee:ff" (either case; '-' between octets also taken, as
 * profiles written on other systems use it) into mac; FALSE for anything
 * else, mac then undefined. */
JOIND_EXPORT gboolean joind_mac_parse(const gchar *text, guint8 mac[JOIND_MAC_LEN]);
/* mac as "aa:bb:cc:dd:ee:ff" in buf; returns buf. */
JOIND_EXPORT const gchar *joind_mac_to_string(const guint8 mac[JOIND_MAC_LEN],
                                              gchar buf[JOIND_MAC_STRING_LEN]);

G_END_DECLS
