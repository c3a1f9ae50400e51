/* test-profile-manager.c - net.joind.ProfileManager1 on the real daemon:
 * create, update, validate, list and delete a profile of each kind; the
 * files are written 0600 and picked up by the store (KnownNetwork1 objects
 * with Source "admin"); a non-UTF-8 SSID; PEM bytes embedded in iwd's form
 * and dropped again; invalid settings refused with the file loader's own
 * sentences; no secret in any reply, in GetDiagnostics or in the daemon's
 * debug log; and `joinctl profile` on top, which takes secrets from a file
 * or the environment but never from its command line. The limits: a
 * profile over 1 MiB is refused before anything is written (an update
 * leaves the file byte for byte), and so are profiles beyond the count and
 * the total size joind manages. Access point profiles (kind ap,
 * ap/<SSID>.ap in iwd's format) are made, listed, changed and deleted the
 * same way, and a key joind's access point does not implement is refused
 * by name.
 */
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "joinctl-run.h"
#include "test-daemon.h"

#define PM_IFACE    "net.joind.ProfileManager1"
#define KNOWN_IFACE "net.joind.KnownNetwork1"
#define HOME_PATH   "/net/joind/known/486f6d65_psk"
#define PORT_PATH   "/net/joind/profile/wired/706f7274"
#define CAFE_PATH   "/net/joind/profile/ap/43616665"
#define WAIT_MS     5000

#define SECRET_PASSPHRASE "correct horse battery"
#define SECRET_PASSWORD   "md5-sekrit-pw"
#define SECRET_KEY_PASS   "key-sekrit-pass"
#define SECRET_KEY_BODY   "S3CR3TPR1VATEKEYBASE64"
#define CA_BODY           "Q0FDRVJUSUZJQ0FURUJPRFk"
/* A PKCS#12 bundle to the daemon: DER, so it starts with a SEQUENCE. */
#define SECRET_BUNDLE_BODY "P12-S3CR3T-BUNDLE-BYTES"
#define BUNDLE_DER         "\x30\x82\x01\x00" SECRET_BUNDLE_BODY

#define CA_PEM "-----BEGIN CERTIFICATE-----\n" CA_BODY "\n-----END CERTIFICATE-----\n"
#define KEY_PEM \
	"-----BEGIN PRIVATE KEY-----\r\n" SECRET_KEY_BODY "\r\n-----END PRIVATE KEY-----\r\n"

static const gchar *const secrets[] = {SECRET_PASSPHRASE, SECRET_PASSWORD,    SECRET_KEY_PASS,
                                       SECRET_KEY_BODY,   SECRET_BUNDLE_BODY, NULL};

typedef struct {
	gchar *dir; /* the daemon's state directory */
	TestDaemon *daemon;
	GString *replies; /* every reply and error, printed, for the secret check */
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *arg = NULL;

	f->dir = g_dir_make_tmp("joind-pm-XXXXXX", &error);
	g_assert_no_error(error);
	f->replies = g_string_new(NULL);
	arg = g_strdup_printf("--state-dir=%s", f->dir);
	f->daemon = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"),
	                              (const gchar *const[]){arg, "--plugins=eap-*", NULL});
}

static void
assert_no_secret(const gchar *what, const gchar *text)
{
	for (guint i = 0; secrets[i] != NULL; i++) {
		if (strstr(text, secrets[i]) != NULL)
			g_error("%s holds the secret “%s”:\n%s", what, secrets[i], text);
	}
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_autofree gchar *rm = g_strdup_printf("rm -rf '%s'", f->dir);
	g_autofree gchar *log = test_daemon_get_log(f->daemon);

	assert_no_secret("a D-Bus reply", f->replies->str);
	assert_no_secret("the daemon's debug log", log);
	g_assert_cmpint(test_daemon_stop(f->daemon), ==, 0);
	test_run(rm);
	g_string_free(f->replies, TRUE);
	g_free(f->dir);
}

static GVariant *
call(Fixture *f, const gchar *path, const gchar *iface, const gchar *method, GVariant *args,
     GError **error)
{
	GVariant *reply =
	        g_dbus_connection_call_sync(f->daemon->conn, "net.joind", path, iface, method, args,
	                                    NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, error);

	if (reply != NULL) {
		g_autofree gchar *text = g_variant_print(reply, FALSE);
		g_string_append_printf(f->replies, "%s\n", text);
	} else if (error != NULL && *error != NULL) {
		g_string_append_printf(f->replies, "%s\n", (*error)->message);
	}
	return reply;
}

static void
assert_remote_error(const GError *error, const gchar *name)
{
	g_autofree gchar *remote = error != NULL ? g_dbus_error_get_remote_error(error) : NULL;

	g_assert_cmpstr(remote, ==, name);
}

static GVariant *
pm(Fixture *f, const gchar *method, GVariant *args, GError **error)
{
	return call(f, "/net/joind", PM_IFACE, method, args, error);
}

static GVariant *
bytes_value(const gchar *data, gsize len)
{
	return g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, data, len, 1);
}

/* Creates a profile that must be taken; returns its object path. */
static gchar *
create(Fixture *f, const gchar *kind, const gchar *name, GVariant *settings)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        pm(f, "CreateProfile", g_variant_new("(ss@a{sv})", kind, name, settings), &error);
	gchar *path = NULL;

	g_assert_no_error(error);
	g_variant_get(reply, "(o)", &path);
	return path;
}

static void
update(Fixture *f, const gchar *path, GVariant *set, const gchar *const *unset, GError **error)
{
	g_autoptr(GVariant) reply =
	        pm(f, "UpdateProfile",
	           g_variant_new("(o@a{sv}^as)", path, set,
	                         unset != NULL ? unset : (const gchar *const[]){NULL}),
	           error);
}

static gchar *
read_state_file(Fixture *f, const gchar *name, guint expected_mode)
{
	g_autofree gchar *path = g_build_filename(f->dir, name, NULL);
	gchar *text = NULL;
	GStatBuf st;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 07777, ==, expected_mode);
	return text;
}

