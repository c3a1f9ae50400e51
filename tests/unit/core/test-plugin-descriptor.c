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
	        {"unknown flag", NULL, "flags 0x4 are unknown"},
	        {"both flags", NULL, "flags 0x3 are unknown to this joind or contradict"},
	        {"enabled by no bool", NULL, "its first main.conf key is not a bool"},
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
		case 5:
			d.flags = 1 << 2;
			break;
		case 6:
			d.flags = JOIND_PLUGIN_FLAG_OPEN_WITH_RADIO |
			          JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED;
			break;
		case 7:
			d.flags = JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED;
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
static const gchar *const modes[] = {"disabled", "once", NULL};
static const JoindConfigKey keys[] = {
        {"Scan", "DisablePeriodicScan", JOIND_CONFIG_BOOL, "false", 0, 0, NULL},
        {"Scan", "InitialPeriodicScanInterval", JOIND_CONFIG_INT, "10", 1, 3600, NULL},
        {"General", "AddressRandomization", JOIND_CONFIG_STRING, "disabled", 0, 0, modes},
        {"General", "Interfaces", JOIND_CONFIG_STRV, "", 0, 0, NULL},
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
	g_autoptr(JoindPluginManifest) with_keys = NULL;
	g_autoptr(JoindPluginManifest) device = NULL;

	d.eap_methods = methods;
	m = manifest_of(&d, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(m->name, ==, "good");
	g_assert_cmpint(m->load, ==, JOIND_PLUGIN_LOAD_ON_DEMAND);
	g_assert_cmpuint(m->eap_methods->len, ==, 1);
	g_assert_cmpstr(g_array_index(m->eap_methods, JoindPluginManifestMethod, 0).name, ==,
	                "TLS");
	g_assert_cmpuint(g_array_index(m->eap_methods, JoindPluginManifestMethod, 0).type, ==, 13);
	g_assert_true(joind_plugin_manifest_matches(m, &d, &error));
	g_assert_no_error(error);
	/* An EAP method plugin's main.conf keys are declared from its
	 * manifest at start: it stays on demand. */
	d.config_keys = keys;
	with_keys = manifest_of(&d, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpint(with_keys->load, ==, JOIND_PLUGIN_LOAD_ON_DEMAND);
	g_assert_nonnull(with_keys->config_keys);
	g_assert_true(joind_plugin_manifest_matches(with_keys, &d, &error));
	/* A module reading a key its manifest does not list is refused. */
	g_assert_false(joind_plugin_manifest_matches(m, &d, &error));
	g_assert_nonnull(strstr(error->message, "the module says [Config] "));
	g_clear_error(&error);
	/* Keys without EAP methods: opened at start. */
	d.eap_methods = NULL;
	device = manifest_of(&d, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpint(device->load, ==, JOIND_PLUGIN_LOAD_START);
	g_assert_true(joind_plugin_manifest_matches(device, &d, &error));
}

/* Every field of every key, read back from the manifest alone. */
static void
assert_keys_equal(const JoindConfigKey *got, const JoindConfigKey *want)
{
	guint i = 0;

	for (; want[i].group != NULL; i++) {
		g_assert_cmpstr(got[i].group, ==, want[i].group);
		g_assert_cmpstr(got[i].key, ==, want[i].key);
		g_assert_cmpint(got[i].type, ==, want[i].type);
		g_assert_cmpstr(got[i].default_value, ==, want[i].default_value);
		g_assert_cmpint(got[i].min, ==, want[i].min);
		g_assert_cmpint(got[i].max, ==, want[i].max);
		g_assert_true((got[i].choices == NULL) == (want[i].choices == NULL));
		if (want[i].choices != NULL)
			g_assert_true(g_strv_equal((const gchar *const *)got[i].choices,
			                           (const gchar *const *)want[i].choices));
	}
	g_assert_null(got[i].group);
}

/* Plugins opened later: the manifest says when, and holds their keys
 * whole, since they are declared from it while the module is closed. */
static void
test_manifest_lazy(void)
{
	JoindPluginDescriptor d = good_descriptor();
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindPluginManifest) radio = NULL;
	g_autoptr(JoindPluginManifest) enabled = NULL;

	d.config_keys = keys;
	d.flags = JOIND_PLUGIN_FLAG_OPEN_WITH_RADIO;
	radio = manifest_of(&d, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpint(radio->load, ==, JOIND_PLUGIN_LOAD_WITH_RADIO);
	assert_keys_equal(radio->config_keys, keys);
	g_assert_true(joind_plugin_manifest_matches(radio, &d, &error));
	d.flags = JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED;
	enabled = manifest_of(&d, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpint(enabled->load, ==, JOIND_PLUGIN_LOAD_WHEN_ENABLED);
	g_assert_true(enabled->enabled_by == &enabled->config_keys[0]);
	/* The module says when it is to be opened, as its manifest must. */
	g_assert_false(joind_plugin_manifest_matches(radio, &d, &error));
	g_assert_nonnull(strstr(error->message, "[Plugin] Load=with-radio, the module says "
	                                        "when-enabled"));
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
	g_clear_pointer(&m, joind_plugin_manifest_free);
	g_clear_error(&error);
	/* A key's default (or range, or choices) is compared too. */
	d.config_keys = keys;
	m = manifest_of(&d, "InitialPeriodicScanInterval=int;10;1;3600;",
	                "InitialPeriodicScanInterval=int;20;1;3600;", &error);
	g_assert_no_error(error);
	g_assert_false(joind_plugin_manifest_matches(m, &d, &error));
	g_assert_nonnull(strstr(error->message, "says [Config] Scan/InitialPeriodicScanInterval="
	                                        "int;20;1;3600;, the module says int;10;1;3600;"));
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
	g_clear_error(&error);
	m = manifest_of(&d, "Load=on-demand", "Load=whenever", &error);
	g_assert_null(m);
	g_assert_nonnull(strstr(error->message, "Load=whenever is none of start, on-demand"));
	g_clear_error(&error);
	d.eap_methods = NULL;
	d.config_keys = keys;
	m = manifest_of(&d, "Interfaces=strv;;0;0;", "Interfaces=strv;;zero;0;", &error);
	g_assert_null(m);
	g_assert_nonnull(strstr(error->message, "[Config] General/Interfaces is not "
	                                        "Group/Key=type;default;min;max;choices"));
	g_clear_error(&error);
	d.flags = JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED;
	m = manifest_of(&d, "EnabledBy=Scan/DisablePeriodicScan",
	                "EnabledBy=Scan/InitialPeriodicScanInterval", &error);
	g_assert_null(m);
	g_assert_nonnull(strstr(error->message, "EnabledBy= names none of its bool keys"));
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
	g_test_add_func("/plugin-manifest/lazy", test_manifest_lazy);
	g_test_add_func("/plugin-manifest/mismatch", test_manifest_mismatch);
	g_test_add_func("/plugin-manifest/malformed", test_manifest_malformed);
	return g_test_run();
}
