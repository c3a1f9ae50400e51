/* joind-core-internal.h - the core object's fields, for the files that
 * make up JoindCore: joind-core.c (the object, its devices and its life
 * cycle), joind-core-diagnostics.c (Daemon1.GetDiagnostics) and
 * joind-core-services.c (what the core lends plugins through core/api/).
 */
#pragma once

#include "joind-agent-manager.h"
#include "joind-config.h"
#include "joind-core-private.h"
#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-dbus-known.h"
#include "joind-dbus-managed.h"
#include "joind-dbus-profile.h"
#include "joind-known-state.h"
#include "joind-plugin-loader.h"
#include "joind-profile-store.h"

G_BEGIN_DECLS

struct _JoindCore {
	GObject parent_instance;
	JoindCoreOptions options; /* strings owned below */
	gchar *config_path;
	gchar *state_dir;
	gchar *plugin_dir;
	gchar *enable_plugins;
	gchar *disable_plugins;
	JoindConfig *config;
	JoindProfileStore *profiles;
	JoindKnownState *known;
	JoindDBusKnown *known_export;     /* KnownNetwork1 objects */
	JoindDBusProfile *profile_export; /* ProfileManager1 */
	JoindPluginLoader *plugins;
	GDBusConnection *bus;
	guint caller_watch; /* its filter asking for each new client's uid */
	GDBusObjectManagerServer *manager;
	JoindDBusManaged *managed; /* its GetManagedObjects, and device objects */
	JoindDBusDaemon1 *daemon_iface;
	JoindDBusAgentManager1 *agent_iface;
	JoindAgentManager *agents;
	GHashTable *devices; /* ifindex -> JoindDevice */
	gboolean started;
	gboolean devices_started; /* the device plugins, once the name is owned */
	GPtrArray *declared;      /* joind_core_list_config(): the tables declared, in order */
};

/* Daemon1.GetDiagnostics(), answered once every device's part is in. */
void joind_core_get_diagnostics(JoindDBusCall *call, gpointer self, gpointer data);

G_END_DECLS
