/* joind-plugin-manifest.c - a plugin's manifest: written from a descriptor
 * at build time, read at start, compared with the module when it opens.
 *
 * The comparison regenerates the manifest from the module's descriptor and
 * compares the two keyfiles key by key, so that whatever the build writes
 * is also what a module has to match.
 */
#include "joind-plugin-manifest.h"

#include "joind-eap.h"
#include "joind-error.h"

#define GROUP_PLUGIN "Plugin"
#define GROUP_CONFIG "Config"
#define METHOD_GROUP "EAP-Method "

static const gchar *const config_types[] = {"bool", "int", "string", "strv"};

gchar *
joind_plugin_manifest_path(const gchar *module_path)
{
	g_autofree gchar *stem = g_str_has_suffix(module_path, ".so")
	                                 ? g_strndup(module_path, strlen(module_path) - 3)
	                                 : g_strdup(module_path);

	return g_strconcat(stem, ".plugin", NULL);
}

static void
manifest_add_methods(GKeyFile *kf, const JoindEapMethodOps *const *methods)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();

	for (guint i = 0; methods != NULL && methods[i] != NULL; i++) {
		const JoindEapMethodOps *ops = methods[i];
		g_autofree gchar *group = g_strconcat(METHOD_GROUP, ops->name, NULL);
		const gchar *flags[4] = {NULL};
		guint n = 0;

		if ((ops->flags & JOIND_EAP_METHOD_FLAG_OUTER) != 0)
			flags[n++] = "outer";
		if ((ops->flags & JOIND_EAP_METHOD_FLAG_INNER) != 0)
			flags[n++] = "inner";
		if ((ops->flags & JOIND_EAP_METHOD_FLAG_PASSWORD) != 0)
			flags[n++] = "password";
		g_key_file_set_integer(kf, group, "Type", ops->type);
		g_key_file_set_string_list(kf, group, "Flags", flags, n);
		g_ptr_array_add(names, (gpointer)ops->name);
	}
	if (names->len > 0)
		g_key_file_set_string_list(kf, GROUP_PLUGIN, "EapMethods",
		                           (const gchar *const *)names->pdata, names->len);
}

GKeyFile *
joind_plugin_manifest_from_descriptor(const JoindPluginDescriptor *desc)
{
	GKeyFile *kf = g_key_file_new();
	g_autofree gchar *abi = g_strdup_printf("%u.%u", desc->abi_major, desc->abi_minor);
	gboolean has_methods = desc->eap_methods != NULL && desc->eap_methods[0] != NULL;
	gboolean has_keys = desc->config_keys != NULL && desc->config_keys[0].group != NULL;

	g_key_file_set_string(kf, GROUP_PLUGIN, "Name", desc->name);
	g_key_file_set_string(kf, GROUP_PLUGIN, "Description",
	                      desc->description != NULL ? desc->description : "");
	g_key_file_set_string(kf, GROUP_PLUGIN, "ABI", abi);
	g_key_file_set_integer(kf, GROUP_PLUGIN, "Priority", desc->priority);
	/* main.conf is checked at start against every key a plugin declares,
	 * so a plugin with keys is opened then; EAP methods wait for a
	 * profile that names them. */
	g_key_file_set_string(kf, GROUP_PLUGIN, "Load",
	                      has_methods && !has_keys ? "on-demand" : "start");
	manifest_add_methods(kf, desc->eap_methods);
	for (guint i = 0; has_keys && desc->config_keys[i].group != NULL; i++) {
		const JoindConfigKey *key = &desc->config_keys[i];
		g_autofree gchar *name = g_strconcat(key->group, "/", key->key, NULL);

		g_key_file_set_string(kf, GROUP_CONFIG, name,
		                      key->type < G_N_ELEMENTS(config_types)
		                              ? config_types[key->type]
		                              : "unknown");
	}
	return kf;
}

void
joind_plugin_manifest_free(JoindPluginManifest *manifest)
{
	if (manifest == NULL)
		return;
	g_free(manifest->path);
	g_free(manifest->name);
	g_free(manifest->description);
	g_array_unref(manifest->eap_methods);
	g_key_file_unref(manifest->keyfile);
	g_free(manifest);
}

static void
method_clear(gpointer data)
{
	g_free(((JoindPluginManifestMethod *)data)->name);
}

