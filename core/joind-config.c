/* joind-config.c - main.conf, checked against the keys plugins declare.
 *
 * Each plugin declares the keys it reads (joind_core_declare_config()) with
 * their type, default and range, so that a typo or a bad value in main.conf
 * is reported once, with file and line, and the daemon carries on with the
 * default. main.conf is read before plugins start: each declaration checks
 * the values of its own keys as it arrives, and what nobody declared is
 * reported once all declarations are in.
 */
#include "joind-config.h"

#include <errno.h>
#include <stdlib.h>

#include "joind-error.h"
#include "joind-keyfile.h"

struct _JoindConfig {
	GPtrArray *declared; /* const JoindConfigKey *, owned by the declarers */
	gchar *path;         /* of the last file loaded; NULL when none */
	gchar *contents;     /* its text, for line numbers */
	GKeyFile *file;      /* its keys, as written; NULL when none */
	GKeyFile *values;    /* only valid values of declared keys */
	guint n_warnings;
};

static const JoindConfigKey *
config_key_lookup(JoindConfig *self, const gchar *group, const gchar *key)
{
	for (guint i = 0; i < self->declared->len; i++) {
		const JoindConfigKey *k = g_ptr_array_index(self->declared, i);

		if (g_str_equal(k->group, group) && g_str_equal(k->key, key))
			return k;
	}
	return NULL;
}

static gboolean
config_group_declared(JoindConfig *self, const gchar *group)
{
	for (guint i = 0; i < self->declared->len; i++) {
		const JoindConfigKey *k = g_ptr_array_index(self->declared, i);

		if (g_str_equal(k->group, group))
			return TRUE;
	}
	return FALSE;
}

JoindConfig *
joind_config_new(void)
{
	JoindConfig *self = g_new0(JoindConfig, 1);

	self->declared = g_ptr_array_new();
	self->values = g_key_file_new();
	return self;
}

void
joind_config_free(JoindConfig *self)
{
	if (self == NULL)
		return;
	g_ptr_array_unref(self->declared);
	g_free(self->path);
	g_free(self->contents);
	g_clear_pointer(&self->file, g_key_file_unref);
	g_key_file_unref(self->values);
	g_free(self);
}

static gboolean
config_parse_int(const gchar *text, gint64 *out)
{
	gchar *end = NULL;

	errno = 0;
	*out = g_ascii_strtoll(text, &end, 10);
	return errno == 0 && end != text && *end == '\0';
}

/* Returns NULL when value is acceptable for k, else why not. */
static gchar *
config_check_value(const JoindConfigKey *k, const gchar *value)
{
	gint64 n;

	switch (k->type) {
	case JOIND_CONFIG_BOOL:
		if (g_str_equal(value, "true") || g_str_equal(value, "false"))
			return NULL;
		return g_strdup("is not a boolean (true or false)");
	case JOIND_CONFIG_INT:
		if (!config_parse_int(value, &n))
			return g_strdup("is not a whole number");
		if (n < k->min || n > k->max)
			return g_strdup_printf("is out of range (%d to %d)", k->min, k->max);
		return NULL;
	case JOIND_CONFIG_STRING: {
		g_autofree gchar *list = NULL;

		if (k->choices == NULL || g_strv_contains(k->choices, value))
			return NULL;
		list = g_strjoinv(", ", (gchar **)k->choices);
		return g_strdup_printf("is not one of: %s", list);
	}
	case JOIND_CONFIG_STRV:
		return NULL;
	}
	return NULL;
}

static void
config_warn(JoindConfig *self, const gchar *group, const gchar *key, const gchar *what)
{
	guint line = joind_keyfile_find_line(self->contents, group, key);

	self->n_warnings++;
	if (key != NULL)
		g_warning("%s:%u: [%s] %s %s", self->path, line, group, key, what);
	else
		g_warning("%s:%u: [%s] %s", self->path, line, group, what);
}

/* Takes main.conf's value for k if it has a good one. */
static void
config_take_key(JoindConfig *self, const JoindConfigKey *k)
{
	g_autofree gchar *value = NULL;
	g_autofree gchar *why = NULL;
	g_autofree gchar *msg = NULL;

	if (self->file == NULL)
		return;
	value = g_key_file_get_value(self->file, k->group, k->key, NULL);
	if (value == NULL)
		return;
	why = config_check_value(k, g_strstrip(value));
	if (why != NULL) {
		msg = g_strdup_printf("= “%s” %s; using the default “%s”", value, why,
		                      k->default_value);
		config_warn(self, k->group, k->key, msg);
		return;
	}
	g_key_file_set_value(self->values, k->group, k->key, value);
}

