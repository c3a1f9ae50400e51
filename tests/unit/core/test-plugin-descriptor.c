/* test-plugin-descriptor.c - the loader's descriptor checks, and the
 * manifest made from a descriptor: read back, compared with it, malformed. */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "joind-eap.h"
#include "joind-error.h"
#include "joind-plugin-loader.h"

static gboolean
dummy_init(JoindCore *core, GError **error)
{
	return TRUE;
}

static JoindPluginDescriptor
good_descriptor(void)
{
	JoindPluginDescriptor d = {
	        .abi_major = JOIND_PLUGIN_ABI_MAJOR,
	        .struct_size = sizeof(JoindPluginDescriptor),
	        .abi_minor = JOIND_PLUGIN_ABI_MINOR,
	        .name = "good",
	        .description = "a good plugin",
	        .priority = JOIND_PLUGIN_PRIORITY_DEVICE,
	        .init = dummy_init,
	};
	return d;
}

static void
test_descriptor_good(void)
{
	JoindPluginDescriptor d = good_descriptor();
	g_autoptr(GError) error = NULL;

	g_assert_true(joind_plugin_descriptor_check(&d, &error));
	g_assert_no_error(error);
}

static void
test_descriptor_bad(void)
{
	struct {
		const gchar *what;
		void (*mutate)(JoindPluginDescriptor *d);
		const gchar *expect;
	} cases[] = {
	        {"abi major", NULL, "plugin ABI 99"},
	        {"size", NULL, "descriptor is 8 bytes"},
	        {"abi minor", NULL, "needs plugin ABI"},
	        {"no name", NULL, "no name"},
	        {"no init", NULL, "no init"},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		JoindPluginDescriptor d = good_descriptor();
		g_autoptr(GError) error = NULL;

		switch (i) {
		case 0:
			d.abi_major = 99;
			break;
		case 1:
			d.struct_size = 8;
			break;
		case 2:
			d.abi_minor = JOIND_PLUGIN_ABI_MINOR + 1;
			break;
		case 3:
			d.name = "";
			break;
		case 4:
			d.init = NULL;
			break;
		}
		g_assert_false(joind_plugin_descriptor_check(&d, &error));
		g_assert_nonnull(error);
		if (strstr(error->message, cases[i].expect) == NULL)
			g_error("case %s: unexpected message “%s”", cases[i].what, error->message);
	}
}

static const JoindEapMethodOps method = {
        .type = 13,
        .name = "TLS",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_INNER,
};
static const JoindEapMethodOps *const methods[] = {&method, NULL};
static const JoindConfigKey keys[] = {
        {"Scan", "DisablePeriodicScan", JOIND_CONFIG_BOOL, "false", 0, 0, NULL},
        {NULL, NULL, 0, NULL, 0, 0, NULL},
};

/* The manifest of d as the build writes it, loaded back from a file. */
static JoindPluginManifest *
manifest_of(const JoindPluginDescriptor *d, const gchar *from, const gchar *to, GError **error)
{
	g_autoptr(GKeyFile) kf = joind_plugin_manifest_from_descriptor(d);
	g_autofree gchar *text = g_key_file_to_data(kf, NULL, NULL);
	g_autoptr(GString) edited = g_string_new(text);
	g_autofree gchar *path = NULL;
	gint fd = g_file_open_tmp("joind-manifest-XXXXXX.plugin", &path, NULL);
	JoindPluginManifest *m;

	g_assert_cmpint(fd, >=, 0);
	close(fd);
	if (from != NULL)
		g_assert_cmpuint(g_string_replace(edited, from, to, 1), ==, 1);
	g_assert_true(g_file_set_contents(path, edited->str, -1, NULL));
	m = joind_plugin_manifest_load(path, error);
	g_unlink(path);
	return m;
}

static void
test_manifest_round_trip(void)
{
	JoindPluginDescriptor d = good_descriptor();
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindPluginManifest) m = NULL;
	g_autoptr(JoindPluginManifest) device = NULL;

	d.eap_methods = methods;
	m = manifest_of(&d, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(m->name, ==, "good");
	g_assert_true(m->on_demand);
	g_assert_cmpuint(m->eap_methods->len, ==, 1);
	g_assert_cmpstr(g_array_index(m->eap_methods, JoindPluginManifestMethod, 0).name, ==,
	                "TLS");
	g_assert_cmpuint(g_array_index(m->eap_methods, JoindPluginManifestMethod, 0).type, ==, 13);
	g_assert_true(joind_plugin_manifest_matches(m, &d, &error));
	g_assert_no_error(error);
	/* main.conf keys are checked at start: such a plugin is not on demand. */
	d.config_keys = keys;
	device = manifest_of(&d, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_false(device->on_demand);
	g_assert_true(joind_plugin_manifest_matches(device, &d, &error));
	/* A module reading a key its manifest does not list is refused. */
	g_assert_false(joind_plugin_manifest_matches(m, &d, &error));
	g_assert_nonnull(strstr(error->message, "[Plugin] Load=on-demand, the module says start"));
}

static void
test_manifest_mismatch(void)
{
	JoindPluginDescriptor d = good_descriptor();
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindPluginManifest) m = NULL;

	d.eap_methods = methods;
	m = manifest_of(&d, "Flags=outer;inner;", "Flags=outer;", &error);
	g_assert_no_error(error);
	g_assert_false(joind_plugin_manifest_matches(m, &d, &error));
	g_assert_nonnull(strstr(error->message, "says [EAP-Method TLS] Flags=outer;, the module "
	                                        "says outer;inner; (the manifest and the module "
	                                        "come from different builds)"));
}

static void
test_manifest_malformed(void)
{
	JoindPluginDescriptor d = good_descriptor();
	g_autoptr(GError) error = NULL;
	g_autofree gchar *path = NULL;
	JoindPluginManifest *m;

	d.eap_methods = methods;
	m = manifest_of(&d, "Type=13", "Type=254", &error);
	g_assert_null(m);
	g_assert_nonnull(strstr(error->message, "[EAP-Method TLS] Type is not an EAP method type"));
	g_clear_error(&error);
	m = manifest_of(&d, "EapMethods=TLS;", "", &error);
	g_assert_null(m);
	g_assert_nonnull(strstr(error->message, "Load=on-demand, but it names no EAP method"));
	g_clear_error(&error);
	m = manifest_of(&d, "Name=good", "Title=good", &error);
	g_assert_null(m);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	path = joind_plugin_manifest_path("/p/joind-x.so");
	g_assert_cmpstr(path, ==, "/p/joind-x.plugin");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/plugin-descriptor/good", test_descriptor_good);
	g_test_add_func("/plugin-descriptor/bad", test_descriptor_bad);
	g_test_add_func("/plugin-manifest/round-trip", test_manifest_round_trip);
	g_test_add_func("/plugin-manifest/mismatch", test_manifest_mismatch);
	g_test_add_func("/plugin-manifest/malformed", test_manifest_malformed);
	return g_test_run();
}