/* The settings ListProfiles gives for path, or NULL when it lists no such
 * profile; kind and name are checked. */
static GVariant *
listed(Fixture *f, const gchar *path, const gchar *kind, const gchar *name)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = pm(f, "ListProfiles", NULL, &error);
	g_autoptr(GVariant) list = NULL;
	GVariantIter iter;
	const gchar *p, *k, *n;
	GVariant *settings;

	g_assert_no_error(error);
	list = g_variant_get_child_value(reply, 0);
	g_variant_iter_init(&iter, list);
	while (g_variant_iter_next(&iter, "(&o&s&s@a{sv})", &p, &k, &n, &settings)) {
		if (strcmp(p, path) == 0) {
			g_assert_cmpstr(k, ==, kind);
			g_assert_cmpstr(n, ==, name);
			return settings;
		}
		g_variant_unref(settings);
	}
	return NULL;
}

static gchar *
setting_string(GVariant *settings, const gchar *name)
{
	g_autoptr(GVariant) v = g_variant_lookup_value(settings, name, G_VARIANT_TYPE_STRING);

	return v != NULL ? g_variant_dup_string(v, NULL) : NULL;
}

static gboolean
setting_flag(GVariant *settings, const gchar *name)
{
	g_autoptr(GVariant) v = g_variant_lookup_value(settings, name, G_VARIANT_TYPE_BOOLEAN);

	return v != NULL && g_variant_get_boolean(v);
}

/* The KnownNetwork1 properties at path, NULL when there is no object. */
static GVariant *
known_props(Fixture *f, const gchar *path)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = call(f, path, "org.freedesktop.DBus.Properties", "GetAll",
	                                 g_variant_new("(s)", KNOWN_IFACE), &error);

	if (reply == NULL)
		return NULL;
	return g_variant_get_child_value(reply, 0);
}

static gchar *
diagnostics(Fixture *f)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        call(f, "/net/joind", "net.joind.Daemon1", "GetDiagnostics", NULL, &error);
	gchar *json = NULL;

	g_assert_no_error(error);
	g_variant_get(reply, "(s)", &json);
	return json;
}

/* ---- WiFi PSK --------------------------------------------------------------- */

/* Security.Passphrase and one more setting. */
static GVariant *
passphrase_and(const gchar *name, GVariant *value)
{
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "Security.Passphrase", "s", SECRET_PASSPHRASE);
	g_variant_dict_insert_value(&d, name, value);
	return g_variant_dict_end(&d);
}

static GVariant *
home_settings(void)
{
	return passphrase_and("Settings.AutoConnect", g_variant_new_boolean(FALSE));
}

/* Created: the file (0600) holds what was given, the store took it at
 * once (a KnownNetwork1 object, Source admin), the list says that a
 * passphrase is set without saying it; a second create is Busy. */
static void
test_psk_create(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "psk", "Home", home_settings());
	g_autofree gchar *text = read_state_file(f, "Home.psk", 0600);
	g_autoptr(GVariant) props = known_props(f, HOME_PATH);
	g_autoptr(GVariant) source = NULL, autoconnect = NULL, settings = NULL, again = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *listed_ac = NULL, *diag = NULL;

	g_assert_cmpstr(path, ==, HOME_PATH);
	g_assert_nonnull(strstr(text, "[Security]\nPassphrase=" SECRET_PASSPHRASE "\n"));
	g_assert_nonnull(strstr(text, "[Settings]\nAutoConnect=false\n"));
	g_assert_nonnull(props);
	source = g_variant_lookup_value(props, "Source", G_VARIANT_TYPE_STRING);
	autoconnect = g_variant_lookup_value(props, "AutoConnect", G_VARIANT_TYPE_BOOLEAN);
	g_assert_cmpstr(g_variant_get_string(source, NULL), ==, "admin");
	g_assert_false(g_variant_get_boolean(autoconnect));

	settings = listed(f, HOME_PATH, "psk", "Home");
	g_assert_nonnull(settings);
	g_assert_true(setting_flag(settings, "Security.HasPassphrase"));
	g_assert_null(setting_string(settings, "Security.Passphrase"));
	listed_ac = setting_string(settings, "Settings.AutoConnect");
	g_assert_cmpstr(listed_ac, ==, "false");

	again = pm(f, "CreateProfile", g_variant_new("(ss@a{sv})", "psk", "Home", home_settings()),
	           &error);
	g_assert_null(again);
	g_assert_true(g_dbus_error_is_remote_error(error));
	assert_remote_error(error, "net.joind.Error.Busy");
	diag = diagnostics(f);
	assert_no_secret("GetDiagnostics", diag);
}

typedef struct {
	Fixture *f;
	const gchar *path;
	gboolean present;
} WantObject;

static gboolean
object_is(gpointer data)
{
	WantObject *w = data;
	g_autoptr(GVariant) props = known_props(w->f, w->path);

	return (props != NULL) == w->present;
}

/* Updated: a key set, another removed, the rest of the file kept (a
 * comment of the administrator's too); deleted: file and object gone. */
