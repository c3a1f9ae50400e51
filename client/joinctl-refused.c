/* joinctl-refused.c - the server the last attempt refused (see
 * joinctl-refused.h).
 */
#include "config.h"

#include "joinctl-refused.h"

#include <glib/gi18n.h>
#include <string.h>

#include "joinctl-field.h"

/* Characters a shell passes through unchanged in a word. */
#define SHELL_SAFE                                                       \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" \
	"._-@+:/,="

static const gchar *
member(JsonObject *object, const gchar *key)
{
	JsonNode *node = json_object_get_member(object, key);

	return node != NULL && JSON_NODE_HOLDS_VALUE(node) &&
	                       json_node_get_value_type(node) == G_TYPE_STRING
	               ? json_node_get_string(node)
	               : NULL;
}

JsonObject *
joinctl_refused_server(JsonObject *entry)
{
	JsonNode *details = entry != NULL ? json_object_get_member(entry, "details") : NULL;
	JsonNode *refused;

	if (details == NULL || !JSON_NODE_HOLDS_OBJECT(details))
		return NULL;
	refused = json_object_get_member(json_node_get_object(details), "refused_server");
	return refused != NULL && JSON_NODE_HOLDS_OBJECT(refused) ? json_node_get_object(refused)
	                                                          : NULL;
}

gchar *
joinctl_refused_server_command(JsonObject *refused)
{
	const gchar *name = member(refused, "network");
	g_autofree gchar *quoted = NULL;

	if (name == NULL)
		return NULL;
	if (name[0] == '\0' || strspn(name, SHELL_SAFE) != strlen(name))
		quoted = g_shell_quote(name);
	return g_strdup_printf("joinctl known-networks trust %s", quoted != NULL ? quoted : name);
}

gchar *
joinctl_refused_server_text(JsonObject *refused)
{
	static const struct {
		const gchar *key, *label;
	} fields[] = {
	        {"network", N_("Network")},       {"subject", N_("Subject")},
	        {"issuer", N_("Issuer")},         {"not_before", N_("Valid from")},
	        {"not_after", N_("Valid until")}, {"pin", N_("Key pin")},
	};
	GString *out = g_string_new(_("Server refused on the last attempt\n"));
	g_autofree gchar *command = joinctl_refused_server_command(refused);

	for (guint i = 0; i < G_N_ELEMENTS(fields); i++)
		joinctl_append_field(out, _(fields[i].label), member(refused, fields[i].key));
	if (member(refused, "domain_mask_setting") != NULL)
		g_string_append_printf(out, _("  Its names (%s) match no name of %s.\n"),
		                       member(refused, "names") != NULL ? member(refused, "names")
		                                                        : "",
		                       member(refused, "domain_mask_setting"));
	if (command != NULL)
		g_string_append_printf(out,
		                       _("  joind refused this server for want of trust. If it is "
		                         "your network's "
		                         "authentication server, run “%s”: it shows the "
		                         "certificate and pins its key in the profile once you "
		                         "confirm.\n"),
		                       command);
	return g_string_free(out, FALSE);
}