static gboolean
manifest_read_methods(JoindPluginManifest *m, GError **error)
{
	g_auto(GStrv) names =
	        g_key_file_get_string_list(m->keyfile, GROUP_PLUGIN, "EapMethods", NULL, NULL);

	for (guint i = 0; names != NULL && names[i] != NULL; i++) {
		g_autofree gchar *group = g_strconcat(METHOD_GROUP, names[i], NULL);
		g_autoptr(GError) local = NULL;
		gint type = g_key_file_get_integer(m->keyfile, group, "Type", &local);
		JoindPluginManifestMethod *method;

		if (local != NULL || type <= JOIND_EAP_TYPE_NAK ||
		    type >= JOIND_EAP_TYPE_EXPANDED) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "%s: [%s] Type is not an EAP method type", m->path, group);
			return FALSE;
		}
		g_array_set_size(m->eap_methods, m->eap_methods->len + 1);
		method = &g_array_index(m->eap_methods, JoindPluginManifestMethod,
		                        m->eap_methods->len - 1);
		method->name = g_strdup(names[i]);
		method->type = (guint8)type;
	}
	return TRUE;
}

JoindPluginManifest *
joind_plugin_manifest_load(const gchar *path, GError **error)
{
	g_autoptr(JoindPluginManifest) m = g_new0(JoindPluginManifest, 1);
	g_autoptr(GError) local = NULL;
	g_autofree gchar *load = NULL;

	m->path = g_strdup(path);
	m->keyfile = g_key_file_new();
	m->eap_methods = g_array_new(FALSE, FALSE, sizeof(JoindPluginManifestMethod));
	g_array_set_clear_func(m->eap_methods, method_clear);
	if (!g_key_file_load_from_file(m->keyfile, path, G_KEY_FILE_NONE, &local) ||
	    (m->name = g_key_file_get_string(m->keyfile, GROUP_PLUGIN, "Name", &local)) == NULL ||
	    (load = g_key_file_get_string(m->keyfile, GROUP_PLUGIN, "Load", &local)) == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s: %s", path,
		            local->message);
		return NULL;
	}
	m->description = g_key_file_get_string(m->keyfile, GROUP_PLUGIN, "Description", NULL);
	if (m->description == NULL)
		m->description = g_strdup("");
	m->priority = g_key_file_get_integer(m->keyfile, GROUP_PLUGIN, "Priority", NULL);
	m->on_demand = g_str_equal(load, "on-demand");
	if (!manifest_read_methods(m, error))
		return NULL;
	if (m->on_demand && m->eap_methods->len == 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: Load=on-demand, but it names no EAP method to open it for", path);
		return NULL;
	}
	return g_steal_pointer(&m);
}

/* The first key of a that b lacks or holds differently, in a sentence. */
static gboolean
keyfile_covers(GKeyFile *a, GKeyFile *b, const gchar *a_says, const gchar *b_says, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(a, NULL);

	for (guint g = 0; groups[g] != NULL; g++) {
		g_auto(GStrv) keys = g_key_file_get_keys(a, groups[g], NULL, NULL);

		for (guint k = 0; keys != NULL && keys[k] != NULL; k++) {
			g_autofree gchar *va = g_key_file_get_value(a, groups[g], keys[k], NULL);
			g_autofree gchar *vb = g_key_file_get_value(b, groups[g], keys[k], NULL);

			if (g_strcmp0(va, vb) == 0)
				continue;
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
			            "%s [%s] %s=%s, %s %s", a_says, groups[g], keys[k], va, b_says,
			            vb != NULL ? vb : "nothing of the kind");
			return FALSE;
		}
	}
	return TRUE;
}

gboolean
joind_plugin_manifest_matches(const JoindPluginManifest *manifest,
                              const JoindPluginDescriptor *desc, GError **error)
{
	g_autoptr(GKeyFile) module = joind_plugin_manifest_from_descriptor(desc);
	g_autofree gchar *says = g_strdup_printf("its manifest %s says", manifest->path);
	g_autoptr(GError) local = NULL;

	if (keyfile_covers(manifest->keyfile, module, says, "the module says", &local) &&
	    keyfile_covers(module, manifest->keyfile, "the module says", "its manifest has",
	                   &local))
		return TRUE;
	g_set_error(error, local->domain, local->code,
	            "%s (the manifest and the module come from different builds)", local->message);
	return FALSE;
}
