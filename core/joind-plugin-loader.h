/* joind-plugin-loader.h - finding, checking and starting plugin modules. */
#pragma once

#include <gmodule.h>

#include "joind-plugin-manifest.h"
#include "joind-plugin.h"

G_BEGIN_DECLS

typedef struct _JoindPluginLoader JoindPluginLoader;

typedef enum {
	JOIND_PLUGIN_STATE_LOADED,    /* init succeeded; module resident */
	JOIND_PLUGIN_STATE_DISABLED,  /* excluded by --plugins/--noplugin */
	JOIND_PLUGIN_STATE_FAILED,    /* init returned an error */
	JOIND_PLUGIN_STATE_REFUSED,   /* not a usable plugin (ABI, symbol, name, manifest) */
	JOIND_PLUGIN_STATE_AVAILABLE, /* known from its manifest; opened on first use */
} JoindPluginState;

typedef struct {
	gchar *name; /* descriptor name, or the file name when refused early */
	gchar *description;
	gchar *path;
	JoindPluginState state;
	gchar *detail; /* a sentence: why refused/failed/disabled */
	gint priority;
	const JoindPluginDescriptor *descriptor; /* NULL unless usable */
	gboolean started;                        /* init() has run */
	gboolean declared;                       /* its main.conf keys are declared */
	GModule *module;                         /* NULL until opened */
	JoindPluginManifest *manifest;           /* NULL: the module has none */
	const JoindProfileKey *profile_keys;     /* declared (its manifest's or descriptor's) */
	JoindPluginLoader *loader;
} JoindPluginInfo;

JoindPluginLoader *joind_plugin_loader_new(void);
void joind_plugin_loader_free(JoindPluginLoader *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindPluginLoader, joind_plugin_loader_free)

/* Called after a plugin was opened on demand (its state changed). */
void joind_plugin_loader_set_changed_func(JoindPluginLoader *self, GFunc func, gpointer data);

/* enable/disable: comma-separated name globs (--plugins / --noplugin), or
 * NULL. For every *.so in dir: with a manifest beside it, reads that; a
 * plugin opened on demand (EAP methods only) is left closed, its methods
 * declared to the EAP registry, one opened with a radio or when enabled is
 * left for joind_plugin_loader_init_upto(), and a disabled one is never
 * opened. Others are opened, their descriptor checked (and compared with
 * the manifest). */
void joind_plugin_loader_scan(JoindPluginLoader *self, const gchar *dir, const gchar *enable,
                              const gchar *disable);
/* Runs init() of every opened plugin whose priority is at most max_priority
 * and that has not been started yet, lowest priority first (G_MAXINT: all
 * the rest), declaring its main.conf keys first. A plugin opened with a
 * radio or when main.conf enables it gets its keys declared from its
 * manifest, and is opened and started now if that holds already, else
 * later. core is also the one that plugins opened later start with. */
void joind_plugin_loader_init_upto(JoindPluginLoader *self, JoindCore *core, gint max_priority);
/* main.conf was read again: opens the plugins it now enables. */
void joind_plugin_loader_config_changed(JoindPluginLoader *self);
/* Runs shutdown() of loaded plugins in reverse order. */
void joind_plugin_loader_shutdown_all(JoindPluginLoader *self, JoindCore *core);
/* Element type JoindPluginInfo, in init order; owned by the loader. */
GPtrArray *joind_plugin_loader_get_plugins(JoindPluginLoader *self);

const gchar *joind_plugin_state_to_string(JoindPluginState state);
/* Checks a descriptor read from a module; exposed for unit tests. */
gboolean joind_plugin_descriptor_check(const JoindPluginDescriptor *desc, GError **error);

G_END_DECLS