static void
test_psk_update_delete(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "psk", "Home", home_settings());
	g_autofree gchar *file = g_build_filename(f->dir, "Home.psk", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GVariant) gone = NULL;
	g_autoptr(GError) error = NULL, gone_error = NULL;
	GVariantDict set;
	WantObject w = {f, HOME_PATH, FALSE};

	g_variant_dict_init(&set, NULL);
	g_variant_dict_insert(&set, "Settings.Hidden", "b", TRUE);
	update(f, path, g_variant_dict_end(&set),
	       (const gchar *const[]){"Settings.AutoConnect", NULL}, &error);
	g_assert_no_error(error);
	text = read_state_file(f, "Home.psk", 0600);
	g_assert_nonnull(strstr(text, "Passphrase=" SECRET_PASSPHRASE "\n"));
	g_assert_nonnull(strstr(text, "Hidden=true\n"));
	g_assert_null(strstr(text, "AutoConnect"));

	update(f, "/net/joind/known/00_psk", g_variant_new("a{sv}", NULL), NULL, &error);
	assert_remote_error(error, "net.joind.Error.NotFound");
	g_clear_error(&error);

	gone = pm(f, "DeleteProfile", g_variant_new("(o)", path), &error);
	g_assert_no_error(error);
	g_assert_false(g_file_test(file, G_FILE_TEST_EXISTS));
	if (!test_wait_until(object_is, &w, WAIT_MS))
		g_error("%s is still exported", HOME_PATH);
	g_assert_null(listed(f, HOME_PATH, "psk", "Home"));
	g_clear_pointer(&gone, g_variant_unref);
	gone = pm(f, "DeleteProfile", g_variant_new("(o)", path), &gone_error);
	g_assert_null(gone);
	assert_remote_error(gone_error, "net.joind.Error.NotFound");
}

/* ---- open, non-UTF-8 SSID ---------------------------------------------------- */

static void
test_open_raw_ssid(Fixture *f, gconstpointer data)
{
	static const gchar ssid[] = {(gchar)0xff, (gchar)0xfe, 'A'};
	GVariantDict d;
	g_autofree gchar *path = NULL, *text = NULL;
	g_autoptr(GVariant) settings = NULL, listed_ssid = NULL, bad = NULL;
	g_autoptr(GError) error = NULL;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Settings.SSID", bytes_value(ssid, sizeof(ssid)));
	path = create(f, "open", "", g_variant_dict_end(&d));
	g_assert_cmpstr(path, ==, "/net/joind/known/fffe41_open");
	text = read_state_file(f, "=fffe41.open", 0600);
	g_assert_cmpstr(text, ==, "");
	settings = listed(f, path, "open", "\\xff\\xfeA");
	g_assert_nonnull(settings);
	listed_ssid = g_variant_lookup_value(settings, "Settings.SSID", G_VARIANT_TYPE_BYTESTRING);
	g_assert_cmpmem(g_variant_get_data(listed_ssid), g_variant_get_size(listed_ssid), ssid,
	                sizeof(ssid));
	/* The SSID is the profile's identity: not changed by an update. */
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "Settings.SSID", bytes_value("B", 1));
	update(f, path, g_variant_dict_end(&d), NULL, &error);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_assert_nonnull(strstr(error->message, "Settings.SSID"));
}

/* ---- 802.1X with embedded PEMs ----------------------------------------------- */

static GVariant *
tls_settings(void)
{
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "Security.EAP-Method", "s", "TLS");
	g_variant_dict_insert(&d, "Security.EAP-Identity", "s", "tlsuser");
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-CACert",
	                            bytes_value(CA_PEM, strlen(CA_PEM)));
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-ClientKey",
	                            bytes_value(KEY_PEM, strlen(KEY_PEM)));
	g_variant_dict_insert(&d, "Security.EAP-TLS-ClientCert", "s", "/etc/ssl/client.pem");
	g_variant_dict_insert(&d, "Security.EAP-TLS-ClientKeyPassphrase", "s", SECRET_KEY_PASS);
	return g_variant_dict_end(&d);
}

/* PEM bytes become [@pem@...] groups referred to as embed:...; the list
 * gives the references, never the PEM text; a certificate set to a path
 * again takes its embedded group with it. */
static void
test_8021x_embedded(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "8021x", "Corp", tls_settings());
	g_autofree gchar *text = read_state_file(f, "Corp.8021x", 0600);
	g_autofree gchar *after = NULL, *ca = NULL, *printed = NULL;
	g_autoptr(GVariant) settings = listed(f, path, "8021x", "Corp");
	g_autoptr(GError) error = NULL;
	GVariantDict set;

	g_assert_cmpstr(path, ==, "/net/joind/known/436f7270_8021x");
	g_assert_nonnull(strstr(text, "EAP-TLS-CACert=embed:EAP-TLS-CACert\n"));
	g_assert_nonnull(strstr(text, "EAP-TLS-ClientKey=embed:EAP-TLS-ClientKey\n"));
	g_assert_nonnull(strstr(text, "\n[@pem@EAP-TLS-CACert]\n" CA_PEM));
	g_assert_nonnull(strstr(
	        text,
	        "\n[@pem@EAP-TLS-ClientKey]\n-----BEGIN PRIVATE KEY-----\n" SECRET_KEY_BODY "\n"));
	g_assert_nonnull(settings);
	ca = setting_string(settings, "Security.EAP-TLS-CACert");
	g_assert_cmpstr(ca, ==, "embed:EAP-TLS-CACert");
	g_assert_true(setting_flag(settings, "Security.HasEAP-TLS-ClientKeyPassphrase"));
	printed = g_variant_print(settings, FALSE);
	g_assert_null(strstr(printed, CA_BODY));

	g_variant_dict_init(&set, NULL);
	g_variant_dict_insert(&set, "Security.EAP-TLS-CACert", "s", "/etc/ssl/ca.pem");
	update(f, path, g_variant_dict_end(&set), NULL, &error);
	g_assert_no_error(error);
	after = read_state_file(f, "Corp.8021x", 0600);
	g_assert_nonnull(strstr(after, "EAP-TLS-CACert=/etc/ssl/ca.pem\n"));
	g_assert_null(strstr(after, CA_BODY));
	g_assert_nonnull(strstr(after, "[@pem@EAP-TLS-ClientKey]\n"));
	g_assert_nonnull(strstr(after, "EAP-TLS-ClientKeyPassphrase=" SECRET_KEY_PASS "\n"));
}

/* ---- wired ------------------------------------------------------------------- */

static GVariant *
port_settings(void)
{
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "Match.Interface", "s", "eth0 enp*");
	g_variant_dict_insert(&d, "Security.EAP-Method", "s", "MD5");
	g_variant_dict_insert(&d, "Security.EAP-Identity", "s", "md5user");
	g_variant_dict_insert(&d, "Security.EAP-Password", "s", SECRET_PASSWORD);
	return g_variant_dict_end(&d);
}

