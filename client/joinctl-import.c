/* joinctl-import.c - `joinctl import FILE.eap-config`: an eduroam CAT or
 * geteduroam profile (eap-config.c reads it) becomes joind profiles
 * through net.joind.ProfileManager1: one 8021x profile per SSID the file
 * names and a wired one when it applies to IEEE 802.3, all with the same
 * settings (eap-config-profile.c), the CA embedded.
 *
 * Everything is checked before anything is written: the file, the
 * credentials, the settings (ValidateProfile) and the names (a profile of
 * the same name is refused unless --replace). A write that fails after
 * others succeeded takes the new ones back out.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "eap-config-profile.h"
#include "joinctl-escape.h"
#include "joinctl.h"

#define PM_IFACE       "net.joind.ProfileManager1"
#define WIRED_NAME_MAX 64

typedef struct {
	gchar *kind; /* "8021x" or "wired" */
	gchar *name;
	gchar *existing;     /* the object path of a profile by that name, or NULL */
	GStrv existing_keys; /* its settings' names, to unset on --replace */
	gchar *path;         /* once written */
} Target;

typedef struct {
	EapConfig *config;
	const EapConfigProvider *provider;
	const EapConfigMethod *method;
	GPtrArray *targets;       /* Target * */
	GVariant *settings;       /* a{sv}, holds the password */
	GVariant *wired_settings; /* the same with the Match.* arguments */
	gchar **match;            /* Match.Key=VALUE arguments, for the wired profile */
	GPtrArray *written;       /* Target * created by this run */
} Import;

static void
target_free(Target *t)
{
	g_free(t->kind);
	g_free(t->name);
	g_free(t->existing);
	g_strfreev(t->existing_keys);
	g_free(t->path);
	g_free(t);
}

static void
import_clear(Import *im)
{
	g_clear_pointer(&im->config, eap_config_free);
	g_clear_pointer(&im->targets, g_ptr_array_unref);
	g_clear_pointer(&im->settings, g_variant_unref);
	g_clear_pointer(&im->wired_settings, g_variant_unref);
	g_clear_pointer(&im->written, g_ptr_array_unref);
}

static GVariant *
pm_call(JoinctlContext *ctx, const gchar *method, GVariant *params, GError **error)
{
	return joinctl_call_path(ctx, JOINCTL_ROOT_PATH, PM_IFACE, method, params, -1, error);
}

/* EAP_CONFIG_ERROR as joinctl's exit codes: a bad file is invalid input,
 * a good one joind cannot use is not supported. */
static gboolean
file_error(GError *local, const gchar *path, GError **error)
{
	JoinctlExit code = g_error_matches(local, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_UNSUPPORTED)
	                           ? JOINCTL_EXIT_NOT_SUPPORTED
	                           : JOINCTL_EXIT_USAGE;

	g_set_error(error, JOINCTL_ERROR, code, "%s: %s", path, local->message);
	g_error_free(local);
	return FALSE;
}

/* ---- the file -------------------------------------------------------------- */

static gboolean
read_file(Import *im, const gchar *path, GError **error)
{
	g_autofree gchar *data = NULL;
	GError *local = NULL;
	GStatBuf st;
	gsize len = 0;

	/* Stat first: a huge file is refused without reading it. */
	if (g_stat(path, &st) == 0 && st.st_size > EAP_CONFIG_MAX_FILE) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            "%s: %lld bytes, more than an eap-config file may have (%d)", path,
		            (long long)st.st_size, EAP_CONFIG_MAX_FILE);
		return FALSE;
	}
	if (!g_file_get_contents(path, &data, &len, &local)) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	im->config = eap_config_parse((const guint8 *)data, len, &local);
	if (im->config == NULL)
		return file_error(local, path, error);
	if (im->config->providers->len != 1) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_SUPPORTED,
		            "%s: %u <EAPIdentityProvider> elements; joinctl imports a file of one "
		            "provider",
		            path, im->config->providers->len);
		return FALSE;
	}
	im->provider = g_ptr_array_index(im->config->providers, 0);
	im->method = eap_config_pick_method(im->provider, &local);
	if (im->method == NULL)
		return file_error(local, path, error);
	return TRUE;
}

