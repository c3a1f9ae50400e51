/* test-plugin-loader.c - the daemon with good, refused and failing plugins,
 * and the manifests (plugins/README.md): a plugin with a manifest that only
 * provides EAP methods is opened when a profile first names one of them, a
 * radio plugin when the kernel announces a radio, an enabled-by plugin when
 * main.conf enables it, a disabled one is never opened, and a module that
 * says something else than its manifest is refused with a sentence saying
 * what differs. */
#include <glib/gstdio.h>
#include <linux/netlink.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "test-daemon.h"

static GVariant *
get_plugins(TestDaemon *d)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
	        d->conn, "net.joind", "/net/joind", "org.freedesktop.DBus.Properties", "Get",
	        g_variant_new("(ss)", "net.joind.Daemon1", "Plugins"), G_VARIANT_TYPE("(v)"),
	        G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	GVariant *value = NULL;

	g_assert_no_error(error);
	g_variant_get(reply, "(v)", &value);
	return value;
}

/* State and detail of the named plugin in Daemon1.Plugins. */
static gboolean
find_plugin(GVariant *plugins, const gchar *name, gchar **state, gchar **detail)
{
	GVariantIter iter;
	const gchar *n, *desc, *s, *det;

	g_variant_iter_init(&iter, plugins);
	while (g_variant_iter_next(&iter, "(&s&s&s&s)", &n, &desc, &s, &det)) {
		if (g_str_equal(n, name)) {
			*state = g_strdup(s);
			*detail = g_strdup(det);
			return TRUE;
		}
	}
	return FALSE;
}

static void
assert_plugin(GVariant *plugins, const gchar *name, const gchar *state, const gchar *detail)
{
	g_autofree gchar *s = NULL;
	g_autofree gchar *det = NULL;

	if (!find_plugin(plugins, name, &s, &det))
		g_error("plugin %s not listed in Daemon1.Plugins", name);
	g_assert_cmpstr(s, ==, state);
	if (detail != NULL && strstr(det, detail) == NULL)
		g_error("plugin %s: detail “%s” lacks “%s”", name, det, detail);
}

/* The state of the named plugin, as Daemon1.Plugins lists it now. */
static gchar *
plugin_state(TestDaemon *d, const gchar *name, gchar **detail)
{
	g_autoptr(GVariant) plugins = get_plugins(d);
	gchar *state = NULL;
	g_autofree gchar *det = NULL;

	if (!find_plugin(plugins, name, &state, &det))
		g_error("plugin %s not listed in Daemon1.Plugins", name);
	if (detail != NULL)
		*detail = g_steal_pointer(&det);
	return state;
}

/* Whether the daemon process has the module mapped. */
static gboolean
module_mapped(TestDaemon *d, const gchar *module)
{
	g_autofree gchar *path =
	        g_strdup_printf("/proc/%s/maps", g_subprocess_get_identifier(d->proc));
	g_autofree gchar *maps = NULL;
	g_autofree gchar *needle = g_strconcat("/", module, "\n", NULL);

	g_assert_true(g_file_get_contents(path, &maps, NULL, NULL));
	return strstr(maps, needle) != NULL;
}

typedef struct {
	TestDaemon *d;
	const gchar *name;
} PluginWait;

static gboolean
plugin_left_available(gpointer data)
{
	PluginWait *w = data;
	g_autofree gchar *state = plugin_state(w->d, w->name, NULL);

	return !g_str_equal(state, "available");
}

static void
wait_until_opened(TestDaemon *d, const gchar *name)
{
	PluginWait w = {d, name};

	g_assert_true(test_wait_until(plugin_left_available, &w, 10000));
}

/* A profile naming the test plugin's method, read as SIGHUP reads it; waits
 * until the plugin is no longer "available". */
static void
add_profile_naming_testlazy(TestDaemon *d)
{
	g_autofree gchar *path = g_build_filename(d->state_dir, "lazy.8021x", NULL);
	PluginWait w = {d, "test-eap"};

	g_assert_true(g_file_set_contents(path, "[Security]\nEAP-Method=TESTLAZY\n", -1, NULL));
	g_chmod(path, 0600);
	g_subprocess_send_signal(d->proc, SIGHUP);
	g_assert_true(test_wait_until(plugin_left_available, &w, 10000));
}

/* What the kernel multicasts when a wiphy is registered, as a root process
 * of this network namespace can send it too. */
static void
announce_radio(void)
{
	static const gchar msg[] = "add@/devices/virtual/ieee80211/phy99\0ACTION=add\0"
	                           "DEVPATH=/devices/virtual/ieee80211/phy99\0"
	                           "SUBSYSTEM=ieee80211\0";
	struct sockaddr_nl to = {.nl_family = AF_NETLINK, .nl_groups = 1};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(sendto(fd, msg, sizeof(msg), 0, (struct sockaddr *)&to, sizeof(to)), ==,
	                sizeof(msg));
	close(fd);
}

