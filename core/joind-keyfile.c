/* joind-keyfile.c - key files with line-accurate errors.
 *
 * The text is checked line by line before GKeyFile sees it, with the rules
 * GKeyFile applies (plus iwd's stricter key names), so that every syntax
 * error can name its line. Error messages never quote a line: a line that
 * is not "Key=Value" may well be a passphrase pasted in the wrong place.
 * The text holds secrets, so every copy made here is wiped before freeing.
 */
#include "joind-keyfile.h"

#include <string.h>

#include "joind-secret.h"

#define PEM_GROUP_PREFIX "@pem@"
#define PEM_PREFIX_LEN   (sizeof(PEM_GROUP_PREFIX) - 1)

typedef struct {
	GString *filtered; /* what GKeyFile gets: the text minus embedded PEMs */
	GHashTable *pems;  /* name -> GString, NULL until the first PEM */
	GString *pem;      /* the embedded PEM being collected, or NULL */
	gchar *first_group;
	gboolean in_group;
} KeyfileScan;

static void
wipe_gstring(gpointer data)
{
	GString *s = data;

	joind_secret_clear(s->str, s->len);
	g_string_free(s, TRUE);
}

static void
trim(const gchar **start, const gchar **end)
{
	while (*start < *end && g_ascii_isspace(**start))
		(*start)++;
	while (*end > *start && g_ascii_isspace((*end)[-1]))
		(*end)--;
}

/* iwd's rule (letters, digits, '-', '_', '.'): stricter than GKeyFile's, and
 * it catches "Auto Connect=" style typos. */
static gboolean
key_name_is_valid(const gchar *key, gsize len)
{
	if (len == 0)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isalnum(key[i]) && key[i] != '-' && key[i] != '_' && key[i] != '.')
			return FALSE;
	}
	return TRUE;
}

/* GKeyFile's rule: no brackets, no control characters, not empty. */
static gboolean
group_name_is_valid(const gchar *name, gsize len)
{
	if (len == 0)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (name[i] == '[' || name[i] == ']' || g_ascii_iscntrl(name[i]))
			return FALSE;
	}
	return TRUE;
}

static gboolean
scan_pem_header(KeyfileScan *scan, const gchar *name, gsize len, const gchar **reason)
{
	g_autofree gchar *pem_name = g_strndup(name, len);

	if (len == 0) {
		*reason = "an embedded PEM group needs a name: [@pem@name]";
		return FALSE;
	}
	if (scan->pems == NULL)
		scan->pems = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, wipe_gstring);
	if (g_hash_table_contains(scan->pems, pem_name)) {
		*reason = "this embedded PEM name is already used above";
		return FALSE;
	}
	scan->pem = g_string_new(NULL);
	g_hash_table_insert(scan->pems, g_steal_pointer(&pem_name), scan->pem);
	return TRUE;
}

static gboolean
scan_header(KeyfileScan *scan, const gchar *s, const gchar *e, const gchar **reason)
{
	const gchar *name = s + 1;
	gsize len;

	if (e - s < 2 || e[-1] != ']') {
		*reason = "malformed group header: expected “[Name]”";
		return FALSE;
	}
	len = (gsize)(e - s) - 2;
	if (!group_name_is_valid(name, len)) {
		*reason = len == 0 ? "empty group name"
		                   : "group names cannot hold brackets or "
		                     "control characters";
		return FALSE;
	}
	scan->pem = NULL;
	if (len >= PEM_PREFIX_LEN && strncmp(name, PEM_GROUP_PREFIX, PEM_PREFIX_LEN) == 0 &&
	    !scan_pem_header(scan, name + PEM_PREFIX_LEN, len - PEM_PREFIX_LEN, reason))
		return FALSE;
	if (scan->first_group == NULL)
		scan->first_group = g_strndup(name, len);
	scan->in_group = TRUE;
	g_string_append_len(scan->filtered, s, e - s);
	return TRUE;
}

