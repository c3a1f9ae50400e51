/* eap-config-private.h - the parts of the eap-config parser: values of
 * elements (eap-config-values.c) and the checks of a parsed file. Value
 * errors are G_MARKUP_ERROR_INVALID_CONTENT; the parser puts the element
 * and its place in front.
 */
#pragma once

#include "eap-config.h"

G_BEGIN_DECLS

/* An EAP or inner method type: a decimal number 1 to 255. */
gboolean eap_config_value_type(const gchar *text, guint *type, GError **error);
/* Base64 (whitespace allowed between characters), decoded: never empty. */
GBytes *eap_config_value_base64(const gchar *text, GError **error);
/* Text trimmed of surrounding whitespace, without control characters;
 * may_be_empty or not. */
gchar *eap_config_value_text(const gchar *text, gboolean may_be_empty, GError **error);
/* A server name for ServerDomainMask: printable ASCII without ";". */
gchar *eap_config_value_server_id(const gchar *text, GError **error);
/* An SSID: 1 to 32 bytes. */
gchar *eap_config_value_ssid(const gchar *text, GError **error);
/* xs:boolean. */
gboolean eap_config_value_bool(const gchar *text, gboolean *value, GError **error);

/* Where markup starting with needle ("<Type", "<!") begins, looked for
 * backwards from GMarkup's position line:column (updated in place). */
typedef struct {
	gint line;    /* of offset */
	gsize offset; /* of a line's first byte */
} EapConfigCursor;
void eap_config_position_find(EapConfigCursor *cursor, const gchar *data, gsize len,
                              const gchar *needle, gint *line, gint *column);

/* What a parsed file must hold besides being well formed. */
gboolean eap_config_check(const EapConfig *config, GError **error);

G_END_DECLS
