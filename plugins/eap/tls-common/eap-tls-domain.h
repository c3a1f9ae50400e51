/* eap-tls-domain.h - ServerDomainMask matching. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Does name match mask? Labels compare case-insensitively; a "*" label
 * matches any one label, and a leading "*" one or more labels:
 * "*.example.com" matches "radius.example.com" and "a.b.example.com". */
gboolean eap_tls_domain_mask_match(const gchar *mask, const gchar *name);

/* Does any name match any of the ';'-separated masks? */
gboolean eap_tls_domain_masks_match(const gchar *masks, const gchar *const *names);

/* Do the ';'-separated masks pin the server down? At least one mask, and
 * each names a domain (two labels or more that are not "*"): a mask of
 * wildcards alone matches whatever a public CA signed. */
gboolean eap_tls_domain_masks_name_servers(const gchar *masks);

G_END_DECLS