static gboolean
scan_key_value(KeyfileScan *scan, const gchar *line, const gchar *line_end, const gchar *s,
               const gchar *e, const gchar **reason)
{
	const gchar *eq = memchr(s, '=', (gsize)(e - s));
	const gchar *key_end = eq;

	if (eq == NULL) {
		*reason = "expected “Key=Value”, a [Group] or a # comment";
		return FALSE;
	}
	while (key_end > s && g_ascii_isspace(key_end[-1]))
		key_end--;
	if (key_end == s) {
		*reason = "the key before “=” is missing";
		return FALSE;
	}
	if (!key_name_is_valid(s, (gsize)(key_end - s))) {
		*reason = "invalid key name (keys are made of letters, digits, “-”, “_” and “.”)";
		return FALSE;
	}
	if (!scan->in_group) {
		*reason = "key outside of any [Group]";
		return FALSE;
	}
	/* The raw line: GKeyFile keeps a value's trailing spaces, iwd too. */
	g_string_append_len(scan->filtered, line, line_end - line);
	return TRUE;
}

static gboolean
scan_line(KeyfileScan *scan, const gchar *line, const gchar *line_end, const gchar **reason)
{
	const gchar *s = line, *e = line_end;
	gboolean ok = TRUE;

	trim(&s, &e);
	if (s == e || *s == '#') {
		if (scan->pem == NULL)
			g_string_append_len(scan->filtered, line, line_end - line);
	} else if (*s == '[') {
		ok = scan_header(scan, s, e, reason);
	} else if (scan->pem != NULL) {
		g_string_append_len(scan->pem, s, e - s);
		g_string_append_c(scan->pem, '\n');
	} else {
		ok = scan_key_value(scan, line, line_end, s, e, reason);
	}
	/* One line out for one line in, so GKeyFile's view keeps the numbering. */
	g_string_append_c(scan->filtered, '\n');
	return ok;
}

static guint
line_of_offset(const gchar *data, gsize offset)
{
	guint line = 1;

	for (gsize i = 0; i < offset; i++) {
		if (data[i] == '\n')
			line++;
	}
	return line;
}

static gboolean
check_encoding(const gchar *path, const gchar *text, gsize len, GError **error)
{
	const gchar *nul = memchr(text, '\0', len);
	const gchar *bad = NULL;

	if (nul != NULL) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE,
		            "%s:%u: the file holds a NUL byte: it is not a text file", path,
		            line_of_offset(text, (gsize)(nul - text)));
		return FALSE;
	}
	if (!g_utf8_validate_len(text, len, &bad)) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_UNKNOWN_ENCODING,
		            "%s:%u: the text is not valid UTF-8", path,
		            line_of_offset(text, (gsize)(bad - text)));
		return FALSE;
	}
	return TRUE;
}

static gboolean
scan_text(KeyfileScan *scan, const gchar *path, const gchar *text, gsize len, GError **error)
{
	const gchar *p = text, *end = text + len;
	const gchar *reason = NULL;
	guint lineno = 0;

	for (;;) {
		const gchar *nl = memchr(p, '\n', (gsize)(end - p));
		const gchar *eol = nl != NULL ? nl : end;

		lineno++;
		if (!scan_line(scan, p, eol, &reason)) {
			g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE, "%s:%u: %s",
			            path, lineno, reason);
			return FALSE;
		}
		if (nl == NULL)
			return TRUE;
		p = nl + 1;
	}
}

/* What GKeyFile rejects after our scan passed: only "Encoding=" in the
 * first group with another value than UTF-8. Its message is not reused, as
 * GKeyFile messages may quote text from the file. */
static void
set_gkeyfile_error(const gchar *path, const gchar *text, const gchar *first_group,
                   const GError *local, GError **error)
{
	if (g_error_matches(local, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_UNKNOWN_ENCODING)) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_UNKNOWN_ENCODING,
		            "%s:%u: Encoding= may only be UTF-8", path,
		            first_group != NULL
		                    ? joind_keyfile_find_line(text, first_group, "Encoding")
		                    : 0);
		return;
	}
	g_set_error(error, G_KEY_FILE_ERROR, local->code, "%s: not a valid key file", path);
}

