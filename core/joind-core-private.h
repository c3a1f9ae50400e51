/* joind-core-private.h - what the daemon's main() does with the core.
 *
 * These entry points are exported from libjoind for the joind executable
 * only; they are not part of the plugin ABI (core/api/), and plugins must
 * not include this header.
 */
#pragma once

#include "joind-core.h"

G_BEGIN_DECLS

typedef struct {
	const gchar *config_path;
	const gchar *state_dir;
	const gchar *plugin_dir;
	const gchar *enable_plugins;  /* --plugins, NULL for all */
	const gchar *disable_plugins; /* --noplugin */
} JoindCoreOptions;

/* Reads the configuration; fails only when main.conf cannot be parsed at
 * all (bad keys/values are reported and defaulted). */
JOIND_EXPORT JoindCore *joind_core_new(const JoindCoreOptions *options, GError **error);
/* Exports the object tree on bus, starts the EAP method plugins and loads
 * the profiles: what clients find as soon as the name is owned. */
JOIND_EXPORT gboolean joind_core_start(JoindCore *self, GDBusConnection *bus, GError **error);
/* Starts the plugins that serve devices (radios, ports, front ends). Call
 * once the bus name is owned: a joind that cannot own it (another one
 * runs) then exits without having touched a radio or a port, and the name
 * appears without waiting for the hardware, whose objects clients learn
 * of through InterfacesAdded as they do of a device plugged in later. */
JOIND_EXPORT void joind_core_start_devices(JoindCore *self);
/* SIGHUP: re-read main.conf and every profile. */
JOIND_EXPORT void joind_core_reload(JoindCore *self);
/* Stops plugins (after "shutting-down"), releases agents, unexports. */
JOIND_EXPORT void joind_core_shutdown(JoindCore *self);

/* The main.conf keys every plugin declares, for joind.conf(5): loads the
 * plugins and runs each init() only up to its joind_core_declare_config()
 * (which fails then), so no plugin touches the system. Call instead of
 * joind_core_start(). Element type JoindConfigDeclaration, valid as long as
 * self. */
typedef struct {
	const gchar *plugin;
	const JoindConfigKey *keys; /* ends with an entry whose group is NULL */
} JoindConfigDeclaration;

#define JOIND_CORE_LISTING_CONFIG "only listing the main.conf keys plugins declare"

JOIND_EXPORT GPtrArray *joind_core_list_config(JoindCore *self);

G_END_DECLS
