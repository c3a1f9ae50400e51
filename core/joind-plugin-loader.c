/* joind-plugin-loader.c - plugin modules: open, check, order, start.
 *
 * A module is trusted only as far as its descriptor checks out: the ABI
 * major number and the struct size are read first, and nothing else in the
 * descriptor is touched unless both match.
 */
#include "joind-plugin-loader.h"

#include <gmodule.h>

#include "joind-error.h"

struct _JoindPluginLoader {
	GPtrArray *plugins; /* JoindPluginInfo* */
};

static void
plugin_info_free(JoindPluginInfo *info)
{
	g_free(info->name);
	g_free(info->description);
	g_free(info->path);
	g_free(info->detail);
	/* Resident modules ignore this; refused or failed ones are unloaded. */
	if (info->module != NULL)
		g_module_close(info->module);
	g_free(info);
}

JoindPluginLoader *
joind_plugin_loader_new(void)
{
	JoindPluginLoader *self = g_new0(JoindPluginLoader, 1);

	self->plugins = g_ptr_array_new_with_free_func((GDestroyNotify)plugin_info_free);
	return self;
}

void
joind_plugin_loader_free(JoindPluginLoader *self)
{
	if (self == NULL)
		return;
	g_ptr_array_unref(self->plugins);
	g_free(self);
}

const gchar *
joind_plugin_state_to_string(JoindPluginState state)
{
	switch (state) {
	case JOIND_PLUGIN_STATE_LOADED:
		return "loaded";
	case JOIND_PLUGIN_STATE_DISABLED:
		return "disabled";
	case JOIND_PLUGIN_STATE_FAILED:
		return "failed";
	case JOIND_PLUGIN_STATE_REFUSED:
		return "refused";
	}
	return "unknown";
}

gboolean
joind_plugin_descriptor_check(const JoindPluginDescriptor *desc, GError **error)
{
	if (desc->abi_major != JOIND_PLUGIN_ABI_MAJOR) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "it was built for plugin ABI %u, this joind provides ABI %u",
		            desc->abi_major, JOIND_PLUGIN_ABI_MAJOR);
		return FALSE;
	}
	if (desc->struct_size != sizeof(JoindPluginDescriptor)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "its descriptor is %u bytes, expected %zu (mismatched headers)",
		            desc->struct_size, sizeof(JoindPluginDescriptor));
		return FALSE;
	}
	if (desc->abi_minor > JOIND_PLUGIN_ABI_MINOR) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "it needs plugin ABI %u.%u, this joind provides %u.%u", desc->abi_major,
		            desc->abi_minor, JOIND_PLUGIN_ABI_MAJOR, JOIND_PLUGIN_ABI_MINOR);
		return FALSE;
	}
	if (desc->name == NULL || desc->name[0] == '\0' || desc->init == NULL) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "its descriptor has no name or no init function");
		return FALSE;
	}
	return TRUE;
}

static gboolean
name_matches_any(const gchar *name, const gchar *globs)
{
	g_auto(GStrv) parts = NULL;

	if (globs == NULL)
		return FALSE;
	parts = g_strsplit(globs, ",", -1);
	for (guint i = 0; parts[i] != NULL; i++) {
		g_strstrip(parts[i]);
		if (parts[i][0] != '\0' && g_pattern_match_simple(parts[i], name))
			return TRUE;
	}
	return FALSE;
}

static JoindPluginInfo *
plugin_find(JoindPluginLoader *self, const gchar *name)
{
	for (guint i = 0; i < self->plugins->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(self->plugins, i);

		if (info->descriptor != NULL && g_str_equal(info->name, name))
			return info;
	}
	return NULL;
}

static void
plugin_refuse(JoindPluginInfo *info, const gchar *detail)
{
	info->state = JOIND_PLUGIN_STATE_REFUSED;
	info->detail = g_strdup(detail);
	info->descriptor = NULL;
	g_warning("plugin %s refused: %s", info->path, detail);
}