static GHashTable *
pems_to_strings(GHashTable *pems)
{
	GHashTable *out = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                        (GDestroyNotify)joind_secret_wipe);
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, pems);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		GString *s = value;
		g_hash_table_insert(out, g_strdup(key), g_strndup(s->str, s->len));
	}
	return out;
}

GKeyFile *
joind_keyfile_parse(const gchar *path, const guint8 *data, gsize len, GHashTable **pems,
                    GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	g_autofree gchar *text = g_strndup((const gchar *)data, len);
	KeyfileScan scan = {.filtered = g_string_sized_new(len + 1)};
	gboolean ok;

	ok = check_encoding(path, (const gchar *)data, len, error) &&
	     scan_text(&scan, path, (const gchar *)data, len, error);
	if (ok && !g_key_file_load_from_data(kf, scan.filtered->str, scan.filtered->len,
	                                     G_KEY_FILE_KEEP_COMMENTS, &local)) {
		set_gkeyfile_error(path, text, scan.first_group, local, error);
		ok = FALSE;
	}
	if (ok && pems != NULL)
		*pems = scan.pems != NULL ? pems_to_strings(scan.pems) : NULL;
	wipe_gstring(scan.filtered);
	g_clear_pointer(&scan.pems, g_hash_table_unref);
	g_free(scan.first_group);
	joind_secret_clear(text, len);
	return ok ? g_steal_pointer(&kf) : NULL;
}

GKeyFile *
joind_keyfile_load_data(const gchar *path, const gchar *data, GError **error)
{
	return joind_keyfile_parse(path, (const guint8 *)data, strlen(data), NULL, error);
}

/* Does the trimmed line [s, e) read "key = ..."? */
static gboolean
line_sets_key(const gchar *s, const gchar *e, const gchar *key)
{
	gsize key_len = strlen(key);

	if ((gsize)(e - s) <= key_len || strncmp(s, key, key_len) != 0)
		return FALSE;
	s += key_len;
	while (s < e && g_ascii_isspace(*s)) /* as GKeyFile trims a key */
		s++;
	return s < e && *s == '=';
}

static gboolean
line_is_header(const gchar *s, const gchar *e, const gchar *group)
{
	gsize group_len = strlen(group);

	return (gsize)(e - s) == group_len + 2 && s[0] == '[' && e[-1] == ']' &&
	       strncmp(s + 1, group, group_len) == 0;
}

guint
joind_keyfile_find_line(const gchar *contents, const gchar *group, const gchar *key)
{
	const gchar *p = contents;
	gboolean in_group = FALSE;
	guint lineno = 0, found = 0;

	if (contents == NULL || group == NULL)
		return 0;
	while (p != NULL) {
		const gchar *nl = strchr(p, '\n');
		const gchar *s = p, *e = nl != NULL ? nl : p + strlen(p);

		lineno++;
		trim(&s, &e);
		if (s < e && *s == '[') {
			in_group = line_is_header(s, e, group);
			if (in_group && key == NULL)
				return lineno;
		} else if (in_group && key != NULL && line_sets_key(s, e, key)) {
			found = lineno;
		}
		p = nl != NULL ? nl + 1 : NULL;
	}
	return found;
}

/* A value as GKeyFile writes one (a leading space, control characters and
 * backslashes escaped), so that the file reads back the same string. Done
 * here rather than through a GKeyFile, whose copies would be freed
 * unwiped. */
