/* test-plugin-descriptor.c - the loader's descriptor checks. */
#include <string.h>

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

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/plugin-descriptor/good", test_descriptor_good);
	g_test_add_func("/plugin-descriptor/bad", test_descriptor_bad);
	return g_test_run();
}