gboolean
joind_config_declare(JoindConfig *self, const JoindConfigKey *keys, GError **error)
{
	guint first = self->declared->len;

	for (const JoindConfigKey *k = keys; k->group != NULL; k++) {
		if (config_key_lookup(self, k->group, k->key) != NULL) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_BUSY,
			            "main.conf key [%s] %s is declared twice", k->group, k->key);
			g_ptr_array_set_size(self->declared, first);
			return FALSE;
		}
		g_ptr_array_add(self->declared, (gpointer)k);
	}
	for (guint i = first; i < self->declared->len; i++)
		config_take_key(self, g_ptr_array_index(self->declared, i));
	return TRUE;
}

/* The file that the declared keys are now read from; NULL: none. */
static void
config_set_file(JoindConfig *self, const gchar *path, const gchar *contents, GKeyFile *file)
{
	g_free(self->path);
	self->path = g_strdup(path);
	g_free(self->contents);
	self->contents = g_strdup(contents);
	g_clear_pointer(&self->file, g_key_file_unref);
	self->file = file;
	g_key_file_unref(self->values);
	self->values = g_key_file_new();
	self->n_warnings = 0;
	for (guint i = 0; i < self->declared->len; i++)
		config_take_key(self, g_ptr_array_index(self->declared, i));
}

gboolean
joind_config_load_data(JoindConfig *self, const gchar *path, const gchar *data, GError **error)
{
	GKeyFile *kf = joind_keyfile_load_data(path, data, error);

	if (kf == NULL)
		return FALSE;
	config_set_file(self, path, data, kf);
	return TRUE;
}

gboolean
joind_config_load(JoindConfig *self, const gchar *path, GError **error)
{
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;

	if (!g_file_get_contents(path, &data, NULL, &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			g_debug("%s: not found, using defaults", path);
			config_set_file(self, NULL, NULL, NULL);
			return TRUE;
		}
		g_set_error(error, G_FILE_ERROR, local->code, "%s: %s", path, local->message);
		return FALSE;
	}
	return joind_config_load_data(self, path, data, error);
}

void
joind_config_report_unknown(JoindConfig *self)
{
	g_auto(GStrv) groups = NULL;

	if (self->file == NULL)
		return;
	groups = g_key_file_get_groups(self->file, NULL);
	for (guint i = 0; groups[i] != NULL; i++) {
		g_auto(GStrv) keys = NULL;

		if (!config_group_declared(self, groups[i])) {
			config_warn(self, groups[i], NULL,
			            "is not a known group; its keys are ignored");
			continue;
		}
		keys = g_key_file_get_keys(self->file, groups[i], NULL, NULL);
		for (guint j = 0; keys != NULL && keys[j] != NULL; j++) {
			if (config_key_lookup(self, groups[i], keys[j]) == NULL)
				config_warn(self, groups[i], keys[j],
				            "is not a known setting; ignored");
		}
	}
}

guint
joind_config_get_n_warnings(JoindConfig *self)
{
	return self->n_warnings;
}

/* The value as text: main.conf's if valid, else the declared default. A key
 * nobody declared is a programming error in the calling room. */
static gchar *
config_get_text(JoindConfig *self, const gchar *group, const gchar *key, JoindConfigType type)
{
	const JoindConfigKey *k = config_key_lookup(self, group, key);
	gchar *value;

	if (k == NULL || k->type != type) {
		g_critical("config key [%s] %s is not declared with that type", group, key);
		return NULL;
	}
	value = g_key_file_get_value(self->values, group, key, NULL);
	return value != NULL ? g_strstrip(value) : g_strdup(k->default_value);
}

gboolean
joind_config_is_declared(JoindConfig *self, const gchar *group, const gchar *key,
                         JoindConfigType type)
{
	const JoindConfigKey *k = config_key_lookup(self, group, key);

	return k != NULL && k->type == type;
}

gint
joind_config_get_int(JoindConfig *self, const gchar *group, const gchar *key)
{
	g_autofree gchar *text = config_get_text(self, group, key, JOIND_CONFIG_INT);
	gint64 n = 0;

	return text != NULL && config_parse_int(text, &n) ? (gint)n : 0;
}

gboolean
joind_config_get_bool(JoindConfig *self, const gchar *group, const gchar *key)
{
	g_autofree gchar *text = config_get_text(self, group, key, JOIND_CONFIG_BOOL);

	return g_strcmp0(text, "true") == 0;
}

gchar *
joind_config_get_string(JoindConfig *self, const gchar *group, const gchar *key)
{
	return config_get_text(self, group, key, JOIND_CONFIG_STRING);
}

gchar **
joind_config_get_strv(JoindConfig *self, const gchar *group, const gchar *key)
{
	g_autofree gchar *text = config_get_text(self, group, key, JOIND_CONFIG_STRV);
	g_auto(GStrv) parts = NULL;
	g_autoptr(GStrvBuilder) out = g_strv_builder_new();

	if (text == NULL)
		return g_new0(gchar *, 1);
	parts = g_strsplit(text, ",", -1);
	for (guint i = 0; parts[i] != NULL; i++) {
		g_strstrip(parts[i]);
		if (parts[i][0] != '\0')
			g_strv_builder_add(out, parts[i]);
	}
	return g_strv_builder_end(out);
}