static void
test_wired(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "wired", "port", port_settings());
	g_autofree gchar *text = read_state_file(f, "wired/port.8021x", 0600);
	g_autofree gchar *after = NULL, *match = NULL;
	g_autoptr(GVariant) settings = listed(f, PORT_PATH, "wired", "port");
	g_autoptr(GVariant) gone = NULL, bad = NULL;
	g_autoptr(GError) error = NULL;
	GVariantDict set;

	g_assert_cmpstr(path, ==, PORT_PATH);
	g_assert_nonnull(strstr(text, "[Match]\nInterface=eth0 enp*\n"));
	g_assert_nonnull(settings);
	match = setting_string(settings, "Match.Interface");
	g_assert_cmpstr(match, ==, "eth0 enp*");
	g_assert_true(setting_flag(settings, "Security.HasEAP-Password"));

	g_variant_dict_init(&set, NULL);
	g_variant_dict_insert(&set, "Match.MACAddress", "s", "02:00:5e:10:00:01");
	update(f, path, g_variant_dict_end(&set), NULL, &error);
	g_assert_no_error(error);
	after = read_state_file(f, "wired/port.8021x", 0600);
	g_assert_nonnull(strstr(after, "MACAddress=02:00:5e:10:00:01\n"));

	bad = pm(f, "CreateProfile",
	         g_variant_new("(ss@a{sv})", "wired", "../escape", port_settings()), &error);
	g_assert_null(bad);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_clear_error(&error);

	gone = pm(f, "DeleteProfile", g_variant_new("(o)", path), &error);
	g_assert_no_error(error);
	g_assert_null(listed(f, PORT_PATH, "wired", "port"));
}

/* ---- PKCS#12 bundles given as bytes ------------------------------------------ */

static GVariant *
bundle_value(void)
{
	return bytes_value(BUNDLE_DER, sizeof(BUNDLE_DER) - 1);
}

static GVariant *
bundle_settings(void)
{
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "Match.Interface", "s", "eth0");
	g_variant_dict_insert(&d, "Security.EAP-Method", "s", "TLS");
	g_variant_dict_insert(&d, "Security.EAP-Identity", "s", "tlsuser");
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-CACert",
	                            bytes_value(CA_PEM, strlen(CA_PEM)));
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-ClientKeyBundle", bundle_value());
	g_variant_dict_insert(&d, "Security.EAP-TLS-ClientKeyPassphrase", "s", SECRET_KEY_PASS);
	return g_variant_dict_end(&d);
}

/* The value of EAP-TLS-ClientKeyBundle in wired/tls.8021x. */
static gchar *
bundle_key(Fixture *f)
{
	g_autofree gchar *text = read_state_file(f, "wired/tls.8021x", 0600);
	const gchar *line = strstr(text, "\nEAP-TLS-ClientKeyBundle=");

	g_assert_nonnull(line);
	line += strlen("\nEAP-TLS-ClientKeyBundle=");
	return g_strndup(line, strcspn(line, "\n"));
}

/* The bundle's file: beside the profile, named after it, mode 0600, the
 * very bytes given. */
static void
assert_bundle_file(Fixture *f, const gchar *path)
{
	g_autofree gchar *prefix = g_build_filename(f->dir, "wired", "tls.8021x.", NULL);
	g_autofree gchar *data = NULL;
	gsize len = 0;
	GStatBuf st;

	g_assert_true(g_str_has_prefix(path, prefix));
	g_assert_true(g_str_has_suffix(path, ".p12"));
	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	g_assert_cmpmem(data, len, BUNDLE_DER, sizeof(BUNDLE_DER) - 1);
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 07777, ==, 0600);
}

static void
update_bundle(Fixture *f, const gchar *path, GVariant *value, const gchar *const *unset)
{
	g_autoptr(GError) error = NULL;
	GVariantDict set;

	g_variant_dict_init(&set, NULL);
	if (value != NULL)
		g_variant_dict_insert_value(&set, "Security.EAP-TLS-ClientKeyBundle", value);
	/* Without a bundle the profile needs a certificate and a key. */
	if (value == NULL) {
		g_variant_dict_insert(&set, "Security.EAP-TLS-ClientCert", "s", "/etc/c.pem");
		g_variant_dict_insert(&set, "Security.EAP-TLS-ClientKey", "s", "/etc/k.pem");
	}
	update(f, path, g_variant_dict_end(&set), unset, &error);
	g_assert_no_error(error);
}

static guint
count_bundle_files(Fixture *f)
{
	g_autofree gchar *wired = g_build_filename(f->dir, "wired", NULL);
	g_autoptr(GDir) dir = g_dir_open(wired, 0, NULL);
	const gchar *name;
	guint n = 0;

	while ((name = g_dir_read_name(dir)) != NULL)
		n += g_str_has_suffix(name, ".p12");
	return n;
}

/* Given as bytes, a bundle is a file of its own that the profile names;
 * listed by its path, never by its bytes; replaced, unset or deleted with
 * the profile, its file goes. A path given stays the path. */
