/* joinctl-profile-settings.c - the settings of `joinctl profile create|set|
 * validate`, from the command line to ProfileManager1's a{sv}:
 *   Group.Key=VALUE     a string (the file spells booleans and numbers so)
 *   Group.Key           a secret, asked for without echo, or read from
 *                       --passphrase-file or the variable --passphrase-from-env
 *                       names; never taken from the command line itself
 *   --embed Group.Key=FILE   FILE's bytes (PEM text to embed, or a PKCS#12
 *                            key bundle, which joind keeps beside the profile)
 *   --ssid-hex HEX      Settings.SSID, for SSIDs that are not UTF-8
 */
#include "config.h"

#include <string.h>

#include "joinctl.h"

/* The daemon's rule for what it never gives back. */
static gboolean
key_is_secret(const gchar *name)
{
	const gchar *key = strchr(name, '.') != NULL ? strchr(name, '.') + 1 : name;

	return strstr(key, "Passphrase") != NULL || strstr(key, "Password") != NULL ||
	       strstr(key, "PreSharedKey") != NULL || strstr(key, "Secret") != NULL ||
	       g_str_has_suffix(key, "-Hash") || g_str_has_prefix(key, "SAE-PT");
}

static gchar *
secret_from_terminal(JoinctlContext *ctx, const gchar *name, GError **error)
{
	g_autofree gchar *question = g_strdup_printf(_("%s (not shown): "), name);
	g_autofree gchar *no_terminal =
	        g_strdup_printf(_("%s is a secret and there is no terminal to ask for it: use "
	                          "--passphrase-file FILE or --passphrase-from-env VAR"),
	                        name);

	return joinctl_prompt_line(ctx, question, FALSE, name, no_terminal, error);
}

/* The first line of the file, without its line end. */
static gchar *
secret_from_file(const gchar *path, GError **error)
{
	gchar *text = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, error))
		return NULL;
	text[strcspn(text, "\r\n")] = '\0';
	if (strlen(text) + 1 < len)
		explicit_bzero(text + strlen(text) + 1, len - strlen(text) - 1);
	return text;
}

gchar *
joinctl_profile_secret(JoinctlContext *ctx, const gchar *name, GError **error)
{
	const gchar *env;

	if (ctx->profile.passphrase_file != NULL)
		return secret_from_file(ctx->profile.passphrase_file, error);
	if (ctx->profile.passphrase_env == NULL)
		return secret_from_terminal(ctx, name, error);
	env = g_getenv(ctx->profile.passphrase_env);
	if (env == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("the variable %s (--passphrase-from-env) is not set"),
		            ctx->profile.passphrase_env);
		return NULL;
	}
	return g_strdup(env);
}

static gboolean
add_secret(JoinctlContext *ctx, GVariantDict *dict, const gchar *name, GError **error)
{
	gchar *value = joinctl_profile_secret(ctx, name, error);

	if (value == NULL)
		return FALSE;
	g_variant_dict_insert_value(dict, name, g_variant_new_string(value));
	joinctl_secret_free(value);
	return TRUE;
}

static gboolean
add_argument(JoinctlContext *ctx, GVariantDict *dict, const gchar *arg, GError **error)
{
	const gchar *eq = strchr(arg, '=');
	g_autofree gchar *name = eq != NULL ? g_strndup(arg, (gsize)(eq - arg)) : g_strdup(arg);

	if (strchr(name, '.') == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("'%s' is not a setting: expected Group.Key=VALUE (such as "
		              "Security.EAP-Method=TLS)"),
		            name);
		return FALSE;
	}
	if (key_is_secret(name) && eq != NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("%s is a secret: name it without a value and joinctl asks for it "
		              "(or reads --passphrase-file or --passphrase-from-env)"),
		            name);
		return FALSE;
	}
	if (key_is_secret(name))
		return add_secret(ctx, dict, name, error);
	if (eq == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("'%s' has no value: expected Group.Key=VALUE"), arg);
		return FALSE;
	}
	g_variant_dict_insert_value(dict, name, g_variant_new_string(eq + 1));
	return TRUE;
}

static gboolean
add_embedded(GVariantDict *dict, const gchar *arg, GError **error)
{
	const gchar *eq = strchr(arg, '=');
	g_autofree gchar *name = eq != NULL ? g_strndup(arg, (gsize)(eq - arg)) : NULL;
	gchar *data = NULL;
	gsize len = 0;

	if (name == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("--embed takes Group.Key=FILE, not '%s'"), arg);
		return FALSE;
	}
	if (!g_file_get_contents(eq + 1, &data, &len, error))
		return FALSE;
	g_variant_dict_insert_value(
	        dict, name,
	        g_variant_new_from_data(G_VARIANT_TYPE_BYTESTRING, data, len, TRUE, g_free, data));
	return TRUE;
}

static gboolean
add_ssid_hex(GVariantDict *dict, const gchar *hex, GError **error)
{
	gsize len = strlen(hex);
	g_autoptr(GByteArray) ssid = g_byte_array_new();

	for (gsize i = 0; i + 1 < len && len % 2 == 0; i += 2) {
		if (!g_ascii_isxdigit(hex[i]) || !g_ascii_isxdigit(hex[i + 1]))
			break;
		guint8 byte = (guint8)(g_ascii_xdigit_value(hex[i]) << 4 |
		                       g_ascii_xdigit_value(hex[i + 1]));
		g_byte_array_append(ssid, &byte, 1);
	}
	if (len == 0 || ssid->len * 2 != len) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("--ssid-hex takes the SSID's bytes in hexadecimal, not '%s'"), hex);
		return FALSE;
	}
	g_variant_dict_insert_value(
	        dict, "Settings.SSID",
	        g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, ssid->data, ssid->len, 1));
	return TRUE;
}

/* A psk or an access point (ap) profile needs a passphrase: asked for
 * when none is named. */
static gboolean
needs_passphrase(const gchar *kind, gchar **args)
{
	if (g_strcmp0(kind, "psk") != 0 && g_strcmp0(kind, "ap") != 0)
		return FALSE;
	for (guint i = 0; args[i] != NULL; i++) {
		if (g_str_has_prefix(args[i], "Security.Passphrase") ||
		    g_str_has_prefix(args[i], "Security.PreSharedKey"))
			return FALSE;
	}
	return TRUE;
}

GVariant *
joinctl_profile_settings(JoinctlContext *ctx, const gchar *kind, gchar **args, GError **error)
{
	GVariantDict dict;
	gboolean ok = TRUE;

	g_variant_dict_init(&dict, NULL);
	for (guint i = 0; ok && args[i] != NULL; i++)
		ok = add_argument(ctx, &dict, args[i], error);
	for (guint i = 0; ok && ctx->profile.embed != NULL && ctx->profile.embed[i] != NULL; i++)
		ok = add_embedded(&dict, ctx->profile.embed[i], error);
	if (ok && ctx->profile.ssid_hex != NULL)
		ok = add_ssid_hex(&dict, ctx->profile.ssid_hex, error);
	if (ok && needs_passphrase(kind, args))
		ok = add_secret(ctx, &dict, "Security.Passphrase", error);
	if (!ok) {
		g_variant_dict_clear(&dict);
		return NULL;
	}
	return g_variant_ref_sink(g_variant_dict_end(&dict));
}
