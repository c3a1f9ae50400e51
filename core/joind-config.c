/* joind-config.c - main.conf: the one table of known settings.
 *
 * Every key any room reads is listed in config_keys[] with its type, default
 * and range, so that a typo or a bad value in main.conf is reported once,
 * with file and line, and the daemon carries on with the default.
 */
#include "joind-config.h"

#include <errno.h>
#include <stdlib.h>

#include "joind-keyfile.h"

typedef enum {
	CONFIG_BOOL,
	CONFIG_INT,
	CONFIG_STRING,
	CONFIG_STRV, /* comma-separated */
} ConfigType;

typedef struct {
	const gchar *group;
	const gchar *key;
	ConfigType type;
	const gchar *default_value;
	gint min; /* CONFIG_INT only */
	gint max;
	const gchar *const *choices; /* CONFIG_STRING: allowed values, or NULL */
} ConfigKey;

static const gchar *const address_randomization_choices[] = {"disabled", "once", "network", NULL};

static const ConfigKey config_keys[] = {
        /* Interfaces joind manages (globs); empty means all. */
        {"General", "Interfaces", CONFIG_STRV, "", 0, 0, NULL},
        /* Interfaces joind leaves alone (globs), e.g. radios used by hostapd. */
        {"General", "BlacklistInterfaces", CONFIG_STRV, "", 0, 0, NULL},
        {"General", "AddressRandomization", CONFIG_STRING, "disabled", 0, 0,
         address_randomization_choices},
        /* EAPOL over nl80211's control port when the radio can; false forces
         * the AF_PACKET socket on the interface (as iwd's option). */
        {"General", "ControlPortOverNL80211", CONFIG_BOOL, "true", 0, 0, NULL},
        /* Authenticate and associate with CMD_AUTHENTICATE/CMD_ASSOCIATE
         * when the radio can; false leaves both to cfg80211 (CMD_CONNECT). */
        {"General", "UserspaceSME", CONFIG_BOOL, "true", 0, 0, NULL},
        /* Seconds between scans while disconnected: starts at the initial value
         * and doubles up to the maximum. */
        {"Scan", "InitialPeriodicScanInterval", CONFIG_INT, "10", 1, 3600, NULL},
        {"Scan", "MaximumPeriodicScanInterval", CONFIG_INT, "300", 1, 86400, NULL},
        {"Scan", "DisablePeriodicScan", CONFIG_BOOL, "false", 0, 0, NULL},
        /* Roam when the signal drops below this (dBm). */
        {"Roam", "RoamThreshold", CONFIG_INT, "-70", -100, -1, NULL},
        /* IEEE 802.1X-2010 supplicant PAE timers (seconds) and counts. */
        {"Wired", "StartPeriod", CONFIG_INT, "30", 1, 3600, NULL},
        {"Wired", "MaxStart", CONFIG_INT, "3", 1, 100, NULL},
        {"Wired", "HeldPeriod", CONFIG_INT, "60", 0, 3600, NULL},
        {"Wired", "AuthPeriod", CONFIG_INT, "30", 1, 3600, NULL},
};

struct _JoindConfig {
	GKeyFile *values; /* only valid keys are copied in here */
	guint n_warnings;
};

static const ConfigKey *
config_key_lookup(const gchar *group, const gchar *key)
{
	for (gsize i = 0; i < G_N_ELEMENTS(config_keys); i++) {
		if (g_str_equal(config_keys[i].group, group) &&
		    g_str_equal(config_keys[i].key, key))
			return &config_keys[i];
	}
	return NULL;
}

JoindConfig *
joind_config_new(void)
{
	JoindConfig *self = g_new0(JoindConfig, 1);

	self->values = g_key_file_new();
	return self;
}