static gchar *
escape_value(const gchar *value)
{
	/* Sized for the worst case: a GString that grows frees its old
	 * buffer unwiped. */
	GString *out = g_string_sized_new(strlen(value) * 2 + 1);

	for (const gchar *c = value; *c != '\0'; c++) {
		switch (*c) {
		case ' ':
			g_string_append(out, c == value ? "\\s" : " ");
			break;
		case '\n':
			g_string_append(out, "\\n");
			break;
		case '\t':
			g_string_append(out, "\\t");
			break;
		case '\r':
			g_string_append(out, "\\r");
			break;
		case '\\':
			g_string_append(out, "\\\\");
			break;
		default:
			g_string_append_c(out, *c);
			break;
		}
	}
	return g_string_free(out, FALSE);
}

static void
append_setting(GString *out, gssize pos, const gchar *key, const gchar *value)
{
	g_autofree gchar *escaped = escape_value(value);
	g_autofree gchar *line = g_strconcat(key, "=", escaped, "\n", NULL);

	if (pos < 0)
		g_string_append(out, line);
	else
		g_string_insert(out, pos, line);
	joind_secret_wipe(g_steal_pointer(&escaped));
	joind_secret_wipe(g_steal_pointer(&line));
}

/* Copies the lines of text to out, rewriting those that set one of keys in
 * group; done[i] tells which keys were found. Returns where a key the group
 * lacks goes (after its last setting, or its header), -1 without group. */
static gssize
rewrite_lines(GString *out, const gchar *text, const gchar *group, const gchar *const *keys,
              const gchar *const *values, gboolean *done)
{
	const gchar *p = text;
	gboolean in_group = FALSE;
	gssize insert_at = -1;

	while (*p != '\0') {
		const gchar *nl = strchr(p, '\n');
		const gchar *eol = nl != NULL ? nl : p + strlen(p);
		const gchar *s = p, *e = eol;
		gboolean replaced = FALSE;

		trim(&s, &e);
		if (s < e && *s == '[')
			in_group = line_is_header(s, e, group);
		for (guint i = 0; in_group && *s != '[' && keys[i] != NULL && !replaced; i++) {
			if (line_sets_key(s, e, keys[i])) {
				append_setting(out, -1, keys[i], values[i]);
				done[i] = replaced = TRUE;
			}
		}
		if (!replaced) {
			g_string_append_len(out, p, eol - p);
			g_string_append_c(out, '\n');
		}
		if (in_group && s < e && *s != '#')
			insert_at = (gssize)out->len;
		p = nl != NULL ? nl + 1 : eol;
	}
	return insert_at;
}

gchar *
joind_keyfile_set_strings(const gchar *data, gsize len, const gchar *group,
                          const gchar *const *keys, const gchar *const *values, gsize *out_len)
{
	g_autofree gchar *text = g_strndup(data, len);
	guint n = g_strv_length((gchar **)keys);
	g_autofree gboolean *done = g_new0(gboolean, n + 1);
	gsize need = len + strlen(group) + 6;
	GString *out;
	gssize insert_at;

	/* Room for everything up front, as in escape_value(). */
	for (guint i = 0; i < n; i++)
		need += strlen(keys[i]) + 2 * strlen(values[i]) + 2;
	out = g_string_sized_new(need);

	insert_at = rewrite_lines(out, text, group, keys, values, done);
	if (insert_at < 0) {
		if (out->len > 0 && (out->len < 2 || out->str[out->len - 2] != '\n'))
			g_string_append_c(out, '\n');
		g_string_append_printf(out, "[%s]\n", group);
		insert_at = (gssize)out->len;
	}
	/* Backwards at one position keeps the keys in the caller's order. */
	for (guint i = n; i-- > 0;) {
		if (!done[i])
			append_setting(out, insert_at, keys[i], values[i]);
	}
	joind_secret_clear(text, len);
	if (out_len != NULL)
		*out_len = out->len;
	return g_string_free(out, FALSE);
}

gboolean
joind_keyfile_has_key(GKeyFile *kf, const gchar *group, const gchar *key)
{
	return g_key_file_has_group(kf, group) && g_key_file_has_key(kf, group, key, NULL);
}
