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
#include "joind-profile-keys.h"

#define GROUP_PLUGIN  "Plugin"
#define GROUP_CONFIG  "Config"
#define GROUP_PROFILE "Profile"
#define METHOD_GROUP  "EAP-Method "

static const gchar *const config_types[] = {
        [JOIND_CONFIG_BOOL] = "bool",
        [JOIND_CONFIG_INT] = "int",
        [JOIND_CONFIG_STRING] = "string",
        [JOIND_CONFIG_STRV] = "strv",
};
G_STATIC_ASSERT(G_N_ELEMENTS(config_types) == JOIND_CONFIG_LAST + 1);

static const gchar *const profile_key_types[] = {
        [JOIND_PROFILE_KEY_BOOL] = "bool",
        [JOIND_PROFILE_KEY_WORDS] = "words",
        [JOIND_PROFILE_KEY_UNICAST_ADDRESS] = "unicast-address",
        [JOIND_PROFILE_KEY_PASSPHRASE] = "passphrase",
        [JOIND_PROFILE_KEY_HEX256] = "hex256",
        [JOIND_PROFILE_KEY_TEXT] = "text",
};
G_STATIC_ASSERT(G_N_ELEMENTS(profile_key_types) == JOIND_PROFILE_KEY_LAST + 1);

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

static const gchar *
manifest_load_value(const JoindPluginDescriptor *desc)
{
	gboolean has_methods = desc->eap_methods != NULL && desc->eap_methods[0] != NULL;

	if ((desc->flags & JOIND_PLUGIN_FLAG_OPEN_WITH_RADIO) != 0)
		return "with-radio";
	if ((desc->flags & JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED) != 0)
		return "when-enabled";
	/* An EAP method plugin waits for a profile that names one of its
	 * methods; its main.conf keys are declared from the manifest at start,
	 * so main.conf is checked and the keys read without the module. */
	return has_methods ? "on-demand" : "start";
}

/* [Config] Group/Key=type;default;min;max;choice;... */
static void
manifest_add_key(GKeyFile *kf, const JoindConfigKey *key)
{
	g_autofree gchar *name = g_strconcat(key->group, "/", key->key, NULL);
	g_autofree gchar *min = g_strdup_printf("%d", key->min);
	g_autofree gchar *max = g_strdup_printf("%d", key->max);
	g_autoptr(GPtrArray) spec = g_ptr_array_new();

	g_ptr_array_add(spec,
	                (gpointer)(key->type < G_N_ELEMENTS(config_types) ? config_types[key->type]
	                                                                  : "unknown"));
	g_ptr_array_add(spec, (gpointer)(key->default_value != NULL ? key->default_value : ""));
	g_ptr_array_add(spec, min);
	g_ptr_array_add(spec, max);
	for (guint i = 0; key->choices != NULL && key->choices[i] != NULL; i++)
		g_ptr_array_add(spec, (gpointer)key->choices[i]);
	g_key_file_set_string_list(kf, GROUP_CONFIG, name, (const gchar *const *)spec->pdata,
	                           spec->len);
}

/* [Profile] Group/Key=type;profile types;what;choice;... */
static void
manifest_add_profile_key(GKeyFile *kf, const JoindProfileKey *key)
{
	g_autofree gchar *name = g_strconcat(key->group, "/", key->key, NULL);
	g_autoptr(GPtrArray) types = g_ptr_array_new();
	g_autoptr(GPtrArray) spec = g_ptr_array_new();
	g_autofree gchar *profiles = NULL;

	for (guint t = 0; joind_profile_keys_type_name(t) != NULL; t++) {
		if ((key->profiles & JOIND_PROFILE_KEY_IN(t)) != 0)
			g_ptr_array_add(types, (gpointer)joind_profile_keys_type_name(t));
	}
	g_ptr_array_add(types, NULL);
	profiles = g_strjoinv(",", (gchar **)types->pdata);
	g_ptr_array_add(spec, (gpointer)(key->type <= JOIND_PROFILE_KEY_LAST
	                                         ? profile_key_types[key->type]
	                                         : "unknown"));
	g_ptr_array_add(spec, profiles);
	g_ptr_array_add(spec, (gpointer)(key->what != NULL ? key->what : ""));
	for (guint i = 0; key->choices != NULL && key->choices[i] != NULL; i++)
		g_ptr_array_add(spec, (gpointer)key->choices[i]);
	g_key_file_set_string_list(kf, GROUP_PROFILE, name, (const gchar *const *)spec->pdata,
	                           spec->len);
}