typedef struct {
	TestDaemon *d;
	const gchar *text;
} LogWait;

static gboolean
log_has(gpointer data)
{
	LogWait *w = data;
	g_autofree gchar *log = test_daemon_get_log(w->d);

	return strstr(log, w->text) != NULL;
}

/* A profile with a bad value of the closed module's profile key is
 * refused by the rule its manifest declared. */
static void
check_profile_key_while_closed(TestDaemon *d)
{
	g_autofree gchar *path = g_build_filename(d->state_dir, "keys.open", NULL);
	LogWait w = {d, "TestRadioFlag: “maybe” is not a boolean"};

	g_assert_true(g_file_set_contents(path, "[Settings]\nTestRadioFlag=maybe\n", -1, NULL));
	g_subprocess_send_signal(d->proc, SIGHUP);
	g_assert_true(test_wait_until(log_has, &w, 10000));
	g_assert_false(module_mapped(d, "joind-test-radio.so"));
}

/* In a network namespace of its own (no radio in its /sys, and the
 * announcement reaches no other process): closed until a radio is
 * announced (its profile keys checked all the same), then opened and
 * started. */
static void
with_radio_in_netns(void)
{
	TestDaemon *d;
	g_autofree gchar *state = NULL;
	g_autofree gchar *log = NULL;

	g_assert_true(test_enter_private_netns());
	d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), NULL);
	state = plugin_state(d, "test-radio", NULL);
	g_assert_cmpstr(state, ==, "available");
	g_assert_false(module_mapped(d, "joind-test-radio.so"));
	check_profile_key_while_closed(d);
	announce_radio();
	wait_until_opened(d, "test-radio");
	g_clear_pointer(&state, g_free);
	state = plugin_state(d, "test-radio", NULL);
	g_assert_cmpstr(state, ==, "loaded");
	g_assert_true(module_mapped(d, "joind-test-radio.so"));
	log = test_daemon_get_log(d);
	g_assert_nonnull(strstr(log, "test plugin test-radio started"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

static void
test_loader_with_radio(void)
{
	if (g_test_subprocess()) {
		with_radio_in_netns();
		return;
	}
	if (geteuid() != 0) {
		g_test_skip("needs root for a network namespace and a uevent");
		return;
	}
	g_test_trap_subprocess(NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
	g_test_trap_assert_passed();
}

static void
write_enabled(const gchar *path, const gchar *value)
{
	g_autofree gchar *text = g_strdup_printf("[TestLazy]\nEnabled=%s\n", value);

	g_assert_true(g_file_set_contents(path, text, -1, NULL));
}

/* Closed while main.conf leaves it off (its key declared from the manifest
 * all the same: no "unknown key" line); opened when SIGHUP reads it on. */
static void
test_loader_when_enabled(void)
{
	g_autofree gchar *conf = NULL;
	g_autofree gchar *arg = NULL;
	g_autofree gchar *detail = NULL;
	g_autofree gchar *state = NULL;
	g_autofree gchar *log = NULL;
	gint fd = g_file_open_tmp("joind-main-XXXXXX.conf", &conf, NULL);
	const gchar *args[] = {NULL, NULL};
	TestDaemon *d;

	g_assert_cmpint(fd, >=, 0);
	close(fd);
	write_enabled(conf, "false");
	args[0] = arg = g_strconcat("--config=", conf, NULL);
	d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), args);
	state = plugin_state(d, "test-enabled", &detail);
	g_assert_cmpstr(state, ==, "available");
	g_assert_nonnull(strstr(detail, "[TestLazy] Enabled=true"));
	g_assert_false(module_mapped(d, "joind-test-enabled.so"));
	write_enabled(conf, "true");
	g_subprocess_send_signal(d->proc, SIGHUP);
	wait_until_opened(d, "test-enabled");
	g_clear_pointer(&state, g_free);
	state = plugin_state(d, "test-enabled", NULL);
	g_assert_cmpstr(state, ==, "loaded");
	g_assert_true(module_mapped(d, "joind-test-enabled.so"));
	log = test_daemon_get_log(d);
	g_assert_null(strstr(log, "TestLazy"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
	g_unlink(conf);
}

static void
test_loader_mixed(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), NULL);
	g_autoptr(GVariant) plugins = get_plugins(d);
	g_autofree gchar *log = test_daemon_get_log(d);

	assert_plugin(plugins, "test-good", "loaded", NULL);
	assert_plugin(plugins, "test-good-early", "loaded", NULL);
	assert_plugin(plugins, "test-init-fails", "failed", "the test plugin refuses to start");
	assert_plugin(plugins, "joind-test-bad-abi.so", "refused", "built for plugin ABI 99");
	/* Manifests: a start plugin is opened, an EAP method plugin is not. */
	g_assert_true(module_mapped(d, "joind-test-good.so"));
	assert_plugin(plugins, "test-eap", "available", "opened when a profile first names");
	g_assert_false(module_mapped(d, "joind-test-eap.so"));
	/* The refusal is in the log with the module's path. */
	g_assert_nonnull(strstr(log, "joind-test-bad-abi.so refused: it was built for plugin ABI"));
	g_assert_nonnull(strstr(log, "plugin test-init-fails failed to start"));
	/* Priority order: the early plugin starts before the other one. */
	g_assert_true(strstr(log, "test plugin test-good-early started") <
	              strstr(log, "test plugin test-good started"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

/* A second joind on the same bus is refused net.joind: it exits 1 having
 * started only what comes before the name (the early plugin, priority 5,
 * with the EAP methods), never a device plugin (test-good, 60). */
static void
test_loader_name_refused(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), NULL);
	g_autoptr(GSubprocessLauncher) launcher =
	        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_NONE);
	g_autoptr(GSubprocess) second = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *joind =
	        g_build_filename(g_getenv("JOIND_BUILD_ROOT"), "core", "joind", NULL);
	g_autofree gchar *plugin_dir =
	        g_strconcat("--plugin-dir=", g_getenv("TEST_PLUGIN_DIR"), NULL);
	g_autofree gchar *state_dir = g_strconcat("--state-dir=", d->state_dir, NULL);
	g_autofree gchar *log_path = g_build_filename(d->state_dir, "second.log", NULL);
	g_autofree gchar *log = NULL;
	g_autoptr(GVariant) plugins = NULL;

	g_subprocess_launcher_setenv(launcher, "DBUS_SESSION_BUS_ADDRESS",
	                             g_test_dbus_get_bus_address(d->bus), TRUE);
	g_subprocess_launcher_set_stderr_file_path(launcher, log_path);
	second = g_subprocess_launcher_spawn(launcher, &error, joind, "--session", "--debug",
	                                     "--config=/dev/null", plugin_dir, state_dir, NULL);
	g_assert_no_error(error);
	g_assert_true(g_subprocess_wait(second, NULL, &error));
	g_assert_no_error(error);
	g_assert_true(g_subprocess_get_if_exited(second));
	g_assert_cmpint(g_subprocess_get_exit_status(second), ==, 1);
	g_assert_true(g_file_get_contents(log_path, &log, NULL, NULL));
	g_assert_nonnull(strstr(log, "could not own net.joind"));
	g_assert_nonnull(strstr(log, "test plugin test-good-early started"));
	g_assert_null(strstr(log, "test plugin test-good started"));
	/* The first one still owns the name and its plugins. */
	plugins = get_plugins(d);
	assert_plugin(plugins, "test-good", "loaded", NULL);
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

static void
test_loader_selection(void)
{
	const gchar *const args[] = {"--plugins=test-*", "--noplugin=test-good-early", NULL};
	TestDaemon *d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), args);
	g_autoptr(GVariant) plugins = get_plugins(d);

	assert_plugin(plugins, "test-good", "loaded", NULL);
	assert_plugin(plugins, "test-good-early", "disabled", NULL);
	/* Known from its manifest, a disabled plugin is never opened. */
	g_assert_false(module_mapped(d, "joind-test-good-early.so"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

/* The EAP method plugin is opened when a profile first names its method. */
static void
test_loader_on_demand(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), NULL);
	g_autofree gchar *detail = NULL;
	g_autofree gchar *state = NULL;

	g_assert_false(module_mapped(d, "joind-test-eap.so"));
	add_profile_naming_testlazy(d);
	state = plugin_state(d, "test-eap", &detail);
	g_assert_cmpstr(state, ==, "loaded");
	g_assert_true(module_mapped(d, "joind-test-eap.so"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

/* Copies a test module and its manifest into dir, the manifest edited. */
static void
copy_plugin(const gchar *dir, const gchar *stem, const gchar *from, const gchar *to)
{
	const gchar *src = g_getenv("TEST_PLUGIN_DIR");
	g_autofree gchar *so = g_strconcat(stem, ".so", NULL);
	g_autofree gchar *plugin = g_strconcat(stem, ".plugin", NULL);
	g_autofree gchar *so_src = g_build_filename(src, so, NULL);
	g_autofree gchar *so_dst = g_build_filename(dir, so, NULL);
	g_autofree gchar *plugin_src = g_build_filename(src, plugin, NULL);
	g_autofree gchar *plugin_dst = g_build_filename(dir, plugin, NULL);
	g_autofree gchar *data = NULL;
	gsize len = 0;
	g_autoptr(GString) manifest = NULL;

	g_assert_true(g_file_get_contents(so_src, &data, &len, NULL));
	g_assert_true(g_file_set_contents(so_dst, data, (gssize)len, NULL));
	g_clear_pointer(&data, g_free);
	g_assert_true(g_file_get_contents(plugin_src, &data, NULL, NULL));
	manifest = g_string_new(data);
	g_assert_cmpuint(g_string_replace(manifest, from, to, 1), ==, 1);
	g_assert_true(g_file_set_contents(plugin_dst, manifest->str, -1, NULL));
}

/* A module that says something else than its manifest is refused, with a
 * sentence naming the difference: at start, or when first used. */
static void
test_loader_manifest_mismatch(void)
{
	g_autofree gchar *dir = g_dir_make_tmp("joind-plugins-XXXXXX", NULL);
	TestDaemon *d;
	g_autofree gchar *detail = NULL;
	g_autofree gchar *state = NULL;
	g_autofree gchar *log = NULL;
	const gchar *files[] = {"joind-test-good.so",  "joind-test-good.plugin",
	                        "joind-test-eap.so",   "joind-test-eap.plugin",
	                        "joind-test-radio.so", "joind-test-radio.plugin"};

	copy_plugin(dir, "joind-test-good", "Priority=60", "Priority=61");
	copy_plugin(dir, "joind-test-eap", "Type=200", "Type=201");
	/* A manifest saying "at start" for a module that waits for a radio. */
	copy_plugin(dir, "joind-test-radio", "Load=with-radio", "Load=start");
	d = test_daemon_start(dir, NULL);
	state = plugin_state(d, "test-radio", &detail);
	g_assert_cmpstr(state, ==, "refused");
	g_assert_nonnull(strstr(detail, "joind-test-radio.plugin says [Plugin] Load=start, the "
	                                "module says with-radio"));
	g_clear_pointer(&state, g_free);
	g_clear_pointer(&detail, g_free);
	state = plugin_state(d, "test-good", &detail);
	g_assert_cmpstr(state, ==, "refused");
	g_assert_nonnull(strstr(detail, "joind-test-good.plugin says [Plugin] Priority=61, the "
	                                "module says 60 (the manifest and the module come from "
	                                "different builds)"));
	g_clear_pointer(&state, g_free);
	g_clear_pointer(&detail, g_free);
	add_profile_naming_testlazy(d);
	state = plugin_state(d, "test-eap", &detail);
	g_assert_cmpstr(state, ==, "refused");
	g_assert_nonnull(strstr(detail, "[EAP-Method TESTLAZY] Type=201, the module says 200"));
	log = test_daemon_get_log(d);
	g_assert_nonnull(strstr(log, "joind-test-eap.so refused: its manifest"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree gchar *path = g_build_filename(dir, files[i], NULL);

		g_unlink(path);
	}
	g_rmdir(dir);
}

static void
test_loader_shipped_plugins(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"), NULL);
	g_autoptr(GVariant) plugins = get_plugins(d);
	GVariantIter iter;
	const gchar *n, *desc, *s, *det;

	/* Every module we ship loads (or fails for a reason of the machine,
	 * never because the module itself is refused). */
	g_assert_cmpuint(g_variant_n_children(plugins), >, 0);
	g_variant_iter_init(&iter, plugins);
	while (g_variant_iter_next(&iter, "(&s&s&s&s)", &n, &desc, &s, &det)) {
		if (g_str_equal(s, "refused"))
			g_error("shipped plugin %s refused: %s", n, det);
	}
	assert_plugin(plugins, "ethernet-8021x", "loaded", NULL);
	/* It declares a main.conf key ([EAP] TPM2TCTI), from its manifest:
	 * still opened on first use. */
	assert_plugin(plugins, "eap-tls", "available",
	              "opened when a profile first names one of its EAP methods");
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/plugin-loader/mixed", test_loader_mixed);
	g_test_add_func("/plugin-loader/selection", test_loader_selection);
	g_test_add_func("/plugin-loader/name-refused", test_loader_name_refused);
	g_test_add_func("/plugin-loader/on-demand", test_loader_on_demand);
	g_test_add_func("/plugin-loader/with-radio", test_loader_with_radio);
	g_test_add_func("/plugin-loader/when-enabled", test_loader_when_enabled);
	g_test_add_func("/plugin-loader/manifest-mismatch", test_loader_manifest_mismatch);
	g_test_add_func("/plugin-loader/shipped", test_loader_shipped_plugins);
	return g_test_run();
}
