/* joind-profile-name.c - profile file names: iwd's rule for SSIDs
 * (<ssid>.<type>, or =<hex>.<type> for SSIDs that are not plain), and
 * which names in the state directory are meant as profiles. */
#include "joind-profile-name.h"

#include <string.h>

#include "joind-profile-private.h"

#define SSID_MAX_LEN 32

static gboolean
ssid_is_plain(const guint8 *ssid, gsize len)
{
	if (len == 0)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isalnum(ssid[i]) && ssid[i] != '-' && ssid[i] != '_' && ssid[i] != ' ')
			return FALSE;
	}
	return TRUE;
}

gchar *
joind_profile_ssid_to_filename(const guint8 *ssid, gsize ssid_len, JoindProfileType type)
{
	g_autofree gchar *hex = NULL;
	const gchar *ext = joind_profile_type_to_extension(type);

	if (ssid == NULL || ssid_len == 0 || ssid_len > SSID_MAX_LEN || ext == NULL ||
	    type == JOIND_PROFILE_TYPE_WIRED)
		return NULL;
	if (ssid_is_plain(ssid, ssid_len))
		return g_strdup_printf("%.*s.%s", (int)ssid_len, (const gchar *)ssid, ext);
	hex = joind_ssid_hex(ssid, ssid_len);
	return g_strdup_printf("=%s.%s", hex, ext);
}

static gboolean
extension_to_type(const gchar *ext, JoindProfileType *type)
{
	if (strcmp(ext, "open") == 0)
		*type = JOIND_PROFILE_TYPE_OPEN;
	else if (strcmp(ext, "psk") == 0)
		*type = JOIND_PROFILE_TYPE_PSK;
	else if (strcmp(ext, "8021x") == 0)
		*type = JOIND_PROFILE_TYPE_8021X;
	else
		return FALSE;
	return TRUE;
}

/* Lower-case hex only: the one spelling joind and iwd write. */
static GBytes *
hex_decode_canonical(const gchar *hex, gsize len)
{
	guint8 buf[SSID_MAX_LEN];

	if (len == 0 || len % 2 != 0 || len / 2 > SSID_MAX_LEN)
		return NULL;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isdigit(hex[i]) && (hex[i] < 'a' || hex[i] > 'f'))
			return NULL;
	}
	for (gsize i = 0; i < len / 2; i++)
		buf[i] = (guint8)(g_ascii_xdigit_value(hex[2 * i]) << 4 |
		                  g_ascii_xdigit_value(hex[2 * i + 1]));
	return g_bytes_new(buf, len / 2);
}

/* A near miss: the name ends like a profile but its first '.' is in the
 * SSID. Says which name the file should have. */
static gboolean
dotted_name_problem(const gchar *basename, gchar **problem)
{
	const gchar *dot = strrchr(basename, '.');
	JoindProfileType type;
	g_autofree gchar *wanted = NULL;

	if (dot == NULL || !extension_to_type(dot + 1, &type))
		return FALSE;
	wanted = joind_profile_ssid_to_filename((const guint8 *)basename, (gsize)(dot - basename),
	                                        type);
	*problem = wanted != NULL
	                   ? g_strdup_printf("not a profile name: an SSID holding “.” is written "
	                                     "in hex; name this file “%s”",
	                                     wanted)
	                   : g_strdup("not a profile name: an SSID has at most 32 bytes");
	return FALSE;
}

static gboolean
hex_name_problem(GBytes *ssid, JoindProfileType type, gchar **problem)
{
	g_autofree gchar *wanted = NULL;

	if (ssid == NULL) {
		*problem = g_strdup("not a profile name: “=” must be followed by the SSID in "
		                    "lower-case hexadecimal (2 to 64 digits)");
		return FALSE;
	}
	wanted = joind_profile_ssid_to_filename(g_bytes_get_data(ssid, NULL),
	                                        g_bytes_get_size(ssid), type);
	*problem = g_strdup_printf("not a profile name: this SSID is written as it is; name this "
	                           "file “%s”",
	                           wanted);
	return FALSE;
}

/* FALSE with *problem NULL: not meant as a profile (other files, temporary
 * files, editor backups). FALSE with *problem set: meant as one, but not a
 * name joind can use; the sentence says why. */
gboolean
joind_profile_network_basename_parse(const gchar *basename, GBytes **ssid_out,
                                     JoindProfileType *type_out, gchar **problem)
{
	const gchar *dot = strchr(basename, '.');
	gsize stem_len = dot != NULL ? (gsize)(dot - basename) : 0;
	g_autoptr(GBytes) ssid = NULL;
	JoindProfileType type;

	*problem = NULL;
	if (dot == NULL || stem_len == 0)
		return FALSE; /* also hidden files, such as our temporary ones */
	if (!extension_to_type(dot + 1, &type))
		return dotted_name_problem(basename, problem);
	if (basename[0] == '=') {
		ssid = hex_decode_canonical(basename + 1, stem_len - 1);
		if (ssid == NULL ||
		    ssid_is_plain(g_bytes_get_data(ssid, NULL), g_bytes_get_size(ssid)))
			return hex_name_problem(ssid, type, problem);
	} else if (ssid_is_plain((const guint8 *)basename, stem_len) && stem_len <= SSID_MAX_LEN) {
		ssid = g_bytes_new(basename, stem_len);
	} else {
		g_autofree gchar *wanted =
		        joind_profile_ssid_to_filename((const guint8 *)basename, stem_len, type);
		*problem = wanted != NULL
		                   ? g_strdup_printf("not a profile name: SSIDs with other "
		                                     "characters than letters, digits, spaces, "
		                                     "“-” and “_” are written in hex; name this "
		                                     "file “%s”",
		                                     wanted)
		                   : g_strdup("not a profile name: an SSID has at most 32 bytes");
		return FALSE;
	}
	if (ssid_out != NULL)
		*ssid_out = g_steal_pointer(&ssid);
	if (type_out != NULL)
		*type_out = type;
	return TRUE;
}

gboolean
joind_profile_filename_to_ssid(const gchar *basename, GBytes **ssid, JoindProfileType *type)
{
	g_autofree gchar *problem = NULL;

	g_return_val_if_fail(basename != NULL, FALSE);
	return joind_profile_network_basename_parse(basename, ssid, type, &problem);
}

/* wired/<name>.8021x: any name that is not hidden. */
gboolean
joind_profile_wired_basename_is_profile(const gchar *basename)
{
	return basename[0] != '.' && g_str_has_suffix(basename, ".8021x") &&
	       strlen(basename) > strlen(".8021x");
}