GKeyFile *
joind_plugin_manifest_from_descriptor(const JoindPluginDescriptor *desc)
{
	GKeyFile *kf = g_key_file_new();
	g_autofree gchar *abi = g_strdup_printf("%u.%u", desc->abi_major, desc->abi_minor);
	gboolean has_keys = desc->config_keys != NULL && desc->config_keys[0].group != NULL;

	g_key_file_set_string(kf, GROUP_PLUGIN, "Name", desc->name);
	g_key_file_set_string(kf, GROUP_PLUGIN, "Description",
	                      desc->description != NULL ? desc->description : "");
	g_key_file_set_string(kf, GROUP_PLUGIN, "ABI", abi);
	g_key_file_set_integer(kf, GROUP_PLUGIN, "Priority", desc->priority);
	g_key_file_set_string(kf, GROUP_PLUGIN, "Load", manifest_load_value(desc));
	if ((desc->flags & JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED) != 0 && has_keys) {
		g_autofree gchar *key = g_strconcat(desc->config_keys[0].group, "/",
		                                    desc->config_keys[0].key, NULL);

		g_key_file_set_string(kf, GROUP_PLUGIN, "EnabledBy", key);
	}
	manifest_add_methods(kf, desc->eap_methods);
	for (guint i = 0; has_keys && desc->config_keys[i].group != NULL; i++)
		manifest_add_key(kf, &desc->config_keys[i]);
	for (guint i = 0; desc->profile_keys != NULL && desc->profile_keys[i].group != NULL; i++)
		manifest_add_profile_key(kf, &desc->profile_keys[i]);
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
	g_free(manifest->config_keys);
	g_free(manifest->profile_keys);
	g_clear_pointer(&manifest->strings, g_ptr_array_unref);
	g_clear_pointer(&manifest->keyfile, g_key_file_unref);
	g_free(manifest->text);
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

/* One [Config] entry, as manifest_add_key() writes it, into key. */
static gboolean
manifest_read_key(JoindPluginManifest *m, const gchar *name, JoindConfigKey *key)
{
	gchar **names = g_strsplit(name, "/", 2);
	gsize n = 0;
	gchar **spec = g_key_file_get_string_list(m->keyfile, GROUP_CONFIG, name, &n, NULL);
	gint64 min = 0, max = 0;
	guint type = 0;

	g_ptr_array_add(m->strings, names);
	if (spec == NULL)
		return FALSE;
	g_ptr_array_add(m->strings, spec);
	while (type < G_N_ELEMENTS(config_types) && n > 0 &&
	       !g_str_equal(spec[0], config_types[type]))
		type++;
	if (names[1] == NULL || n < 4 || type == G_N_ELEMENTS(config_types) ||
	    !g_ascii_string_to_signed(spec[2], 10, G_MININT, G_MAXINT, &min, NULL) ||
	    !g_ascii_string_to_signed(spec[3], 10, G_MININT, G_MAXINT, &max, NULL))
		return FALSE;
	*key = (JoindConfigKey){
	        .group = names[0],
	        .key = names[1],
	        .type = type,
	        .default_value = spec[1],
	        .min = (gint)min,
	        .max = (gint)max,
	        .choices = n > 4 ? (const gchar *const *)spec + 4 : NULL,
	};
	return TRUE;
}

static gboolean
manifest_read_config(JoindPluginManifest *m, GError **error)
{
	gsize n = 0;
	g_auto(GStrv) names = g_key_file_get_keys(m->keyfile, GROUP_CONFIG, &n, NULL);

	if (names == NULL || n == 0)
		return TRUE;
	m->config_keys = g_new0(JoindConfigKey, n + 1);
	for (gsize i = 0; i < n; i++) {
		if (!manifest_read_key(m, names[i], &m->config_keys[i])) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "%s: [Config] %s is not Group/Key=type;default;min;max;choices",
			            m->path, names[i]);
			return FALSE;
		}
	}
	return TRUE;
}

/* "psk,open" -> JOIND_PROFILE_KEY_IN() bits; 0 when a name is unknown. */
static guint32
manifest_profile_types(const gchar *text)
{
	g_auto(GStrv) names = g_strsplit(text, ",", -1);
	guint32 bits = 0;

	for (guint i = 0; names[i] != NULL; i++) {
		guint t = 0;

		while (joind_profile_keys_type_name(t) != NULL &&
		       !g_str_equal(names[i], joind_profile_keys_type_name(t)))
			t++;
		if (joind_profile_keys_type_name(t) == NULL)
			return 0;
		bits |= JOIND_PROFILE_KEY_IN(t);
	}
	return bits;
}

/* One [Profile] entry, as manifest_add_profile_key() writes it, into key. */
static gboolean
manifest_read_profile_key(JoindPluginManifest *m, const gchar *name, JoindProfileKey *key)
{
	gchar **names = g_strsplit(name, "/", 2);
	gsize n = 0;
	gchar **spec = g_key_file_get_string_list(m->keyfile, GROUP_PROFILE, name, &n, NULL);
	guint type = 0;

	g_ptr_array_add(m->strings, names);
	if (spec == NULL)
		return FALSE;
	g_ptr_array_add(m->strings, spec);
	while (type <= JOIND_PROFILE_KEY_LAST && n > 0 &&
	       !g_str_equal(spec[0], profile_key_types[type]))
		type++;
	if (names[1] == NULL || n < 3 || type > JOIND_PROFILE_KEY_LAST)
		return FALSE;
	*key = (JoindProfileKey){
	        .profiles = manifest_profile_types(spec[1]),
	        .group = names[0],
	        .key = names[1],
	        .type = type,
	        .what = spec[2],
	        .choices = n > 3 ? (const gchar *const *)spec + 3 : NULL,
	};
	return key->profiles != 0;
}