static void
test_wired_bundle(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "wired", "tls", bundle_settings());
	g_autofree gchar *first = bundle_key(f), *second = NULL, *third = NULL, *listed_path = NULL;
	g_autoptr(GVariant) settings = listed(f, path, "wired", "tls");
	g_autoptr(GVariant) gone = NULL;
	g_autoptr(GError) error = NULL;

	assert_bundle_file(f, first);
	listed_path = setting_string(settings, "Security.EAP-TLS-ClientKeyBundle");
	g_assert_cmpstr(listed_path, ==, first);
	g_assert_true(setting_flag(settings, "Security.HasEAP-TLS-ClientKeyPassphrase"));

	update_bundle(f, path, bundle_value(), NULL);
	second = bundle_key(f);
	g_assert_cmpstr(second, !=, first);
	assert_bundle_file(f, second);
	g_assert_false(g_file_test(first, G_FILE_TEST_EXISTS));

	update_bundle(f, path, g_variant_new_string("/etc/joind/certs/me.p12"), NULL);
	third = bundle_key(f);
	g_assert_cmpstr(third, ==, "/etc/joind/certs/me.p12");
	g_assert_cmpuint(count_bundle_files(f), ==, 0);

	update_bundle(f, path, bundle_value(), NULL);
	g_assert_cmpuint(count_bundle_files(f), ==, 1);
	update_bundle(f, path, NULL,
	              (const gchar *const[]){"Security.EAP-TLS-ClientKeyBundle", NULL});
	g_assert_cmpuint(count_bundle_files(f), ==, 0);

	update_bundle(f, path, bundle_value(),
	              (const gchar *const[]){"Security.EAP-TLS-ClientCert",
	                                     "Security.EAP-TLS-ClientKey", NULL});
	g_assert_cmpuint(count_bundle_files(f), ==, 1);
	gone = pm(f, "DeleteProfile", g_variant_new("(o)", path), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(count_bundle_files(f), ==, 0);
}

/* Bytes that are neither DER nor PEM are refused, naming the key; nothing
 * is left behind. */
