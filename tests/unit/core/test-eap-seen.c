/* test-eap-seen.c - the last server certificate per profile, as the
 * diagnostics show it. */
#include <string.h>

#include "joind-eap-seen.h"
#include "joind-profile-private.h"

/* A WiFi profile (wired ones need an EAP method plugin to be read). */
static JoindProfile *
wifi_profile(const gchar *path)
{
	static const gchar text[] = "[Security]\nPassphrase=12345678\n";
	g_autoptr(GBytes) ssid = g_bytes_new_static("net", 3);
	g_autoptr(GError) error = NULL;
	JoindProfile *p = joind_profile_parse(path, JOIND_PROFILE_TYPE_PSK, ssid,
	                                      (const guint8 *)text, strlen(text), &error);

	g_assert_no_error(error);
	return p;
}

static GVariant *
report(const gchar *subject, gboolean trusted)
{
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "subject", "s", subject);
	g_variant_dict_insert(&d, "pin-setting", "s", "EAP-TLS-ServerKeyPin");
	g_variant_dict_insert(&d, "trusted", "b", trusted);
	g_variant_dict_insert(&d, "ignored", "u", 7u);
	return g_variant_dict_end(&d);
}

/* The JSON object "c" the seen report of path makes, or NULL. */
static JsonObject *
seen_json(const gchar *path, JsonNode **root)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	JsonObject *o;

	json_builder_begin_object(b);
	joind_eap_seen_add_json(b, "c", path);
	json_builder_end_object(b);
	*root = json_builder_get_root(b);
	o = json_node_get_object(*root);
	return json_object_has_member(o, "c") ? json_object_get_object_member(o, "c") : NULL;
}

static void
test_record_and_show(void)
{
	g_autoptr(JoindProfile) p = wifi_profile("/state/net.psk");
	g_autoptr(JsonNode) root = NULL;
	g_autoptr(JsonNode) again = NULL;
	JsonObject *c;

	g_assert_null(seen_json("/state/net.psk", &root));
	g_clear_pointer(&root, json_node_unref);
	joind_eap_seen_record(p, report("CN=old", FALSE));
	joind_eap_seen_record(p, report("CN=auth.test", FALSE));
	c = seen_json("/state/net.psk", &root);
	g_assert_nonnull(c);
	g_assert_cmpstr(json_object_get_string_member(c, "subject"), ==, "CN=auth.test");
	g_assert_cmpstr(json_object_get_string_member(c, "pin_setting"), ==,
	                "EAP-TLS-ServerKeyPin");
	g_assert_false(json_object_get_boolean_member(c, "trusted"));
	g_assert_false(json_object_has_member(c, "ignored"));
	/* ProfileManager1's name of the profile: its KnownNetwork1 path. */
	g_assert_cmpstr(json_object_get_string_member(c, "profile"), ==,
	                "/net/joind/known/6e6574_psk");
	g_assert_nonnull(json_object_get_string_member(c, "seen"));
	g_assert_null(seen_json("/state/other.psk", &again));
	g_clear_pointer(&again, json_node_unref);
	g_assert_null(seen_json(NULL, &again));
	joind_eap_seen_clear();
}

/* Profiles that come and go do not pile up: the oldest report goes. */
static void
test_bounded(void)
{
	g_autoptr(JsonNode) root = NULL;

	for (guint i = 0; i < 70; i++) {
		g_autofree gchar *path = g_strdup_printf("/state/p%u.psk", i);
		g_autoptr(JoindProfile) p = wifi_profile(path);

		joind_eap_seen_record(p, report("CN=x", TRUE));
		g_usleep(1000); /* distinct times: the oldest is well defined */
	}
	g_assert_null(seen_json("/state/p0.psk", &root));
	g_clear_pointer(&root, json_node_unref);
	g_assert_nonnull(seen_json("/state/p69.psk", &root));
	g_clear_pointer(&root, json_node_unref);
	g_assert_nonnull(seen_json("/state/p6.psk", &root));
	joind_eap_seen_clear();
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eap-seen/record-and-show", test_record_and_show);
	g_test_add_func("/eap-seen/bounded", test_bounded);
	return g_test_run();
}