static gboolean
wired_name_is_valid(const gchar *name)
{
	gsize len = name != NULL ? strlen(name) : 0;

	if (len == 0 || len > WIRED_NAME_MAX || name[0] == '.')
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isalnum(name[i]) && strchr("-_.", name[i]) == NULL)
			return FALSE;
	}
	return TRUE;
}

/* A wired profile's name: the file's NetworkID, else the provider's ID
 * (a realm such as example.edu), when either makes a file name. */
static const gchar *
wired_name(const EapConfigProvider *p)
{
	for (guint i = 0; i < p->wired_ids->len; i++) {
		if (wired_name_is_valid(g_ptr_array_index(p->wired_ids, i)))
			return g_ptr_array_index(p->wired_ids, i);
	}
	return wired_name_is_valid(p->id) ? p->id : "eap-config";
}

static void
add_target(Import *im, const gchar *kind, const gchar *name)
{
	Target *t;

	for (guint i = 0; i < im->targets->len; i++) {
		t = g_ptr_array_index(im->targets, i);
		if (g_str_equal(t->kind, kind) && g_str_equal(t->name, name))
			return; /* an SSID named twice */
	}
	t = g_new0(Target, 1);
	t->kind = g_strdup(kind);
	t->name = g_strdup(name);
	g_ptr_array_add(im->targets, t);
}

static gboolean
make_targets(Import *im, const gchar *path, GError **error)
{
	const EapConfigProvider *p = im->provider;

	im->targets = g_ptr_array_new_with_free_func((GDestroyNotify)target_free);
	for (guint i = 0; i < p->ssids->len; i++)
		add_target(im, "8021x", g_ptr_array_index(p->ssids, i));
	if (p->wired_ids->len > 0)
		add_target(im, "wired", wired_name(p));
	if (p->consortium_oids->len > 0)
		g_printerr(_("joinctl: %s: the Passpoint (Hotspot 2.0) consortium entries are left "
		             "out: joind joins networks by SSID\n"),
		           path);
	if (im->targets->len > 0)
		return TRUE;
	g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_SUPPORTED,
	            "%s: the file names no SSID and no wired network, only Passpoint "
	            "consortiums, which joind does not join",
	            path);
	return FALSE;
}

/* ---- credentials ----------------------------------------------------------- */

/* The user name: --username, else asked for on the terminal (with echo). */
static gchar *
username(JoinctlContext *ctx, GError **error)
{
	gchar *line;

	if (ctx->secrets.username != NULL)
		return g_strdup(ctx->secrets.username);
	line = joinctl_prompt_line(ctx, _("User name: "), TRUE, _("the user name"),
	                           _("the user name is needed and there is no terminal to ask "
	                             "for it: use --username"),
	                           error);
	if (line != NULL && *g_strstrip(line) == '\0') {
		g_set_error_literal(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		                    _("no user name given"));
		g_clear_pointer(&line, g_free);
	}
	return line;
}

static gboolean
client_credentials(JoinctlContext *ctx, Import *im, EapConfigClientPem **client, GError **error)
{
	const gchar *given = im->method->client_passphrase;
	gchar *asked = NULL;
	GError *local = NULL;

	if (given == NULL) {
		asked = joinctl_profile_secret(ctx, _("Passphrase of the client certificate"),
		                               error);
		if (asked == NULL)
			return FALSE;
	}
	*client = eap_config_client_pem(im->method->client_pkcs12, given != NULL ? given : asked,
	                                &local);
	joinctl_secret_free(asked);
	return *client != NULL || file_error(local, _("the client certificate"), error);
}

static gboolean
password_credentials(JoinctlContext *ctx, Import *im, gchar **user, gchar **password,
                     GError **error)
{
	GError *local = NULL;

	*user = username(ctx, error);
	if (*user == NULL)
		return FALSE;
	if (!eap_config_check_username(im->method, *user, &local)) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE, _("user name '%s': %s"),
		            *user, local->message);
		g_error_free(local);
		return FALSE;
	}
	*password = joinctl_profile_secret(ctx, _("Password"), error);
	return *password != NULL;
}

