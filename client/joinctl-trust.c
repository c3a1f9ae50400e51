/* joinctl-trust.c - pinning the server a profile was shown: the common
 * part of `joinctl known-networks trust NAME` and `joinctl wired trust
 * DEVICE`.
 *
 * joind keeps the last server certificate each profile's EAP conversation
 * was shown, refused or not, in its diagnostics document. This shows it,
 * asks the person (y/N; --yes for scripts) and only then asks joind, over
 * ProfileManager1.UpdateProfile (its authorisation, its atomic 0600
 * write), to put the certificate's key pin into the profile. Nothing is
 * pinned without that confirmation.
 */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

#define PM_IFACE "net.joind.ProfileManager1"

static const JoinctlField certificate_fields[] = {
        {"subject", N_("Subject")},
        {"issuer", N_("Issuer")},
        {"not_before", N_("Valid from")},
        {"not_after", N_("Valid until")},
        {"pin", N_("Key pin")},
        {"trusted", N_("Trusted now")},
        {"tls_version", N_("TLS version")},
        {"cipher", N_("TLS cipher")},
        {"seen", N_("Seen")},
        {NULL, NULL},
};

JsonNode *
joinctl_diagnostics(JoinctlContext *ctx, GError **error)
{
	g_autoptr(JoindDBusDaemon1) daemon = joinctl_daemon_proxy(ctx, error);
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	const gchar *text;

	if (daemon == NULL)
		return NULL;
	reply = joinctl_call(ctx, daemon, "GetDiagnostics", NULL, -1, error);
	if (reply == NULL)
		return NULL;
	g_variant_get(reply, "(&s)", &text);
	if (!json_parser_load_from_data(parser, text, -1, error))
		return NULL;
	if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
		g_set_error_literal(error, JOINCTL_ERROR, JOINCTL_EXIT_FAILED,
		                    _("joind's diagnostics are not a JSON object"));
		return NULL;
	}
	return json_node_copy(json_parser_get_root(parser));
}

static void
print_certificate(const gchar *what, JsonObject *cert)
{
	printf(_("Server certificate shown to %s\n"), what);
	joinctl_print_fields(cert, certificate_fields);
	if (json_object_has_member(cert, "domain_mask_setting"))
		printf(_("Its names (%s) match no name of %s: pinning its key removes that "
		         "setting, "
		         "the pin then decides alone.\n"),
		       json_object_get_string_member_with_default(cert, "names", ""),
		       json_object_get_string_member(cert, "domain_mask_setting"));
}

/* y/N on the terminal, or --yes; FALSE with error when nobody said yes. */
static gboolean
confirmed(JoinctlContext *ctx, const gchar *setting, const gchar *pin, GError **error)
{
	g_autofree gchar *question = NULL;
	g_autofree gchar *answer = NULL;

	if (ctx->assume_yes)
		return TRUE;
	question =
	        g_strdup_printf(_("Trust this server from now on (%s=%s)? [y/N] "), setting, pin);
	answer = joinctl_prompt_line(ctx, question, TRUE, _("the confirmation"),
	                             _("no terminal to confirm on: check the certificate above "
	                               "and run again with --yes to pin it"),
	                             error);
	if (answer == NULL)
		return FALSE;
	g_strstrip(answer);
	if (g_ascii_strcasecmp(answer, "y") == 0 || g_ascii_strcasecmp(answer, "yes") == 0)
		return TRUE;
	g_set_error_literal(error, JOINCTL_ERROR, JOINCTL_EXIT_ABORTED,
	                    _("not trusted: the profile is unchanged"));
	return FALSE;
}

/* UpdateProfile: the pin set, a ServerDomainMask the names missed unset. */
static gboolean
write_pin(JoinctlContext *ctx, JsonObject *cert, const gchar *setting, const gchar *pin,
          GError **error)
{
	const gchar *mask =
	        json_object_get_string_member_with_default(cert, "domain_mask_setting", NULL);
	g_autofree gchar *key = g_strconcat("Security.", setting, NULL);
	g_autofree gchar *mask_key = mask != NULL ? g_strconcat("Security.", mask, NULL) : NULL;
	GVariantBuilder set, unset;
	g_autoptr(GVariant) reply = NULL;

	g_variant_builder_init(&set, G_VARIANT_TYPE_VARDICT);
	g_variant_builder_add(&set, "{sv}", key, g_variant_new_string(pin));
	g_variant_builder_init(&unset, G_VARIANT_TYPE_STRING_ARRAY);
	if (mask_key != NULL)
		g_variant_builder_add(&unset, "s", mask_key);
	reply = joinctl_call_path(ctx, JOINCTL_ROOT_PATH, PM_IFACE, "UpdateProfile",
	                          g_variant_new("(oa{sv}as)",
	                                        json_object_get_string_member(cert, "profile"),
	                                        &set, &unset),
	                          -1, error);
	return reply != NULL;
}

static void
print_result(JoinctlContext *ctx, JsonObject *cert, const gchar *setting)
{
	g_autoptr(JsonBuilder) b = NULL;
	g_autoptr(JsonNode) node = NULL;

	if (!ctx->json) {
		printf(_("Pinned: %s now trusts exactly this server key; the next attempt uses "
		         "it.\n"),
		       setting);
		return;
	}
	b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "certificate");
	json_builder_add_value(b, json_node_init_object(json_node_alloc(), cert));
	joinctl_json_add_string(b, "profile", json_object_get_string_member(cert, "profile"));
	joinctl_json_add_string(b, "setting", setting);
	joinctl_json_add_bool(b, "pinned", TRUE);
	json_builder_end_object(b);
	node = json_builder_get_root(b);
	joinctl_print_json(node, TRUE);
}

int
joinctl_trust(JoinctlContext *ctx, const gchar *what, JsonObject *cert)
{
	g_autoptr(GError) error = NULL;
	const gchar *pin, *setting;

	if (cert == NULL) {
		error = g_error_new(JOINCTL_ERROR, JOINCTL_EXIT_NOT_FOUND,
		                    _("%s: joind has seen no server certificate for it since it "
		                      "started; connect once (a refusal records the certificate), "
		                      "then run this again"),
		                    what);
		return joinctl_report(error);
	}
	pin = json_object_get_string_member_with_default(cert, "pin", NULL);
	setting = json_object_get_string_member_with_default(cert, "pin_setting", NULL);
	if (pin == NULL || setting == NULL || !json_object_has_member(cert, "profile")) {
		error = g_error_new(
		        JOINCTL_ERROR, JOINCTL_EXIT_FAILED,
		        _("%s: joind's record of the server certificate has no key pin"), what);
		return joinctl_report(error);
	}
	/* --json is for scripts, which have read the certificate already
	 * (joinctl daemon diagnostics) and say so with --yes. */
	if (ctx->json && !ctx->assume_yes) {
		error = g_error_new_literal(JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		                            _("with --json, confirm with --yes"));
		return joinctl_report(error);
	}
	if (!ctx->json)
		print_certificate(what, cert);
	if (!confirmed(ctx, setting, pin, &error) || !write_pin(ctx, cert, setting, pin, &error)) {
		g_prefix_error(&error, "%s: ", what);
		return joinctl_report(error);
	}
	print_result(ctx, cert, setting);
	return JOINCTL_EXIT_OK;
}
