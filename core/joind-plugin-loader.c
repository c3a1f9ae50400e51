/* joind-plugin-loader.c - plugin modules: open, check, order, start.
 *
 * A module is trusted only as far as its descriptor checks out: the ABI
 * major number and the struct size are read first, and nothing else in the
 * descriptor is touched unless both match. A module with a manifest beside
 * it (plugins/README.md) is known from that until it is opened; opened, it
 * must say what its manifest says, or it is refused.
 */
#include "joind-plugin-loader.h"

#include <gmodule.h>

#include "joind-core.h"
#include "joind-eap-method.h"
#include "joind-error.h"
#include "joind-profile-keys.h"
#include "joind-radio-watch.h"

#define RADIO_CLASS "/sys/class/ieee80211"

struct _JoindPluginLoader {
	GPtrArray *plugins; /* JoindPluginInfo* */
	JoindCore *core;    /* what plugins opened on demand start with */
	GFunc changed;
	gpointer changed_data;
	JoindRadioWatch *radio_watch; /* while a plugin waits for a radio */
};

static void
plugin_info_free(JoindPluginInfo *info)
{
	g_free(info->name);
	g_free(info->description);
	g_free(info->path);
	g_free(info->detail);
	joind_eap_forget_declared(info);
	if (info->profile_keys != NULL)
		joind_profile_keys_withdraw(info->profile_keys);
	/* Resident modules ignore this; refused or failed ones are unloaded. */
	if (info->module != NULL)
		g_module_close(info->module);
	joind_plugin_manifest_free(info->manifest);
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
joind_plugin_loader_set_changed_func(JoindPluginLoader *self, GFunc func, gpointer data)
{
	self->changed = func;
	self->changed_data = data;
}

void
joind_plugin_loader_free(JoindPluginLoader *self)
{
	if (self == NULL)
		return;
	joind_radio_watch_free(self->radio_watch);
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
	case JOIND_PLUGIN_STATE_AVAILABLE:
		return "available";
	}
	return "unknown";
}

/* The flags saying when to open it: known ones, one at most, and a bool
 * first key for the one that names it. */
static gboolean
descriptor_check_flags(const JoindPluginDescriptor *desc, GError **error)
{
	const guint32 known =
	        JOIND_PLUGIN_FLAG_OPEN_WITH_RADIO | JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED;

	if ((desc->flags & ~known) != 0 || desc->flags == known) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "its descriptor's flags 0x%x are unknown to this joind or contradict "
		            "each other",
		            desc->flags);
		return FALSE;
	}
	if ((desc->flags & JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED) != 0 &&
	    (desc->config_keys == NULL || desc->config_keys[0].group == NULL ||
	     desc->config_keys[0].type != JOIND_CONFIG_BOOL)) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "it is to be opened when enabled, but its first main.conf key "
		                    "is not a bool");
		return FALSE;
	}
	return TRUE;
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
	return descriptor_check_flags(desc, error);
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

		if ((info->descriptor != NULL || info->manifest != NULL) &&
		    g_str_equal(info->name, name))
			return info;
	}
	return NULL;
}

static void
plugin_refuse(JoindPluginInfo *info, const gchar *detail)
{
	/* detail may be the one it replaces: copied before that is freed. */
	gchar *was = info->detail;

	info->state = JOIND_PLUGIN_STATE_REFUSED;
	info->detail = g_strdup(detail);
	g_free(was);
	info->descriptor = NULL;
	g_warning("plugin %s refused: %s", info->path, detail);
}

