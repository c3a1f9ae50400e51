/* joind-plugin-manifest-tool.c - writes a plugin module's manifest at build time.
 *
 *   joind-plugin-manifest-tool MODULE.so OUTPUT.plugin
 *
 * The manifest is made from the descriptor of the module just built, so it
 * cannot say anything the module does not (plugins/README.md). The module
 * is opened but none of its code runs.
 */
#include <gmodule.h>
#include <stdio.h>
#include <stdlib.h>

#include "joind-plugin-loader.h"
#include "joind-plugin-manifest.h"

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GKeyFile) kf = NULL;
	g_autofree gchar *text = NULL;
	g_autofree gchar *comment = NULL;
	g_autofree gchar *base = NULL;
	GModule *module;
	gpointer symbol = NULL;

	if (argc != 3) {
		g_printerr("usage: joind-plugin-manifest-tool MODULE.so OUTPUT.plugin\n");
		return 2;
	}
	module = g_module_open(argv[1], G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
	if (module == NULL || !g_module_symbol(module, JOIND_PLUGIN_SYMBOL, &symbol) ||
	    symbol == NULL) {
		g_printerr("joind-plugin-manifest-tool: %s: %s\n", argv[1],
		           module == NULL ? g_module_error() : "no " JOIND_PLUGIN_SYMBOL);
		return EXIT_FAILURE;
	}
	if (!joind_plugin_descriptor_check(symbol, &error)) {
		g_printerr("joind-plugin-manifest-tool: %s: %s\n", argv[1], error->message);
		return EXIT_FAILURE;
	}
	kf = joind_plugin_manifest_from_descriptor(symbol);
	base = g_path_get_basename(argv[1]);
	comment = g_strdup_printf(" Generated at build time from the descriptor of %s;\n"
	                          " joind reads it instead of opening the module, and refuses\n"
	                          " the module if the two disagree.",
	                          base);
	g_key_file_set_comment(kf, NULL, NULL, comment, NULL);
	text = g_key_file_to_data(kf, NULL, NULL);
	if (!g_file_set_contents(argv[2], text, -1, &error)) {
		g_printerr("joind-plugin-manifest-tool: %s\n", error->message);
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
