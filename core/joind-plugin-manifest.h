/* joind-plugin-manifest.h - what a plugin provides, read without opening it.
 *
 * joind-<name>.plugin beside joind-<name>.so is a keyfile the build writes
 * from the built module's descriptor (joind-plugin-manifest-tool.c): name,
 * description, ABI, priority, when to open it, its EAP methods and its
 * main.conf keys (type, default, range, choices). The daemon reads it at start; when it
 * opens the module, the descriptor must say the same, field for field.
 */
#pragma once

#include <glib.h>

#include "joind-plugin.h"

G_BEGIN_DECLS

typedef struct {
	gchar *name;
	guint8 type;
} JoindPluginManifestMethod;

/* When the module is opened: [Plugin] Load=. */
typedef enum {
	JOIND_PLUGIN_LOAD_START,        /* start */
	JOIND_PLUGIN_LOAD_ON_DEMAND,    /* on-demand: a profile first names an EAP method */
	JOIND_PLUGIN_LOAD_WITH_RADIO,   /* with-radio: the machine has a wiphy */
	JOIND_PLUGIN_LOAD_WHEN_ENABLED, /* when-enabled: main.conf turns EnabledBy= on */
} JoindPluginLoad;

typedef struct {
	gchar *path;
	gchar *name;
	gchar *description;
	gint priority;
	JoindPluginLoad load;
	GArray *eap_methods; /* JoindPluginManifestMethod */
	/* The main.conf keys, declared from here so that the module may stay
	 * closed: a table ended by a NULL group, or NULL. */
	JoindConfigKey *config_keys;
	const JoindConfigKey *enabled_by; /* JOIND_PLUGIN_LOAD_WHEN_ENABLED: a bool key */
	/* The profile keys it owns ([Profile]): a table ended by a NULL
	 * group, or NULL. */
	JoindProfileKey *profile_keys;
	GPtrArray *strings; /* GStrv the keys' fields point into */
	GKeyFile *keyfile;  /* while it is read */
	gchar *text;        /* as read, for the comparison with the module */
} JoindPluginManifest;

/* "dir/joind-x.so" -> "dir/joind-x.plugin" */
gchar *joind_plugin_manifest_path(const gchar *module_path);
/* The manifest of a descriptor that passed joind_plugin_descriptor_check(). */
GKeyFile *joind_plugin_manifest_from_descriptor(const JoindPluginDescriptor *desc);
/* Reads and checks the shape of a manifest; errors name the file. */
JoindPluginManifest *joind_plugin_manifest_load(const gchar *path, GError **error);
void joind_plugin_manifest_free(JoindPluginManifest *manifest);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindPluginManifest, joind_plugin_manifest_free)
/* Whether desc says what the manifest says; the error names the first
 * difference, in a sentence. */
gboolean joind_plugin_manifest_matches(const JoindPluginManifest *manifest,
                                       const JoindPluginDescriptor *desc, GError **error);

G_END_DECLS