static gboolean
manifest_read_profile_keys(JoindPluginManifest *m, GError **error)
{
	gsize n = 0;
	g_auto(GStrv) names = g_key_file_get_keys(m->keyfile, GROUP_PROFILE, &n, NULL);

	if (names == NULL || n == 0)
		return TRUE;
	m->profile_keys = g_new0(JoindProfileKey, n + 1);
	for (gsize i = 0; i < n; i++) {
		if (!manifest_read_profile_key(m, names[i], &m->profile_keys[i]))
			return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
			                       "%s: [Profile] %s is not "
			                       "Group/Key=type;profile types;what;choices",
			                       m->path, names[i]);
	}
	return TRUE;
}

/* Load=when-enabled: EnabledBy= names one of its bool keys. */
static gboolean
manifest_read_enabled_by(JoindPluginManifest *m, GError **error)
{
	g_autofree gchar *by = g_key_file_get_string(m->keyfile, GROUP_PLUGIN, "EnabledBy", NULL);

	for (JoindConfigKey *k = m->config_keys; by != NULL && k != NULL && k->group != NULL; k++) {
		g_autofree gchar *name = g_strconcat(k->group, "/", k->key, NULL);

		if (k->type == JOIND_CONFIG_BOOL && g_str_equal(name, by)) {
			m->enabled_by = k;
			return TRUE;
		}
	}
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
	            "%s: Load=when-enabled, but EnabledBy= names none of its bool keys", m->path);
	return FALSE;
}

static gboolean
manifest_read_load(JoindPluginManifest *m, const gchar *load, GError **error)
{
	static const gchar *const values[] = {
	        [JOIND_PLUGIN_LOAD_START] = "start",
	        [JOIND_PLUGIN_LOAD_ON_DEMAND] = "on-demand",
	        [JOIND_PLUGIN_LOAD_WITH_RADIO] = "with-radio",
	        [JOIND_PLUGIN_LOAD_WHEN_ENABLED] = "when-enabled",
	};

	for (guint i = 0; i < G_N_ELEMENTS(values); i++) {
		if (g_str_equal(load, values[i])) {
			m->load = i;
			return TRUE;
		}
	}
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
	            "%s: Load=%s is none of start, on-demand, with-radio, when-enabled", m->path,
	            load);
	return FALSE;
}

/* What Load= needs besides itself. */
static gboolean
manifest_check_load(JoindPluginManifest *m, GError **error)
{
	if (m->load == JOIND_PLUGIN_LOAD_ON_DEMAND && m->eap_methods->len == 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: Load=on-demand, but it names no EAP method to open it for",
		            m->path);
		return FALSE;
	}
	return m->load != JOIND_PLUGIN_LOAD_WHEN_ENABLED || manifest_read_enabled_by(m, error);
}

JoindPluginManifest *
joind_plugin_manifest_load(const gchar *path, GError **error)
{
	g_autoptr(JoindPluginManifest) m = g_new0(JoindPluginManifest, 1);
	g_autoptr(GError) local = NULL;
	g_autofree gchar *load = NULL;

	m->path = g_strdup(path);
	m->keyfile = g_key_file_new();
	m->strings = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	m->eap_methods = g_array_new(FALSE, FALSE, sizeof(JoindPluginManifestMethod));
	g_array_set_clear_func(m->eap_methods, method_clear);
	if (!g_file_get_contents(path, &m->text, NULL, &local) ||
	    !g_key_file_load_from_data(m->keyfile, m->text, -1, G_KEY_FILE_NONE, &local) ||
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
	if (!manifest_read_load(m, load, error) || !manifest_read_methods(m, error) ||
	    !manifest_read_config(m, error) || !manifest_read_profile_keys(m, error) ||
	    !manifest_check_load(m, error))
		return NULL;
	/* A parsed keyfile costs several times its text (bench/footprint):
	 * the comparison parses the text again, once. */
	g_clear_pointer(&m->keyfile, g_key_file_unref);
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
	g_autoptr(GKeyFile) read = g_key_file_new();
	g_autofree gchar *says = g_strdup_printf("its manifest %s says", manifest->path);
	g_autoptr(GError) local = NULL;

	/* It parsed at start. */
	g_key_file_load_from_data(read, manifest->text, -1, G_KEY_FILE_NONE, NULL);
	if (keyfile_covers(read, module, says, "the module says", &local) &&
	    keyfile_covers(module, read, "the module says", "its manifest has", &local))
		return TRUE;
	g_set_error(error, local->domain, local->code,
	            "%s (the manifest and the module come from different builds)", local->message);
	return FALSE;
}
