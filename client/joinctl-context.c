/* joinctl-context.c - the connection to joind: one ObjectManagerClient (one
 * GetManagedObjects, then signals), object look-ups, method calls that keep
 * the main loop running (so the built-in agent can answer joind while a
 * Connect is pending), and the mapping of errors to exit codes.
 */
#include "config.h"

#include <string.h>

#include "joinctl.h"

G_DEFINE_QUARK(joinctl - error - quark, joinctl_error)

const gchar *
joinctl_bus_label(JoinctlContext *ctx)
{
	return ctx->bus_type == G_BUS_TYPE_SESSION ? _("session") : _("system");
}

gboolean
joinctl_daemon_running(JoinctlContext *ctx)
{
	g_autofree gchar *owner = NULL;

	if (ctx->manager == NULL)
		return FALSE;
	owner = g_dbus_object_manager_client_get_name_owner(
	        G_DBUS_OBJECT_MANAGER_CLIENT(ctx->manager));
	return owner != NULL;
}

static gboolean
is_not_running_error(const GError *error)
{
	g_autofree gchar *name = g_dbus_error_get_remote_error(error);

	if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
		return TRUE;
	return name != NULL && g_str_has_prefix(name, "org.freedesktop.DBus.Error.Spawn.");
}

/* need_daemon: fail with JOINCTL_EXIT_NOT_RUNNING when nobody owns net.joind
 * (after asking the bus to activate it); monitor passes FALSE and waits. */
gboolean
joinctl_context_connect(JoinctlContext *ctx, gboolean need_daemon, GError **error)
{
	g_autoptr(GError) local = NULL;
	GDBusObjectManagerClientFlags flags = G_DBUS_OBJECT_MANAGER_CLIENT_FLAGS_NONE;

	ctx->bus = g_bus_get_sync(ctx->bus_type, NULL, &local);
	if (ctx->bus == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_RUNNING,
		            _("cannot connect to the %s bus: %s"), joinctl_bus_label(ctx),
		            local->message);
		return FALSE;
	}
	if (!need_daemon)
		flags = G_DBUS_OBJECT_MANAGER_CLIENT_FLAGS_DO_NOT_AUTO_START;
	ctx->manager = joind_dbus_object_manager_client_new_sync(ctx->bus, flags, JOINCTL_BUS_NAME,
	                                                         JOINCTL_ROOT_PATH, NULL, &local);
	if (ctx->manager == NULL) {
		if (is_not_running_error(local)) {
			g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_RUNNING,
			            _("joind is not running (nothing owns %s on the %s bus)"),
			            JOINCTL_BUS_NAME, joinctl_bus_label(ctx));
			return FALSE;
		}
		g_dbus_error_strip_remote_error(local);
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_FAILED,
		            _("cannot read joind's objects: %s"), local->message);
		return FALSE;
	}
	if (need_daemon && !joinctl_daemon_running(ctx)) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_RUNNING,
		            _("joind is not running (nothing owns %s on the %s bus)"),
		            JOINCTL_BUS_NAME, joinctl_bus_label(ctx));
		return FALSE;
	}
	return TRUE;
}

void
joinctl_context_clear(JoinctlContext *ctx)
{
	g_clear_object(&ctx->manager);
	/* Replies already queued (the agent's answer to Release) must go out. */
	if (ctx->bus != NULL)
		g_dbus_connection_flush_sync(ctx->bus, NULL, NULL);
	g_clear_object(&ctx->bus);
	g_clear_object(&ctx->cancellable);
	g_clear_pointer(&ctx->type_filter, g_free);
	g_clear_pointer(&ctx->secrets.passphrase, joinctl_secret_free);
	g_clear_pointer(&ctx->secrets.key_passphrase, joinctl_secret_free);
	g_clear_pointer(&ctx->secrets.username, g_free);
	g_clear_pointer(&ctx->secrets.password, joinctl_secret_free);
	g_clear_pointer(&ctx->profile.passphrase_file, g_free);
	g_clear_pointer(&ctx->profile.passphrase_env, g_free);
	g_clear_pointer(&ctx->profile.embed, g_strfreev);
	g_clear_pointer(&ctx->profile.ssid_hex, g_free);
}

