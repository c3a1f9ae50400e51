/* joind-keyfile.c - key files with line-accurate errors. */
#include "joind-keyfile.h"

#include <string.h>

/* A key is what GKeyFile accepts before '=': printable, no '[' or '='. */
static gboolean
line_is_key_value(const gchar *line)
{
	const gchar *eq = strchr(line, '=');

	if (eq == NULL || eq == line)
		return FALSE;
	for (const gchar *p = line; p < eq; p++) {
		if (*p == '[' || (guchar)*p < 0x20)
			return FALSE;
	}
	return TRUE;
}

static gboolean
line_is_group(const gchar *line)
{
	gsize len = strlen(line);

	return len > 2 && line[0] == '[' && line[len - 1] == ']' &&
	       strpbrk(line + 1, "[") == NULL && memchr(line + 1, ']', len - 2) == NULL;
}

/* Returns the 1-based number of the first line GKeyFile would reject. */
static guint
keyfile_first_bad_line(const gchar *data, const gchar **reason)
{
	g_auto(GStrv) lines = g_strsplit(data, "\n", -1);
	gboolean in_group = FALSE;

	for (guint i = 0; lines[i] != NULL; i++) {
		g_autofree gchar *line = g_strstrip(g_strdup(lines[i]));

		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (line[0] == '[') {
			if (!line_is_group(line)) {
				*reason = "malformed group header";
				return i + 1;
			}
			in_group = TRUE;
			continue;
		}
		if (!line_is_key_value(line)) {
			*reason = "expected “Key=Value”, a [Group] or a # comment";
			return i + 1;
		}
		if (!in_group) {
			*reason = "key outside of any [Group]";
			return i + 1;
		}
	}
	return 0;
}

GKeyFile *
joind_keyfile_load_data(const gchar *path, const gchar *data, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	const gchar *reason = NULL;
	guint bad;

	if (!g_utf8_validate(data, -1, NULL)) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_UNKNOWN_ENCODING,
		            "%s: the file is not valid UTF-8", path);
		return NULL;
	}
	bad = keyfile_first_bad_line(data, &reason);
	if (bad > 0) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE, "%s:%u: %s", path, bad,
		            reason);
		return NULL;
	}
	if (!g_key_file_load_from_data(kf, data, -1, G_KEY_FILE_KEEP_COMMENTS, &local)) {
		g_set_error(error, G_KEY_FILE_ERROR, local->code, "%s: %s", path, local->message);
		return NULL;
	}
	return g_steal_pointer(&kf);
}

GKeyFile *
joind_keyfile_load(const gchar *path, gchar **contents, GError **error)
{
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	GKeyFile *kf;

	if (!g_file_get_contents(path, &data, NULL, &local)) {
		g_set_error(error, G_FILE_ERROR, local->code, "%s: %s", path, local->message);
		return NULL;
	}
	kf = joind_keyfile_load_data(path, data, error);
	if (kf != NULL && contents != NULL)
		*contents = g_steal_pointer(&data);
	return kf;
}

guint
joind_keyfile_find_line(const gchar *contents, const gchar *group, const gchar *key)
{
	g_auto(GStrv) lines = NULL;
	g_autofree gchar *header = g_strdup_printf("[%s]", group);
	gboolean in_group = FALSE;

	if (contents == NULL)
		return 0;
	lines = g_strsplit(contents, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_autofree gchar *line = g_strstrip(g_strdup(lines[i]));
		const gchar *eq;

		if (line[0] == '[') {
			in_group = g_strcmp0(line, header) == 0;
			if (in_group && key == NULL)
				return i + 1;
			continue;
		}
		if (!in_group || key == NULL || (eq = strchr(line, '=')) == NULL)
			continue;
		if ((gsize)(eq - line) >= strlen(key) && strncmp(line, key, strlen(key)) == 0) {
			const gchar *p = line + strlen(key);
			while (p < eq && (*p == ' ' || *p == '\t'))
				p++;
			if (p == eq)
				return i + 1;
		}
	}
	return 0;
}