/* Opens one module and reads its descriptor; never runs its code. */
static gboolean
plugin_open(JoindPluginInfo *info)
{
	gpointer symbol = NULL;
	g_autoptr(GError) error = NULL;

	info->module = g_module_open(info->path, G_MODULE_BIND_LOCAL);
	if (info->module == NULL) {
		plugin_refuse(info, g_module_error());
		return FALSE;
	}
	if (!g_module_symbol(info->module, JOIND_PLUGIN_SYMBOL, &symbol) || symbol == NULL) {
		plugin_refuse(info, "it does not export " JOIND_PLUGIN_SYMBOL);
		return FALSE;
	}
	if (!joind_plugin_descriptor_check(symbol, &error) ||
	    (info->manifest != NULL &&
	     !joind_plugin_manifest_matches(info->manifest, symbol, &error))) {
		plugin_refuse(info, error->message);
		return FALSE;
	}
	info->descriptor = symbol;
	return TRUE;
}

static void
plugin_set_facts(JoindPluginInfo *info, const gchar *name, const gchar *description, gint priority)
{
	g_free(info->name);
	info->name = g_strdup(name);
	g_free(info->description);
	info->description = g_strdup(description != NULL ? description : "");
	info->priority = priority;
}

static gboolean
plugin_selected(JoindPluginInfo *info, const gchar *enable, const gchar *disable)
{
	if ((enable == NULL || name_matches_any(info->name, enable)) &&
	    !name_matches_any(info->name, disable))
		return TRUE;
	info->state = JOIND_PLUGIN_STATE_DISABLED;
	info->detail = g_strdup("disabled by --plugins/--noplugin");
	g_info("plugin %s disabled", info->name);
	return FALSE;
}

static void plugin_open_on_demand(gpointer data);

/* The profile keys it owns, from its manifest when it has one: profiles
 * are checked with them whether or not the module is ever opened, or
 * selected (a profile's value is no less wrong while its plugin is off). */
static void
plugin_declare_profile_keys(JoindPluginInfo *info)
{
	info->profile_keys = info->manifest != NULL ? info->manifest->profile_keys
	                                            : info->descriptor->profile_keys;
	if (info->profile_keys != NULL)
		joind_profile_keys_declare(info->profile_keys);
}

/* An EAP method plugin: its methods are known from the manifest. */
static void
plugin_declare_methods(JoindPluginInfo *info)
{
	JoindPluginManifest *m = info->manifest;

	info->state = JOIND_PLUGIN_STATE_AVAILABLE;
	info->detail = g_strdup("opened when a profile first names one of its EAP methods");
	for (guint i = 0; i < m->eap_methods->len; i++) {
		const JoindPluginManifestMethod *method =
		        &g_array_index(m->eap_methods, JoindPluginManifestMethod, i);

		joind_eap_declare_method(method->name, method->type, plugin_open_on_demand, info);
	}
}

/* A module with a manifest: the manifest says what it is; the module is
 * opened now only if it is not one to open on demand. */
static void
plugin_add_with_manifest(JoindPluginLoader *self, JoindPluginInfo *info, const gchar *manifest_path,
                         const gchar *enable, const gchar *disable)
{
	g_autoptr(GError) error = NULL;
	JoindPluginManifest *m = joind_plugin_manifest_load(manifest_path, &error);

	if (m == NULL) {
		plugin_refuse(info, error->message);
		return;
	}
	if (plugin_find(self, m->name) != NULL) {
		joind_plugin_manifest_free(m);
		plugin_refuse(info, "another module already provides a plugin of that name");
		return;
	}
	info->manifest = m;
	plugin_set_facts(info, m->name, m->description, m->priority);
	plugin_declare_profile_keys(info);
	if (!plugin_selected(info, enable, disable))
		return;
	switch (m->load) {
	case JOIND_PLUGIN_LOAD_START:
		plugin_open(info);
		break;
	case JOIND_PLUGIN_LOAD_ON_DEMAND:
		plugin_declare_methods(info);
		break;
	case JOIND_PLUGIN_LOAD_WITH_RADIO:
		info->state = JOIND_PLUGIN_STATE_AVAILABLE;
		info->detail = g_strdup("opened when the machine has a radio (" RADIO_CLASS ")");
		break;
	case JOIND_PLUGIN_LOAD_WHEN_ENABLED:
		info->state = JOIND_PLUGIN_STATE_AVAILABLE;
		info->detail = g_strdup_printf("opened when main.conf sets [%s] %s=true",
		                               m->enabled_by->group, m->enabled_by->key);
		break;
	}
}

