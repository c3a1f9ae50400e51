/* joinctl-client-key.c - where a profile's EAP client key lives, in words
 * for `known-networks show` and `wired show`: "key on token 'LABEL'
 * (PKCS#11)" or "key in the TPM". From ListProfiles, which never returns
 * a PIN (a pkcs11: URI's pin-value is cut away by joind); a key in a file
 * is not mentioned. */
#include "config.h"

#include <string.h>

#include "joinctl.h"

#define PM_IFACE "net.joind.ProfileManager1"

/* The token's label from an RFC 7512 URI ("pkcs11:token=My%20Card;..."). */
static gchar *
token_label(const gchar *uri)
{
	const gchar *path = uri + strlen("pkcs11:");
	g_autofree gchar *attrs = g_strndup(path, strcspn(path, "?"));
	g_auto(GStrv) parts = g_strsplit(attrs, ";", -1);

	for (guint i = 0; parts[i] != NULL; i++) {
		if (g_str_has_prefix(parts[i], "token="))
			return g_uri_unescape_string(parts[i] + strlen("token="), NULL);
	}
	return NULL;
}

/* A key file made by the tpm2 provider says so in its first line. */
static gboolean
file_is_tss2(const gchar *path)
{
	g_autoptr(GFile) file = g_file_new_for_path(path);
	g_autoptr(GFileInputStream) in = g_file_read(file, NULL, NULL);
	gchar head[64] = "";

	if (in == NULL ||
	    !g_input_stream_read_all(G_INPUT_STREAM(in), head, sizeof(head) - 1, NULL, NULL, NULL))
		return FALSE;
	return strstr(head, "-----BEGIN TSS2 PRIVATE KEY-----") != NULL;
}

static gchar *
describe_key_value(const gchar *value)
{
	g_autofree gchar *label = NULL;

	if (g_ascii_strncasecmp(value, "pkcs11:", strlen("pkcs11:")) == 0) {
		label = token_label(value);
		return label != NULL ? g_strdup_printf(_("key on token '%s' (PKCS#11)"), label)
		                     : g_strdup(_("key on a PKCS#11 token"));
	}
	if (g_str_has_prefix(value, "handle:") ||
	    (g_path_is_absolute(value) && file_is_tss2(value)))
		return g_strdup(_("key in the TPM"));
	return NULL;
}

/* The first client key of the settings (EAP-TLS-ClientKey, or a tunnel's). */
static gchar *
describe_settings(GVariant *settings)
{
	GVariantIter iter;
	const gchar *name;
	GVariant *value;

	g_variant_iter_init(&iter, settings);
	while (g_variant_iter_next(&iter, "{&sv}", &name, &value)) {
		g_autoptr(GVariant) owned G_GNUC_UNUSED = value; /* freed each turn */
		if (g_str_has_prefix(name, "Security.EAP-") &&
		    g_str_has_suffix(name, "-ClientKey") &&
		    g_variant_is_of_type(value, G_VARIANT_TYPE_STRING))
			return describe_key_value(g_variant_get_string(value, NULL));
	}
	return NULL;
}

gchar *
joinctl_client_key_text(JoinctlContext *ctx, const gchar *profile_path, const gchar *kind,
                        const gchar *name)
{
	g_autoptr(GVariant) reply =
	        joinctl_call_path(ctx, JOINCTL_ROOT_PATH, PM_IFACE, "ListProfiles", NULL, -1, NULL);
	g_autoptr(GVariant) list = NULL;
	GVariantIter iter;
	const gchar *path, *p_kind, *p_name;
	GVariant *settings;

	if (reply == NULL)
		return NULL;
	list = g_variant_get_child_value(reply, 0);
	g_variant_iter_init(&iter, list);
	while (g_variant_iter_next(&iter, "(&o&s&s@a{sv})", &path, &p_kind, &p_name, &settings)) {
		g_autoptr(GVariant) owned G_GNUC_UNUSED = settings; /* freed each turn */
		if (g_strcmp0(path, profile_path) == 0 ||
		    (g_strcmp0(p_kind, kind) == 0 && g_strcmp0(p_name, name) == 0))
			return describe_settings(settings);
	}
	return NULL;
}