static void
test_wired_bundle_invalid(Fixture *f, gconstpointer data)
{
	g_autoptr(GVariant) held = g_variant_ref_sink(bundle_settings());
	g_autofree gchar *file = g_build_filename(f->dir, "wired", "tls.8021x", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	GVariantDict d;

	g_variant_dict_init(&d, held);
	g_variant_dict_insert_value(&d, "Security.EAP-TLS-ClientKeyBundle",
	                            bytes_value("not a bundle", 12));
	reply = pm(f, "CreateProfile",
	           g_variant_new("(ss@a{sv})", "wired", "tls", g_variant_dict_end(&d)), &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_assert_nonnull(strstr(error->message, "Security.EAP-TLS-ClientKeyBundle: "));
	g_clear_error(&error);
	/* A bundle and a key besides: the loader's refusal, and no bundle file
	 * written for a profile that was not. */
	g_variant_dict_init(&d, held);
	g_variant_dict_insert(&d, "Security.EAP-TLS-ClientKey", "s", "/etc/k.pem");
	reply = pm(f, "CreateProfile",
	           g_variant_new("(ss@a{sv})", "wired", "tls", g_variant_dict_end(&d)), &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_dbus_error_strip_remote_error(error);
	g_assert_cmpstr(error->message, ==,
	                "EAP-TLS-ClientKeyBundle: the bundle holds the certificate and the key; "
	                "set either it or EAP-TLS-ClientCert and EAP-TLS-ClientKey, not both");
	g_assert_false(g_file_test(file, G_FILE_TEST_EXISTS));
	g_assert_cmpuint(count_bundle_files(f), ==, 0);
}

/* ---- invalid settings: the loader's sentences --------------------------------- */

/* The error the store records for a file dropped in with text, from
 * GetDiagnostics' profile_errors, without its "path:line: ". */
typedef struct {
	Fixture *f;
	const gchar *file;
	gchar *error;
} DroppedError;

static gboolean
dropped_error_found(gpointer data)
{
	DroppedError *d = data;
	g_autofree gchar *json = diagnostics(d->f);
	g_autoptr(JsonNode) root = json_from_string(json, NULL);
	JsonArray *errors =
	        json_object_get_array_member(json_node_get_object(root), "profile_errors");

	for (guint i = 0; i < json_array_get_length(errors); i++) {
		JsonObject *e = json_array_get_object_element(errors, i);
		const gchar *message = json_object_get_string_member(e, "error");

		if (!g_str_equal(json_object_get_string_member(e, "path"), d->file))
			continue;
		/* "path:line: " */
		message = strchr(message + strlen(d->file) + 1, ':') + 2;
		d->error = g_strdup(message);
		return TRUE;
	}
	return FALSE;
}

static gchar *
loader_error_for(Fixture *f, const gchar *name, const gchar *text)
{
	g_autofree gchar *file = g_build_filename(f->dir, name, NULL);
	DroppedError d = {f, file, NULL};

	g_assert_true(g_file_set_contents_full(file, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600,
	                                       NULL));
	if (!test_wait_until(dropped_error_found, &d, WAIT_MS))
		g_error("%s: no profile error came up", file);
	return d.error;
}

static void
expect_refused(Fixture *f, const gchar *kind, const gchar *name, GVariant *settings,
               const gchar *expected)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL, problems = NULL;
	g_autoptr(GVariant) held = g_variant_ref_sink(settings);
	const gchar **list;

	reply = pm(f, "CreateProfile", g_variant_new("(ss@a{sv})", kind, name, held), &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_dbus_error_strip_remote_error(error);
	g_assert_cmpstr(error->message, ==, expected);
	g_clear_error(&error);
	problems = pm(f, "ValidateProfile", g_variant_new("(s@a{sv})", kind, held), &error);
	g_assert_nonnull(problems);
	g_variant_get(problems, "(^a&s)", &list);
	g_assert_cmpuint(g_strv_length((gchar **)list), ==, 1);
	g_assert_cmpstr(list[0], ==, expected);
	g_free(list);
}

static void
test_invalid(Fixture *f, gconstpointer data)
{
	g_autofree gchar *short_pass =
	        loader_error_for(f, "Bad.psk", "[Security]\nPassphrase=short\n");
	g_autofree gchar *no_method = loader_error_for(
	        f, "wired/bad.8021x", "[Match]\nInterface=eth0\n[Security]\nEAP-Method=NOPE\n");
	g_autofree gchar *home = g_build_filename(f->dir, "Home.psk", NULL);
	g_autofree gchar *port = g_build_filename(f->dir, "wired", "port.8021x", NULL);
	g_autoptr(GVariant) ok = NULL;
	const gchar **list;

	expect_refused(f, "psk", "Home", g_variant_new_parsed("{'Security.Passphrase': <'short'>}"),
	               short_pass);
	expect_refused(f, "wired", "port",
	               g_variant_new_parsed("{'Match.Interface': <'eth0'>, "
	                                    "'Security.EAP-Method': <'NOPE'>}"),
	               no_method);
	expect_refused(f, "psk", "Home",
	               g_variant_new_parsed(
	                       "{'Security': <'x'>, 'Security.Passphrase': <'" SECRET_PASSPHRASE
	                       "'>}"),
	               "“Security” is not a setting name: expected Group.Key (such as "
	               "Security.EAP-Method), made of letters, digits, “-”, “_” and “.”");
	expect_refused(f, "psk", "Home", g_variant_new_parsed("{'Settings.AutoConnect': <[1, 2]>}"),
	               "Settings.AutoConnect: a string, boolean, integer or byte array is "
	               "expected, not “ai”");
	ok = pm(f, "ValidateProfile", g_variant_new("(s@a{sv})", "psk", home_settings()), NULL);
	g_variant_get(ok, "(^a&s)", &list);
	g_assert_cmpuint(g_strv_length((gchar **)list), ==, 0);
	g_free(list);
	/* Nothing refused was written. */
	g_assert_false(g_file_test(home, G_FILE_TEST_EXISTS));
	g_assert_false(g_file_test(port, G_FILE_TEST_EXISTS));
}

/* ---- joinctl profile ------------------------------------------------------------ */

/* Runs joinctl --session ARGS with the environment env; its output joins
 * the replies checked for secrets. */
#define PROFILE_CTL(f, r, env, ...)                                                   \
	do {                                                                          \
		run_joinctl(r, env, "--session", __VA_ARGS__, NULL);                  \
		g_string_append_printf((f)->replies, "%s\n%s\n", (r)->out, (r)->err); \
	} while (0)

static void
test_joinctl_create(Fixture *f, gconstpointer data)
{
	g_autofree gchar *pass_file = g_build_filename(f->dir, "pass", NULL);
	g_autofree gchar *home = g_build_filename(f->dir, "Home.psk", NULL);
	g_autofree gchar *text = NULL;
	g_auto(Run) argv_secret = {0}, no_tty = {0}, created = {0}, list = {0};
	g_autoptr(JsonNode) root = NULL;
	JsonObject *settings;

	PROFILE_CTL(f, &argv_secret, NULL, "profile", "create", "psk", "Home",
	            "Security.Passphrase=" SECRET_PASSPHRASE);
	g_assert_cmpint(argv_secret.status, ==, 2);
	g_assert_nonnull(strstr(argv_secret.err, "Security.Passphrase is a secret"));
	PROFILE_CTL(f, &no_tty, NULL, "profile", "create", "psk", "Home");
	g_assert_cmpint(no_tty.status, ==, 2);
	g_assert_nonnull(strstr(no_tty.err, "no terminal"));
	g_assert_false(g_file_test(home, G_FILE_TEST_EXISTS));

	g_assert_true(g_file_set_contents(pass_file, SECRET_PASSPHRASE "\n", -1, NULL));
	PROFILE_CTL(f, &created, NULL, "profile", "create", "psk", "Home",
	            "Settings.AutoConnect=false", "--passphrase-file", pass_file);
	g_assert_cmpint(created.status, ==, 0);
	g_remove(pass_file); /* no secret left for the teardown's check */
	text = read_state_file(f, "Home.psk", 0600);
	g_assert_nonnull(strstr(text, "Passphrase=" SECRET_PASSPHRASE "\n"));

	PROFILE_CTL(f, &list, NULL, "--json", "profile", "list");
	g_assert_cmpint(list.status, ==, 0);
	root = parse_json(list.out);
	g_assert_cmpuint(json_array_get_length(json_node_get_array(root)), ==, 1);
	settings = json_object_get_object_member(
	        json_array_get_object_element(json_node_get_array(root), 0), "settings");
	g_assert_true(json_object_get_boolean_member(settings, "Security.HasPassphrase"));
	g_assert_cmpstr(json_object_get_string_member(settings, "Settings.AutoConnect"), ==,
	                "false");
}

static void
test_joinctl_edit(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "psk", "Home", home_settings());
	g_autofree gchar *text = NULL;
	g_auto(Run) set = {0}, unset = {0}, bad = {0}, del = {0}, gone = {0};
	const gchar *const env[] = {"PM_PASS", "short", NULL};
	g_autoptr(JsonNode) problems = NULL;

	PROFILE_CTL(f, &set, NULL, "profile", "set", "Home", "Settings.Hidden=true");
	g_assert_cmpint(set.status, ==, 0);
	PROFILE_CTL(f, &unset, NULL, "profile", "unset", path, "Settings.AutoConnect");
	g_assert_cmpint(unset.status, ==, 0);
	text = read_state_file(f, "Home.psk", 0600);
	g_assert_nonnull(strstr(text, "Hidden=true\n"));
	g_assert_null(strstr(text, "AutoConnect"));

	PROFILE_CTL(f, &bad, env, "--json", "profile", "validate", "psk", "Security.Passphrase",
	            "--passphrase-from-env", "PM_PASS");
	g_assert_cmpint(bad.status, ==, 2);
	problems = parse_json(bad.out);
	g_assert_cmpuint(json_array_get_length(json_node_get_array(problems)), ==, 1);
	g_assert_nonnull(strstr(json_array_get_string_element(json_node_get_array(problems), 0),
	                        "Passphrase"));

	PROFILE_CTL(f, &del, NULL, "profile", "delete", "Home");
	g_assert_cmpint(del.status, ==, 0);
	PROFILE_CTL(f, &gone, NULL, "profile", "show", "Home");
	g_assert_cmpint(gone.status, ==, 4);
}

/* ---- limits ------------------------------------------------------------------ */

/* A PEM of about size bytes. */
static GVariant *
big_pem(gsize size)
{
	g_autoptr(GString) pem = g_string_new("-----BEGIN CERTIFICATE-----\n");

	while (pem->len < size)
		g_string_append(
		        pem, "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB\n");
	g_string_append(pem, "-----END CERTIFICATE-----\n");
	return bytes_value(pem->str, pem->len);
}

static void
assert_error_says(const GError *error, const gchar *name, const gchar *says)
{
	assert_remote_error(error, name);
	if (strstr(error->message, says) == NULL)
		g_error("“%s” does not say “%s”", error->message, says);
}

/* An update to more than 1 MiB is refused and the file stays byte for
 * byte, the profile still known; so is a create. */
static void
test_too_large(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "8021x", "Corp", tls_settings());
	g_autofree gchar *before = read_state_file(f, "Corp.8021x", 0600);
	g_autofree gchar *after = NULL;
	g_autoptr(GVariant) refused = NULL;
	g_autoptr(GVariant) tls = g_variant_ref_sink(tls_settings());
	g_autoptr(GVariant) props = NULL;
	g_autoptr(GError) error = NULL;
	GVariantDict set, settings;

	g_variant_dict_init(&set, NULL);
	g_variant_dict_insert_value(&set, "Security.EAP-TLS-CACert", big_pem(1100 * 1024));
	update(f, path, g_variant_dict_end(&set), NULL, &error);
	assert_error_says(error, "net.joind.Error.InvalidArgs", "more than a profile may have");
	g_clear_error(&error);
	after = read_state_file(f, "Corp.8021x", 0600);
	g_assert_cmpstr(after, ==, before);
	props = known_props(f, path);
	g_assert_nonnull(props);

	g_variant_dict_init(&settings, tls);
	g_variant_dict_insert_value(&settings, "Security.EAP-TLS-CACert", big_pem(1100 * 1024));
	refused = pm(f, "CreateProfile",
	             g_variant_new("(ss@a{sv})", "8021x", "Big", g_variant_dict_end(&settings)),
	             &error);
	g_assert_null(refused);
	assert_error_says(error, "net.joind.Error.InvalidArgs", "more than a profile may have");
	g_free(after);
	after = g_build_filename(f->dir, "Big.8021x", NULL);
	g_assert_false(g_file_test(after, G_FILE_TEST_EXISTS));
}

/* Key bundles of 1 MiB each fill the room (32 MiB) and the next is
 * refused; then 500 profiles in all, and the next is refused. */
static void
test_room(Fixture *f, gconstpointer data)
{
	g_autofree gchar *der = g_malloc0(1024 * 1024);
	g_autoptr(GVariant) bundle = g_variant_ref_sink(bundle_settings());
	g_autoptr(GError) error = NULL;
	guint made = 0;

	der[0] = 0x30;
	for (;; made++) {
		g_autofree gchar *name = g_strdup_printf("port%u", made);
		g_autoptr(GVariant) reply = NULL;
		GVariantDict d;

		g_variant_dict_init(&d, bundle);
		g_variant_dict_insert_value(&d, "Security.EAP-TLS-ClientKeyBundle",
		                            bytes_value(der, 1024 * 1024));
		reply = pm(f, "CreateProfile",
		           g_variant_new("(ss@a{sv})", "wired", name, g_variant_dict_end(&d)),
		           &error);
		if (reply == NULL)
			break;
		g_assert_cmpuint(made, <, 40);
	}
	assert_error_says(error, "net.joind.Error.Busy", "more than joind keeps (32 MiB)");
	g_clear_error(&error);
	g_assert_cmpuint(made, ==, 31);
	g_assert_cmpuint(count_bundle_files(f), ==, 31);
	for (; made < 600; made++) {
		g_autofree gchar *name = g_strdup_printf("n%u", made);
		g_autoptr(GVariant) reply =
		        pm(f, "CreateProfile",
		           g_variant_new("(ss@a{sv})", "psk", name, home_settings()), &error);

		if (reply == NULL)
			break;
	}
	assert_error_says(error, "net.joind.Error.Busy", "500 profiles are stored");
	g_assert_cmpuint(made, ==, 500);
}

/* ---- access point profiles ----------------------------------------------------- */

static GVariant *
cafe_settings(const gchar *channel)
{
	return passphrase_and("General.Channel", g_variant_new_string(channel));
}

/* ap/Cafe.ap in iwd's format (0600, in a directory of its own), listed
 * without its passphrase, changed key by key; no KnownNetwork1 for it. */
static void
test_ap_profile(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = create(f, "ap", "Cafe", cafe_settings("6"));
	g_autofree gchar *text = read_state_file(f, "ap/Cafe.ap", 0600);
	g_autofree gchar *channel = NULL, *changed = NULL;
	g_autoptr(GVariant) settings = listed(f, CAFE_PATH, "ap", "Cafe");
	g_autoptr(GVariant) again = NULL, gone = NULL;
	g_autoptr(GError) error = NULL;
	GVariantDict set;

	g_assert_cmpstr(path, ==, CAFE_PATH);
	g_assert_nonnull(strstr(text, "[Security]\nPassphrase=" SECRET_PASSPHRASE "\n"));
	g_assert_nonnull(strstr(text, "[General]\nChannel=6\n"));
	g_assert_null(known_props(f, "/net/joind/known/43616665_psk"));
	g_assert_nonnull(settings);
	g_assert_true(setting_flag(settings, "Security.HasPassphrase"));
	g_assert_null(setting_string(settings, "Security.Passphrase"));
	channel = setting_string(settings, "General.Channel");
	g_assert_cmpstr(channel, ==, "6");

	again = pm(f, "CreateProfile",
	           g_variant_new("(ss@a{sv})", "ap", "Cafe", cafe_settings("1")), &error);
	assert_remote_error(error, "net.joind.Error.Busy");
	g_clear_error(&error);

	g_variant_dict_init(&set, NULL);
	g_variant_dict_insert(&set, "General.Channel", "s", "11");
	update(f, path, g_variant_dict_end(&set), NULL, &error);
	g_assert_no_error(error);
	changed = read_state_file(f, "ap/Cafe.ap", 0600);
	g_assert_nonnull(strstr(changed, "Channel=11\n"));
	g_assert_nonnull(strstr(changed, "Passphrase=" SECRET_PASSPHRASE "\n"));

	gone = pm(f, "DeleteProfile", g_variant_new("(o)", path), &error);
	g_assert_no_error(error);
	g_assert_null(listed(f, CAFE_PATH, "ap", "Cafe"));
	g_clear_pointer(&gone, g_variant_unref);
	gone = pm(f, "DeleteProfile", g_variant_new("(o)", path), &error);
	assert_remote_error(error, "net.joind.Error.NotFound");
}

/* joinctl profile create ap: the passphrase from a file, never from its
 * command line; joind's own Hidden beside iwd's keys. */
static void
test_ap_profile_joinctl(Fixture *f, gconstpointer data)
{
	g_autofree gchar *pass_file = g_build_filename(f->dir, "pass", NULL);
	g_autofree gchar *text = NULL;
	g_auto(Run) no_tty = {0}, created = {0};

	PROFILE_CTL(f, &no_tty, NULL, "profile", "create", "ap", "Cafe", "General.Channel=1");
	g_assert_cmpint(no_tty.status, ==, 2);
	g_assert_nonnull(strstr(no_tty.err, "no terminal"));
	g_assert_true(g_file_set_contents(pass_file, SECRET_PASSPHRASE "\n", -1, NULL));
	PROFILE_CTL(f, &created, NULL, "profile", "create", "ap", "Cafe", "General.Channel=1",
	            "General.Hidden=true", "--passphrase-file", pass_file);
	g_assert_cmpint(created.status, ==, 0);
	g_remove(pass_file); /* no secret left for the teardown's check */
	text = read_state_file(f, "ap/Cafe.ap", 0600);
	g_assert_nonnull(strstr(text, "Passphrase=" SECRET_PASSPHRASE "\n"));
	g_assert_nonnull(strstr(text, "Channel=1\n"));
	g_assert_nonnull(strstr(text, "Hidden=true\n"));
}

/* What an access point profile may not hold, refused before anything is
 * written: keys of iwd's AP profile joind does not implement (named), no
 * secret, a channel outside 2.4 GHz, an SSID that cannot be a file name. */
static void
test_ap_profile_refused(Fixture *f, gconstpointer data)
{
	g_autofree gchar *dir = g_build_filename(f->dir, "ap", NULL);
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GError) error = NULL;

	expect_refused(f, "ap", "Cafe",
	               g_variant_new_parsed("{'Security.Passphrase': <'" SECRET_PASSPHRASE
	                                    "'>, 'IPv4.Address': <'192.168.1.1'>, "
	                                    "'WSC.DeviceName': <'cafe'>}"),
	               "joind's access point does not implement [IPv4] Address, [WSC] DeviceName");
	expect_refused(f, "ap", "Cafe", g_variant_new_parsed("{'General.Channel': <'6'>}"),
	               "[Security] has neither Passphrase nor PreSharedKey: an access point "
	               "profile needs one of them");
	reply = pm(f, "CreateProfile",
	           g_variant_new("(ss@a{sv})", "ap", "Cafe", cafe_settings("36")), &error);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_assert_nonnull(strstr(error->message, "is not a 2.4 GHz channel"));
	g_clear_error(&error);
	reply = pm(f, "CreateProfile",
	           g_variant_new("(ss@a{sv})", "ap", "../up", cafe_settings("6")), &error);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_assert_nonnull(strstr(error->message, "cannot name an access point profile"));
	g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/profile-manager/psk-create", Fixture, NULL, fixture_setup, test_psk_create,
	           fixture_teardown);
	g_test_add("/profile-manager/psk-update-delete", Fixture, NULL, fixture_setup,
	           test_psk_update_delete, fixture_teardown);
	g_test_add("/profile-manager/open-raw-ssid", Fixture, NULL, fixture_setup,
	           test_open_raw_ssid, fixture_teardown);
	g_test_add("/profile-manager/8021x-embedded", Fixture, NULL, fixture_setup,
	           test_8021x_embedded, fixture_teardown);
	g_test_add("/profile-manager/wired", Fixture, NULL, fixture_setup, test_wired,
	           fixture_teardown);
	g_test_add("/profile-manager/wired-bundle", Fixture, NULL, fixture_setup, test_wired_bundle,
	           fixture_teardown);
	g_test_add("/profile-manager/wired-bundle-invalid", Fixture, NULL, fixture_setup,
	           test_wired_bundle_invalid, fixture_teardown);
	g_test_add("/profile-manager/invalid", Fixture, NULL, fixture_setup, test_invalid,
	           fixture_teardown);
	g_test_add("/profile-manager/too-large", Fixture, NULL, fixture_setup, test_too_large,
	           fixture_teardown);
	g_test_add("/profile-manager/room", Fixture, NULL, fixture_setup, test_room,
	           fixture_teardown);
	g_test_add("/profile-manager/joinctl-create", Fixture, NULL, fixture_setup,
	           test_joinctl_create, fixture_teardown);
	g_test_add("/profile-manager/ap", Fixture, NULL, fixture_setup, test_ap_profile,
	           fixture_teardown);
	g_test_add("/profile-manager/ap-refused", Fixture, NULL, fixture_setup,
	           test_ap_profile_refused, fixture_teardown);
	g_test_add("/profile-manager/ap-joinctl", Fixture, NULL, fixture_setup,
	           test_ap_profile_joinctl, fixture_teardown);
	g_test_add("/profile-manager/joinctl-edit", Fixture, NULL, fixture_setup, test_joinctl_edit,
	           fixture_teardown);
	return g_test_run();
}
