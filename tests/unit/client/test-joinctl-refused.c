/* test-joinctl-refused.c - the server a station's last attempt refused, as
 * `joinctl station DEV show` prints it (client/joinctl-refused.c): found
 * in a device's diagnostics entry, its certificate's fields aligned like
 * every other field, the pin command with the network's name (quoted when
 * a shell would split it), the names that missed the domain mask; nothing
 * when the entry has none.
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "joinctl-field.h"
#include "joinctl-refused.h"

#define PIN "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

static JsonNode *
parse(const gchar *text)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;

	g_assert_true(json_parser_load_from_data(parser, text, -1, &error));
	g_assert_no_error(error);
	return json_node_copy(json_parser_get_root(parser));
}

/* A device entry of GetDiagnostics() whose details hold refused (JSON). */
static JsonNode *
entry_with(const gchar *refused)
{
	g_autofree gchar *text = g_strdup_printf("{\"name\": \"wlan0\", \"details\": {\"wiphy\": "
	                                         "\"phy0\", \"connection\": null%s%s}}",
	                                         refused != NULL ? ", \"refused_server\": " : "",
	                                         refused != NULL ? refused : "");

	return parse(text);
}

static const gchar *const refused_ca =
        "{\"subject\": \"CN=auth.test,O=joind test\", \"issuer\": \"CN=joind test CA\", "
        "\"not_before\": \"Jan  1 00:00:00 2026 GMT\", \"not_after\": \"Jan  1 00:00:00 2036 "
        "GMT\", \"pin\": \"" PIN "\", \"pin_setting\": \"EAP-PEAP-ServerKeyPin\", "
        "\"network\": \"joind-ent\"}";

static void
test_text(void)
{
	g_autoptr(JsonNode) entry = entry_with(refused_ca);
	JsonObject *refused = joinctl_refused_server(json_node_get_object(entry));
	g_autofree gchar *text = NULL;
	g_autofree gchar *command = NULL;

	g_assert_nonnull(refused);
	command = joinctl_refused_server_command(refused);
	g_assert_cmpstr(command, ==, "joinctl known-networks trust joind-ent");
	text = joinctl_refused_server_text(refused);
	g_assert_cmpstr(text, ==,
	                "Server refused on the last attempt\n"
	                "  Network               joind-ent\n"
	                "  Subject               CN=auth.test,O=joind test\n"
	                "  Issuer                CN=joind test CA\n"
	                "  Valid from            Jan  1 00:00:00 2026 GMT\n"
	                "  Valid until           Jan  1 00:00:00 2036 GMT\n"
	                "  Key pin               " PIN "\n"
	                "  joind refused this server for want of trust. If it is your "
	                "network's authentication server, run “joinctl known-networks trust "
	                "joind-ent”: it shows the certificate and pins its key in the profile "
	                "once you confirm.\n");
}

/* A name with a space and a quote: the command still works pasted. */
static void
test_quoted_name(void)
{
	g_autoptr(JsonNode) entry =
	        entry_with("{\"subject\": \"CN=x\", \"network\": \"Bob's net\"}");
	g_autofree gchar *command =
	        joinctl_refused_server_command(joinctl_refused_server(json_node_get_object(entry)));
	g_auto(GStrv) argv = NULL;

	g_assert_cmpstr(command, ==, "joinctl known-networks trust 'Bob'\\''s net'");
	g_assert_true(g_shell_parse_argv(command, NULL, &argv, NULL));
	g_assert_cmpuint(g_strv_length(argv), ==, 4);
	g_assert_cmpstr(argv[3], ==, "Bob's net");
}

/* Missing fields print as "-"; a domain mask the names missed is said. */
static void
test_domain_mask(void)
{
	g_autoptr(JsonNode) entry = entry_with(
	        "{\"subject\": \"CN=auth.test\", \"network\": \"eduroam\", \"names\": "
	        "\"auth.test\", \"domain_mask_setting\": \"EAP-TTLS-ServerDomainMask\"}");
	g_autofree gchar *text =
	        joinctl_refused_server_text(joinctl_refused_server(json_node_get_object(entry)));

	g_assert_nonnull(strstr(text, "\n  Issuer                -\n"));
	g_assert_nonnull(strstr(text, "\n  Key pin               -\n"));
	g_assert_nonnull(strstr(text, "  Its names (auth.test) match no name of "
	                              "EAP-TTLS-ServerDomainMask.\n"));
	g_assert_nonnull(strstr(text, "“joinctl known-networks trust eduroam”"));
}

static void
test_none(void)
{
	g_autoptr(JsonNode) entry = entry_with(NULL);
	g_autoptr(JsonNode) odd = entry_with("\"not an object\"");
	g_autoptr(JsonNode) bare = parse("{\"name\": \"eth0\"}");

	g_assert_null(joinctl_refused_server(json_node_get_object(entry)));
	g_assert_null(joinctl_refused_server(json_node_get_object(odd)));
	g_assert_null(joinctl_refused_server(json_node_get_object(bare)));
	g_assert_null(joinctl_refused_server(NULL));
}

/* Labels are padded by characters, not bytes (translations). */
static void
test_field_width(void)
{
	g_autoptr(GString) out = g_string_new(NULL);

	joinctl_append_field(out, "Clé", "v");
	joinctl_append_field(out, "Empty", "");
	joinctl_append_field(out, "A label longer than the column", NULL);
	g_assert_cmpstr(out->str, ==,
	                "  Clé                   v\n"
	                "  Empty                 -\n"
	                "  A label longer than the column-\n");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/joinctl/refused-server/text", test_text);
	g_test_add_func("/joinctl/refused-server/quoted-name", test_quoted_name);
	g_test_add_func("/joinctl/refused-server/domain-mask", test_domain_mask);
	g_test_add_func("/joinctl/refused-server/none", test_none);
	g_test_add_func("/joinctl/field/width", test_field_width);
	return g_test_run();
}