/* A module without a manifest is opened to read what it is. */
static void
plugin_add_without_manifest(JoindPluginLoader *self, JoindPluginInfo *info, const gchar *enable,
                            const gchar *disable)
{
	if (!plugin_open(info))
		return;
	if (plugin_find(self, info->descriptor->name) != NULL) {
		plugin_refuse(info, "another module already provides a plugin of that name");
		return;
	}
	plugin_set_facts(info, info->descriptor->name, info->descriptor->description,
	                 info->descriptor->priority);
	plugin_declare_profile_keys(info);
	plugin_selected(info, enable, disable);
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
		g_autofree gchar *manifest = NULL;

		if (!g_str_has_suffix(file, ".so"))
			continue;
		info = g_new0(JoindPluginInfo, 1);
		info->loader = self;
		info->path = g_build_filename(dir, file, NULL);
		info->name = g_strdup(file);
		info->description = g_strdup("");
		g_ptr_array_add(self->plugins, info);
		manifest = joind_plugin_manifest_path(info->path);
		if (g_file_test(manifest, G_FILE_TEST_EXISTS))
			plugin_add_with_manifest(self, info, manifest, enable, disable);
		else
			plugin_add_without_manifest(self, info, enable, disable);
	}
	g_ptr_array_sort(self->plugins, plugin_compare);
}

static void
plugin_fail(JoindPluginInfo *info, const GError *error)
{
	g_free(info->detail);
	info->state = JOIND_PLUGIN_STATE_FAILED;
	info->detail = g_strdup(error != NULL ? error->message : "init failed without a reason");
	g_warning("plugin %s failed to start: %s", info->name, info->detail);
}

/* Its main.conf keys, from its manifest when it has one: the module may
 * still be closed. */
static gboolean
plugin_declare(JoindPluginLoader *self, JoindPluginInfo *info)
{
	const JoindConfigKey *keys = info->manifest != NULL ? info->manifest->config_keys
	                                                    : info->descriptor->config_keys;
	g_autoptr(GError) error = NULL;

	if (info->declared)
		return TRUE;
	info->declared = TRUE;
	if (keys == NULL || joind_core_declare_config(self->core, keys, &error))
		return TRUE;
	plugin_fail(info, error);
	return FALSE;
}

/* init() of one opened plugin, its main.conf keys declared first. */
static void
plugin_start(JoindPluginLoader *self, JoindPluginInfo *info)
{
	g_autoptr(GError) error = NULL;

	info->started = TRUE;
	if (!plugin_declare(self, info))
		return;
	if (!info->descriptor->init(self->core, &error)) {
		plugin_fail(info, error);
		return;
	}
	/* Its GTypes and callbacks now live in the process for good. */
	g_module_make_resident(info->module);
	g_info("plugin %s loaded (%s)", info->name, info->path);
}

/* Opens a plugin that was left closed, and starts it. */
static void
plugin_open_later(JoindPluginInfo *info, const gchar *why)
{
	JoindPluginLoader *self = info->loader;

	g_clear_pointer(&info->detail, g_free);
	info->state = JOIND_PLUGIN_STATE_LOADED;
	g_debug("plugin %s: opening %s %s", info->name, info->path, why);
	if (plugin_open(info))
		plugin_start(self, info);
	if (self->changed != NULL)
		self->changed(info, self->changed_data);
}

static gboolean
plugin_waits_for(const JoindPluginInfo *info, JoindPluginLoad load)
{
	return info->state == JOIND_PLUGIN_STATE_AVAILABLE && info->manifest != NULL &&
	       info->manifest->load == load && info->declared;
}