/* The wired profile's settings: the profile's and which ports it is for. */
static GVariant *
with_match(GVariant *settings, gchar **match)
{
	GVariantDict dict;

	g_variant_dict_init(&dict, settings);
	for (guint i = 0; match[i] != NULL; i++) {
		g_autofree gchar *name = g_strndup(match[i], strcspn(match[i], "="));

		g_variant_dict_insert_value(&dict, name,
		                            g_variant_new_string(match[i] + strlen(name) + 1));
	}
	return g_variant_dict_end(&dict);
}

static gboolean
make_settings(JoinctlContext *ctx, Import *im, GError **error)
{
	g_autoptr(EapConfigClientPem) client = NULL;
	g_autofree gchar *ca = NULL;
	g_autofree gchar *user = NULL;
	gchar *password = NULL;
	EapConfigCredentials c = {0};
	GError *local = NULL;

	if (im->method->cas->len > 0) {
		ca = eap_config_ca_pem(im->method->cas, &local);
		if (ca == NULL)
			return file_error(local, _("the server's CA"), error);
	}
	if (eap_config_method_uses_password(im->method)) {
		if (!password_credentials(ctx, im, &user, &password, error))
			return FALSE;
	} else if (!client_credentials(ctx, im, &client, error)) {
		return FALSE;
	}
	c.username = user != NULL ? user : ctx->secrets.username;
	c.password = password;
	c.ca_pem = ca;
	c.client = client;
	im->settings = g_variant_ref_sink(eap_config_profile_settings(im->method, &c));
	im->wired_settings = g_variant_ref_sink(with_match(im->settings, im->match));
	joinctl_secret_free(password);
	return TRUE;
}

/* ---- the daemon ------------------------------------------------------------ */

/* A listed setting's name as UpdateProfile unsets it: a secret is listed
 * as Group.HasKey; the SSID names the profile and stays. */
static gchar *
unset_name(const gchar *listed)
{
	const gchar *dot = strchr(listed, '.');

	if (g_str_equal(listed, "Settings.SSID") || dot == NULL)
		return NULL;
	if (g_str_has_prefix(dot + 1, "Has"))
		return g_strdup_printf("%.*s.%s", (int)(dot - listed), listed, dot + 4);
	return g_strdup(listed);
}

static void
note_existing(Target *t, const gchar *path, GVariant *settings)
{
	g_autoptr(GPtrArray) keys = g_ptr_array_new();
	GVariantIter iter;
	const gchar *key;

	g_variant_iter_init(&iter, settings);
	while (g_variant_iter_next(&iter, "{&sv}", &key, NULL)) {
		gchar *name = unset_name(key);

		if (name != NULL)
			g_ptr_array_add(keys, name);
	}
	g_ptr_array_add(keys, NULL);
	t->existing = g_strdup(path);
	t->existing_keys = (GStrv)g_ptr_array_steal(keys, NULL);
}

/* Which targets exist already: refused unless --replace. */
static gboolean
find_existing(JoinctlContext *ctx, Import *im, GError **error)
{
	g_autoptr(GVariant) reply = pm_call(ctx, "ListProfiles", NULL, error);
	g_autoptr(GString) taken = g_string_new(NULL);
	g_autoptr(GVariant) list = NULL;
	const gchar *path, *kind, *name;
	GVariant *settings;
	GVariantIter iter;

	if (reply == NULL)
		return FALSE;
	list = g_variant_get_child_value(reply, 0);
	g_variant_iter_init(&iter, list);
	while (g_variant_iter_next(&iter, "(&o&s&s@a{sv})", &path, &kind, &name, &settings)) {
		for (guint i = 0; i < im->targets->len; i++) {
			Target *t = g_ptr_array_index(im->targets, i);

			if (!g_str_equal(t->kind, kind) || !g_str_equal(t->name, name))
				continue;
			note_existing(t, path, settings);
			g_string_append_printf(taken, "%s%s '%s'", taken->len ? ", " : "", kind,
			                       name);
		}
		g_variant_unref(settings);
	}
	if (taken->len == 0 || ctx->profile.replace)
		return TRUE;
	g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_BUSY,
	            _("profiles by these names exist already: %s (--replace rewrites them)"),
	            taken->str);
	return FALSE;
}