void
joinctl_secret_free(gchar *secret)
{
	if (secret == NULL)
		return;
	explicit_bzero(secret, strlen(secret));
	g_free(secret);
}

static gint
compare_paths(gconstpointer a, gconstpointer b)
{
	const gchar *pa = g_dbus_object_get_object_path(G_DBUS_OBJECT((gpointer)a));
	const gchar *pb = g_dbus_object_get_object_path(G_DBUS_OBJECT((gpointer)b));
	g_autofree gchar *ka = g_utf8_collate_key_for_filename(pa, -1);
	g_autofree gchar *kb = g_utf8_collate_key_for_filename(pb, -1);

	return strcmp(ka, kb);
}

/* All objects, ordered by path with numbers compared as numbers (device/2
 * before device/10); free with g_list_free_full(list, g_object_unref). */
GList *
joinctl_objects_sorted(JoinctlContext *ctx)
{
	return g_list_sort(g_dbus_object_manager_get_objects(ctx->manager), compare_paths);
}

JoindDBusObject *
joinctl_object(JoinctlContext *ctx, const gchar *path)
{
	if (!g_variant_is_object_path(path))
		return NULL;
	return JOIND_DBUS_OBJECT(g_dbus_object_manager_get_object(ctx->manager, path));
}

/* name: an interface name such as "eth0", or a device object path. */
JoindDBusObject *
joinctl_find_device(JoinctlContext *ctx, const gchar *name, GError **error)
{
	g_autolist(GObject) objects = g_dbus_object_manager_get_objects(ctx->manager);

	for (GList *l = objects; l != NULL; l = l->next) {
		JoindDBusObject *object = JOIND_DBUS_OBJECT(l->data);
		JoindDBusDevice1 *device = joind_dbus_object_peek_device1(object);
		const gchar *path = g_dbus_object_get_object_path(G_DBUS_OBJECT(object));

		if (device == NULL)
			continue;
		if (g_strcmp0(joind_dbus_device1_get_name(device), name) == 0 ||
		    g_strcmp0(path, name) == 0)
			return g_object_ref(object);
	}
	g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_FOUND, _("no such device: %s"), name);
	return NULL;
}

gchar *
joinctl_device_name_for_path(JoinctlContext *ctx, const gchar *path)
{
	g_autoptr(JoindDBusObject) object = joinctl_object(ctx, path);
	JoindDBusDevice1 *device = object ? joind_dbus_object_peek_device1(object) : NULL;

	if (device == NULL)
		return NULL;
	return g_strdup(joind_dbus_device1_get_name(device));
}

/* Iterate the main loop until *done; with done == NULL, until interrupted. */
void
joinctl_wait_until(JoinctlContext *ctx, const gboolean *done)
{
	if (done == NULL) {
		while (!g_cancellable_is_cancelled(ctx->cancellable))
			g_main_context_iteration(NULL, TRUE);
		return;
	}
	while (!*done)
		g_main_context_iteration(NULL, TRUE);
}

/* net.joind.Daemon1 at /net/joind. The object manager cannot publish its
 * own path, so joind exports the root interfaces beside it: a plain proxy. */
JoindDBusDaemon1 *
joinctl_daemon_proxy(JoinctlContext *ctx, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(JoindDBusDaemon1) proxy = joind_dbus_daemon1_proxy_new_sync(
	        ctx->bus, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START, JOINCTL_BUS_NAME, JOINCTL_ROOT_PATH,
	        ctx->cancellable, &local);

	if (proxy == NULL || joind_dbus_daemon1_get_version(proxy) == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_SUPPORTED,
		            _("not supported by this daemon (no net.joind.Daemon1 at %s)"),
		            JOINCTL_ROOT_PATH);
		return NULL;
	}
	return g_steal_pointer(&proxy);
}

/* net.joind.AgentManager1 at /net/joind (no properties: a missing interface
 * shows when a call fails with UnknownInterface or UnknownMethod). */
JoindDBusAgentManager1 *
joinctl_agent_manager_proxy(JoinctlContext *ctx, GError **error)
{
	return joind_dbus_agent_manager1_proxy_new_sync(
	        ctx->bus,
	        G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START | G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
	        JOINCTL_BUS_NAME, JOINCTL_ROOT_PATH, ctx->cancellable, error);
}