static gboolean
loader_radio_appeared(gpointer data)
{
	JoindPluginLoader *self = data;

	g_info("a radio appeared: opening the plugins that wait for one");
	for (guint i = 0; i < self->plugins->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(self->plugins, i);

		if (plugin_waits_for(info, JOIND_PLUGIN_LOAD_WITH_RADIO))
			plugin_open_later(info, "as a radio appeared");
	}
	g_clear_pointer(&self->radio_watch, joind_radio_watch_free);
	return G_SOURCE_REMOVE;
}

static void
plugin_wait_for_radio(JoindPluginLoader *self, JoindPluginInfo *info)
{
	g_autoptr(GError) error = NULL;

	/* Watching first: a radio added right after the look at sysfs is
	 * still announced. */
	if (self->radio_watch == NULL)
		self->radio_watch = joind_radio_watch_new(loader_radio_appeared, self, &error);
	if (self->radio_watch == NULL)
		g_warning("%s", error->message);
	if (joind_radio_present(RADIO_CLASS)) {
		plugin_open_later(info, "for the radios in " RADIO_CLASS);
		g_clear_pointer(&self->radio_watch, joind_radio_watch_free);
	}
}

static void
plugin_open_if_enabled(JoindPluginInfo *info)
{
	const JoindConfigKey *key = info->manifest->enabled_by;

	if (joind_core_get_config_bool(info->loader->core, key->group, key->key))
		plugin_open_later(info, "as main.conf enables it");
}

/* A plugin opened later: its keys are declared now, from its manifest,
 * and it is opened now if what it waits for holds already. */
static void
plugin_arm(JoindPluginLoader *self, JoindPluginInfo *info)
{
	if (!plugin_declare(self, info))
		return;
	if (info->manifest->load == JOIND_PLUGIN_LOAD_WHEN_ENABLED)
		plugin_open_if_enabled(info);
	else
		plugin_wait_for_radio(self, info);
}

void
joind_plugin_loader_init_upto(JoindPluginLoader *self, JoindCore *core, gint max_priority)
{
	self->core = core;
	for (guint i = 0; i < self->plugins->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(self->plugins, i);
		JoindPluginLoad load =
		        info->manifest != NULL ? info->manifest->load : JOIND_PLUGIN_LOAD_START;

		if (info->priority > max_priority)
			continue;
		if (info->state == JOIND_PLUGIN_STATE_AVAILABLE && !info->declared &&
		    (load == JOIND_PLUGIN_LOAD_WITH_RADIO ||
		     load == JOIND_PLUGIN_LOAD_WHEN_ENABLED))
			plugin_arm(self, info);
		else if (info->state == JOIND_PLUGIN_STATE_AVAILABLE &&
		         load == JOIND_PLUGIN_LOAD_ON_DEMAND)
			plugin_declare(self, info);
		else if (info->descriptor != NULL && info->state == JOIND_PLUGIN_STATE_LOADED &&
		         !info->started)
			plugin_start(self, info);
	}
}

void
joind_plugin_loader_config_changed(JoindPluginLoader *self)
{
	for (guint i = 0; i < self->plugins->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(self->plugins, i);

		if (plugin_waits_for(info, JOIND_PLUGIN_LOAD_WHEN_ENABLED))
			plugin_open_if_enabled(info);
	}
}

/* The EAP registry's first lookup of one of the plugin's methods. */
static void
plugin_open_on_demand(gpointer data)
{
	JoindPluginInfo *info = data;

	if (info->loader->core != NULL) {
		plugin_open_later(info, "on first use");
		return;
	}
	plugin_refuse(info, "a profile named its EAP method before the daemon started");
	if (info->loader->changed != NULL)
		info->loader->changed(info, info->loader->changed_data);
}

void
joind_plugin_loader_shutdown_all(JoindPluginLoader *self, JoindCore *core)
{
	for (guint i = self->plugins->len; i > 0; i--) {
		JoindPluginInfo *info = g_ptr_array_index(self->plugins, i - 1);

		/* A module opened at start is not started until the name is owned. */
		if (info->state != JOIND_PLUGIN_STATE_LOADED || info->descriptor == NULL ||
		    !info->started)
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