/* Opens one module and reads its descriptor; never runs its code. */
static void
plugin_open(JoindPluginLoader *self, JoindPluginInfo *info, const gchar *enable,
            const gchar *disable)
{
	gpointer symbol = NULL;
	const JoindPluginDescriptor *desc;
	g_autoptr(GError) error = NULL;

	info->module = g_module_open(info->path, G_MODULE_BIND_LOCAL);
	if (info->module == NULL) {
		plugin_refuse(info, g_module_error());
		return;
	}
	if (!g_module_symbol(info->module, JOIND_PLUGIN_SYMBOL, &symbol) || symbol == NULL) {
		plugin_refuse(info, "it does not export " JOIND_PLUGIN_SYMBOL);
		return;
	}
	desc = symbol;
	if (!joind_plugin_descriptor_check(desc, &error)) {
		plugin_refuse(info, error->message);
		return;
	}
	if (plugin_find(self, desc->name) != NULL) {
		plugin_refuse(info, "another module already provides a plugin of that name");
		return;
	}
	g_free(info->name);
	info->name = g_strdup(desc->name);
	g_free(info->description);
	info->description = g_strdup(desc->description != NULL ? desc->description : "");
	info->priority = desc->priority;
	info->descriptor = desc;
	if ((enable != NULL && !name_matches_any(desc->name, enable)) ||
	    name_matches_any(desc->name, disable)) {
		info->state = JOIND_PLUGIN_STATE_DISABLED;
		info->detail = g_strdup("disabled by --plugins/--noplugin");
		g_info("plugin %s disabled", desc->name);
	}
}

static gint
plugin_compare(gconstpointer a, gconstpointer b)
{
	const JoindPluginInfo *pa = *(JoindPluginInfo *const *)a;
	const JoindPluginInfo *pb = *(JoindPluginInfo *const *)b;

	if (pa->priority != pb->priority)
		return pa->priority < pb->priority ? -1 : 1;
	return g_strcmp0(pa->name, pb->name);
}

void
joind_plugin_loader_scan(JoindPluginLoader *self, const gchar *dir, const gchar *enable,
                         const gchar *disable)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDir) d = g_dir_open(dir, 0, &error);
	const gchar *file;

	if (d == NULL) {
		g_warning("cannot read plugin directory: %s", error->message);
		return;
	}
	while ((file = g_dir_read_name(d)) != NULL) {
		JoindPluginInfo *info;

		if (!g_str_has_suffix(file, ".so"))
			continue;
		info = g_new0(JoindPluginInfo, 1);
		info->path = g_build_filename(dir, file, NULL);
		info->name = g_strdup(file);
		info->description = g_strdup("");
		g_ptr_array_add(self->plugins, info);
		plugin_open(self, info, enable, disable);
	}
	g_ptr_array_sort(self->plugins, plugin_compare);
}

void
joind_plugin_loader_init_upto(JoindPluginLoader *self, JoindCore *core, gint max_priority)
{
	for (guint i = 0; i < self->plugins->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(self->plugins, i);
		g_autoptr(GError) error = NULL;

		if (info->descriptor == NULL || info->state != JOIND_PLUGIN_STATE_LOADED ||
		    info->started || info->priority > max_priority)
			continue;
		info->started = TRUE;
		if (!info->descriptor->init(core, &error)) {
			info->state = JOIND_PLUGIN_STATE_FAILED;
			info->detail = g_strdup(error != NULL ? error->message
			                                      : "init failed without a reason");
			g_warning("plugin %s failed to start: %s", info->name, info->detail);
			continue;
		}
		/* Its GTypes and callbacks now live in the process for good. */
		g_module_make_resident(info->module);
		g_info("plugin %s loaded (%s)", info->name, info->path);
	}
}

void
joind_plugin_loader_shutdown_all(JoindPluginLoader *self, JoindCore *core)
{
	for (guint i = self->plugins->len; i > 0; i--) {
		JoindPluginInfo *info = g_ptr_array_index(self->plugins, i - 1);

		if (info->state != JOIND_PLUGIN_STATE_LOADED || info->descriptor == NULL)
			continue;
		if (info->descriptor->shutdown != NULL)
			info->descriptor->shutdown(core);
		g_debug("plugin %s shut down", info->name);
	}
}

GPtrArray *
joind_plugin_loader_get_plugins(JoindPluginLoader *self)
{
	return self->plugins;
}