/* The settings through the daemon's own check, once per kind. */
static gboolean
validate(JoinctlContext *ctx, Import *im, const gchar *kind, GError **error)
{
	GVariant *settings = g_str_equal(kind, "wired") ? im->wired_settings : im->settings;
	g_autoptr(GVariant) reply =
	        pm_call(ctx, "ValidateProfile", g_variant_new("(s@a{sv})", kind, settings), error);
	g_autofree gchar *joined = NULL;
	g_autofree const gchar **problems = NULL;

	if (reply == NULL)
		return FALSE;
	g_variant_get(reply, "(^a&s)", &problems);
	if (problems[0] == NULL)
		return TRUE;
	joined = g_strjoinv("\n  ", (gchar **)problems);
	g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
	            _("joind would refuse the %s profile made of this file:\n  %s"), kind, joined);
	return FALSE;
}

static gboolean
write_target(JoinctlContext *ctx, Import *im, Target *t, GError **error)
{
	g_autoptr(GVariant) reply = NULL;
	GVariant *settings = g_str_equal(t->kind, "wired") ? im->wired_settings : im->settings;

	if (t->existing != NULL) {
		reply = pm_call(
		        ctx, "UpdateProfile",
		        g_variant_new("(o@a{sv}^as)", t->existing, settings, t->existing_keys),
		        error);
		t->path = g_strdup(t->existing);
	} else {
		reply = pm_call(ctx, "CreateProfile",
		                g_variant_new("(ss@a{sv})", t->kind, t->name, settings), error);
		if (reply != NULL) {
			g_variant_get(reply, "(o)", &t->path);
			g_ptr_array_add(im->written, t);
		}
	}
	if (reply == NULL)
		g_prefix_error(error, "%s profile '%s': ", t->kind, t->name);
	return reply != NULL;
}

/* After a failed write: the profiles this run created go again (a
 * replaced one cannot come back, and says so in the error). */
static void
take_back(JoinctlContext *ctx, Import *im)
{
	for (guint i = 0; i < im->written->len; i++) {
		Target *t = g_ptr_array_index(im->written, i);
		g_autoptr(GError) error = NULL;
		g_autoptr(GVariant) reply =
		        pm_call(ctx, "DeleteProfile", g_variant_new("(o)", t->path), &error);
		g_autofree gchar *name = NULL;
		g_autofree gchar *why = NULL;

		if (reply == NULL) {
			name = joinctl_escape(t->name);
			why = joinctl_escape(error->message);
			g_printerr("joinctl: %s profile '%s' stays: %s\n", t->kind, name, why);
		}
	}
}

static gboolean
write_all(JoinctlContext *ctx, Import *im, GError **error)
{
	gboolean wired = FALSE, wifi = FALSE;

	for (guint i = 0; i < im->targets->len; i++) {
		Target *t = g_ptr_array_index(im->targets, i);

		wired = wired || g_str_equal(t->kind, "wired");
		wifi = wifi || !g_str_equal(t->kind, "wired");
	}
	if (!find_existing(ctx, im, error) || (wifi && !validate(ctx, im, "8021x", error)) ||
	    (wired && !validate(ctx, im, "wired", error)))
		return FALSE;
	im->written = g_ptr_array_new();
	for (guint i = 0; i < im->targets->len; i++) {
		if (!write_target(ctx, im, g_ptr_array_index(im->targets, i), error)) {
			take_back(ctx, im);
			return FALSE;
		}
	}
	return TRUE;
}

/* ---- output ---------------------------------------------------------------- */

/* The file's strings reach the terminal escaped (JSON escapes its own). */
static void
print_target(const Target *t)
{
	g_autofree gchar *name = joinctl_escape(t->name);

	printf(t->existing != NULL ? _("Replaced %s profile '%s' (%s).\n")
	                           : _("Created %s profile '%s' (%s).\n"),
	       t->kind, name, t->path);
}