void
joind_config_free(JoindConfig *self)
{
	if (self == NULL)
		return;
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
config_check_value(const ConfigKey *k, const gchar *value)
{
	gint64 n;

	switch (k->type) {
	case CONFIG_BOOL:
		if (g_str_equal(value, "true") || g_str_equal(value, "false"))
			return NULL;
		return g_strdup("is not a boolean (true or false)");
	case CONFIG_INT:
		if (!config_parse_int(value, &n))
			return g_strdup("is not a whole number");
		if (n < k->min || n > k->max)
			return g_strdup_printf("is out of range (%d to %d)", k->min, k->max);
		return NULL;
	case CONFIG_STRING: {
		g_autofree gchar *list = NULL;

		if (k->choices == NULL || g_strv_contains(k->choices, value))
			return NULL;
		list = g_strjoinv(", ", (gchar **)k->choices);
		return g_strdup_printf("is not one of: %s", list);
	}
	case CONFIG_STRV:
		return NULL;
	}
	return NULL;
}

static void
config_warn(JoindConfig *self, const gchar *path, const gchar *contents, const gchar *group,
            const gchar *key, const gchar *what)
{
	guint line = joind_keyfile_find_line(contents, group, key);

	self->n_warnings++;
	g_warning("%s:%u: [%s] %s %s", path, line, group, key != NULL ? key : "", what);
}

static void
config_take_group(JoindConfig *self, GKeyFile *kf, const gchar *path, const gchar *contents,
                  const gchar *group)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);

	for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
		const ConfigKey *k = config_key_lookup(group, keys[i]);
		g_autofree gchar *value = g_key_file_get_value(kf, group, keys[i], NULL);
		g_autofree gchar *why = NULL;
		g_autofree gchar *msg = NULL;

		if (k == NULL) {
			config_warn(self, path, contents, group, keys[i],
			            "is not a known setting; ignored");
			continue;
		}
		why = config_check_value(k, g_strstrip(value));
		if (why != NULL) {
			msg = g_strdup_printf("= “%s” %s; using the default “%s”", value, why,
			                      k->default_value);
			config_warn(self, path, contents, group, keys[i], msg);
			continue;
		}
		g_key_file_set_value(self->values, group, keys[i], value);
	}
}

gboolean
joind_config_load_data(JoindConfig *self, const gchar *path, const gchar *data, GError **error)
{
	g_autoptr(GKeyFile) kf = joind_keyfile_load_data(path, data, error);
	g_auto(GStrv) groups = NULL;

	if (kf == NULL)
		return FALSE;
	g_key_file_unref(self->values);
	self->values = g_key_file_new();
	self->n_warnings = 0;
	groups = g_key_file_get_groups(kf, NULL);
	for (guint i = 0; groups[i] != NULL; i++)
		config_take_group(self, kf, path, data, groups[i]);
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
			g_key_file_unref(self->values);
			self->values = g_key_file_new();
			return TRUE;
		}
		g_set_error(error, G_FILE_ERROR, local->code, "%s: %s", path, local->message);
		return FALSE;
	}
	return joind_config_load_data(self, path, data, error);
}

guint
joind_config_get_n_warnings(JoindConfig *self)
{
	return self->n_warnings;
}

/* The value as text: main.conf's if valid, else the table's default. A key
 * missing from the table is a programming error in the calling room. */
static gchar *
config_get_text(JoindConfig *self, const gchar *group, const gchar *key, ConfigType type)
{
	const ConfigKey *k = config_key_lookup(group, key);
	gchar *value;

	if (k == NULL || k->type != type) {
		g_critical("config key [%s] %s is not in the table of known keys with that type",
		           group, key);
		return NULL;
	}
	value = g_key_file_get_value(self->values, group, key, NULL);
	return value != NULL ? g_strstrip(value) : g_strdup(k->default_value);
}

gint
joind_config_get_int(JoindConfig *self, const gchar *group, const gchar *key)
{
	g_autofree gchar *text = config_get_text(self, group, key, CONFIG_INT);
	gint64 n = 0;

	return text != NULL && config_parse_int(text, &n) ? (gint)n : 0;
}

gboolean
joind_config_get_bool(JoindConfig *self, const gchar *group, const gchar *key)
{
	g_autofree gchar *text = config_get_text(self, group, key, CONFIG_BOOL);

	return g_strcmp0(text, "true") == 0;
}

gchar *
joind_config_get_string(JoindConfig *self, const gchar *group, const gchar *key)
{
	return config_get_text(self, group, key, CONFIG_STRING);
}

gchar **
joind_config_get_strv(JoindConfig *self, const gchar *group, const gchar *key)
{
	g_autofree gchar *text = config_get_text(self, group, key, CONFIG_STRV);
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