static void
print_provider(const Import *im, const gchar *method)
{
	const EapConfigProvider *p = im->provider;
	g_autofree gchar *provider =
	        joinctl_escape(p->display_name != NULL ? p->display_name : p->id);

	printf(_("Imported %s with %s.\n"), provider != NULL ? provider : _("the provider"),
	       method);
}

static void
print_result(JoinctlContext *ctx, Import *im)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree gchar *method = eap_config_method_describe(im->method);
	g_autoptr(JsonNode) root = NULL;

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "provider", im->provider->id);
	joinctl_json_add_string(b, "display_name", im->provider->display_name);
	joinctl_json_add_string(b, "method", method);
	json_builder_set_member_name(b, "profiles");
	json_builder_begin_array(b);
	for (guint i = 0; i < im->targets->len; i++) {
		Target *t = g_ptr_array_index(im->targets, i);

		json_builder_begin_object(b);
		joinctl_json_add_string(b, "path", t->path);
		joinctl_json_add_string(b, "kind", t->kind);
		joinctl_json_add_string(b, "name", t->name);
		joinctl_json_add_bool(b, "replaced", t->existing != NULL);
		json_builder_end_object(b);
		if (!ctx->json)
			print_target(t);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	if (ctx->json)
		joinctl_print_json(root, TRUE);
	else
		print_provider(im, method);
}

static gboolean
match_arguments_valid(gchar **args)
{
	for (guint i = 0; args[i] != NULL; i++) {
		if (!g_str_has_prefix(args[i], "Match.") || strchr(args[i], '=') == NULL)
			return FALSE;
	}
	return TRUE;
}

/* A wired profile without [Match] applies to no port, and a server no CA
 * or name vouches for is refused: say what to do. */
static void
notes(Import *im)
{
	const EapConfigMethod *m = im->method;

	if (m->cas->len == 0 && m->server_ids->len == 0 && m->eap_type != EAP_CONFIG_EAP_PWD)
		g_printerr(_("joinctl: the file names no CA and no server: joind refuses the "
		             "network's server until you trust its key (joinctl known-networks "
		             "trust NAME after a refused connection)\n"));
	for (guint i = 0; im->match[0] == NULL && i < im->targets->len; i++) {
		Target *t = g_ptr_array_index(im->targets, i);

		/* A wired profile's name is checked: letters, digits, "-_.". */
		if (g_str_equal(t->kind, "wired") && t->existing == NULL)
			g_printerr(
			        _("joinctl: the wired profile '%s' applies to no port until it is "
			          "given one: joinctl profile set %s Match.Interface=GLOB\n"),
			        t->name, t->name);
	}
}

/* Errors quote the file's strings: they reach the terminal escaped too. */
static int
report_escaped(GError *error)
{
	gchar *shown;

	/* Every caller failed with an error set. */
	g_return_val_if_fail(error != NULL, 1);
	shown = joinctl_escape(error->message);
	g_free(error->message);
	error->message = shown;
	return joinctl_report(error);
}

int
joinctl_cmd_import(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	Import im = {0};
	int code = JOINCTL_EXIT_OK;

	if (args[0] == NULL || !match_arguments_valid(args + 1))
		return joinctl_usage_error(_("usage: joinctl import FILE.eap-config "
		                             "[Match.Interface=GLOB | Match.MACAddress=MAC]... "
		                             "[--username USER] [--replace]"));
	im.match = args + 1;
	if (ctx->secrets.passphrase != NULL || ctx->secrets.password != NULL ||
	    ctx->secrets.key_passphrase != NULL)
		return joinctl_usage_error(
		        _("import takes no secret from the command line: joinctl asks, or "
		          "use --passphrase-file or --passphrase-from-env"));
	if (!read_file(&im, args[0], &error) || !make_targets(&im, args[0], &error) ||
	    !make_settings(ctx, &im, &error) || !joinctl_context_connect(ctx, TRUE, &error) ||
	    !write_all(ctx, &im, &error)) {
		code = report_escaped(error);
	} else {
		print_result(ctx, &im);
		notes(&im);
	}
	import_clear(&im);
	return code;
}
