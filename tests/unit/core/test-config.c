/* test-config.c - main.conf parsing and its check against the keys plugins
 * declare: good, unknown keys and groups, bad values, bad syntax. */
#include <string.h>

#include "joind-config.h"
#include "joind-error.h"
#include "joind-keyfile.h"
#include "settings.h"
#include "wired-settings.h"

/* A config that knows the keys of the two device plugins, as the daemon's
 * does once they have started. */
static JoindConfig *
config_new_declared(void)
{
	JoindConfig *config = joind_config_new();

	g_assert_true(joind_config_declare(config, wifi_settings, NULL));
	g_assert_true(joind_config_declare(config, wired_settings, NULL));
	return config;
}

static void
test_config_defaults(void)
{
	g_autoptr(JoindConfig) config = config_new_declared();
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) ifaces = NULL;

	g_assert_true(joind_config_load(config, "/nonexistent/main.conf", &error));
	g_assert_no_error(error);
	joind_config_report_unknown(config);
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 0);
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==,
	                10);
	g_assert_cmpint(joind_config_get_int(config, "Scan", "MaximumPeriodicScanInterval"), ==,
	                300);
	g_assert_cmpint(joind_config_get_int(config, "Wired", "StartPeriod"), ==, 30);
	g_assert_false(joind_config_get_bool(config, "Scan", "DisablePeriodicScan"));
	g_assert_true(joind_config_get_bool(config, "General", "UserspaceSME"));
	ifaces = joind_config_get_strv(config, "General", "Interfaces");
	g_assert_cmpuint(g_strv_length(ifaces), ==, 0);
}

static void
test_config_good(void)
{
	g_autoptr(JoindConfig) config = config_new_declared();
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) deny = NULL;
	const gchar *text = "# comment\n"
	                    "[General]\n"
	                    "BlacklistInterfaces = wlan0, wlan1 ,\n"
	                    "ControlPortOverNL80211=false\n"
	                    "[Scan]\n"
	                    "InitialPeriodicScanInterval=5\n"
	                    "DisablePeriodicScan=true\n"
	                    "[Wired]\n"
	                    "StartPeriod = 2\n";

	g_assert_true(joind_config_load_data(config, "main.conf", text, &error));
	g_assert_no_error(error);
	joind_config_report_unknown(config);
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 0);
	deny = joind_config_get_strv(config, "General", "BlacklistInterfaces");
	g_assert_cmpuint(g_strv_length(deny), ==, 2);
	g_assert_cmpstr(deny[0], ==, "wlan0");
	g_assert_cmpstr(deny[1], ==, "wlan1");
	g_assert_false(joind_config_get_bool(config, "General", "ControlPortOverNL80211"));
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==, 5);
	g_assert_true(joind_config_get_bool(config, "Scan", "DisablePeriodicScan"));
	g_assert_cmpint(joind_config_get_int(config, "Wired", "StartPeriod"), ==, 2);
}

static void
test_config_unknown_key(void)
{
	g_autoptr(JoindConfig) config = config_new_declared();
	g_autoptr(GError) error = NULL;
	const gchar *text = "[Scan]\n"
	                    "InitialPeriodicScanInterval=7\n"
	                    "\n"
	                    "InitialPeriodicScanIntervall=8\n"
	                    "[Bogus]\n"
	                    "Key=1\n"
	                    "Other=2\n"
	                    "[General]\n"
	                    "AddressRandomisation=once\n";

	g_assert_true(joind_config_load_data(config, "main.conf", text, &error));
	/* Nothing is called unknown before every declaration is in. */
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 0);
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:4: [Scan] InitialPeriodicScanIntervall is not a known "
	                      "setting; ignored");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:5: [Bogus] is not a known group; its keys are ignored");
	/* iwd's key spelled the British way is not iwd's key. */
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:9: [General] AddressRandomisation is not a known*");
	joind_config_report_unknown(config);
	g_test_assert_expected_messages();
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 3);
	/* The good key next to the typo still counts. */
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==, 7);
}

static void
test_config_bad_values(void)
{
	g_autoptr(JoindConfig) config = config_new_declared();
	g_autoptr(GError) error = NULL;
	g_autofree gchar *mode = NULL;
	g_autofree gchar *range = NULL;
	const gchar *text = "[Scan]\n"
	                    "InitialPeriodicScanInterval=soon\n"
	                    "MaximumPeriodicScanInterval=0\n"
	                    "DisablePeriodicScan=yes\n"
	                    "[Wired]\n"
	                    "MaxStart=101\n"
	                    "[General]\n"
	                    "AddressRandomization=sometimes\n"
	                    "AddressRandomizationRange=nic\n";

	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:2: [Scan] InitialPeriodicScanInterval = “soon” is not a "
	                      "whole number; using the default “10”");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:3: [Scan] MaximumPeriodicScanInterval = “0” is out of "
	                      "range (1 to 86400); using the default “300”");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:4: [Scan] DisablePeriodicScan = “yes” is not a boolean*");
	g_test_expect_message(
	        "joind", G_LOG_LEVEL_WARNING,
	        "main.conf:8: [General] AddressRandomization = “sometimes” is not one "
	        "of: disabled, once, network; using the default “disabled”");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:6: [Wired] MaxStart = “101” is out of range (1 to 100); "
	                      "using the default “3”");
	g_assert_true(joind_config_load_data(config, "main.conf", text, &error));
	g_test_assert_expected_messages();
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 5);
	mode = joind_config_get_string(config, "General", "AddressRandomization");
	range = joind_config_get_string(config, "General", "AddressRandomizationRange");
	g_assert_cmpstr(mode, ==, "disabled");
	g_assert_cmpstr(range, ==, "nic");
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==,
	                10);
	g_assert_cmpint(joind_config_get_int(config, "Scan", "MaximumPeriodicScanInterval"), ==,
	                300);
	g_assert_false(joind_config_get_bool(config, "Scan", "DisablePeriodicScan"));
	g_assert_cmpint(joind_config_get_int(config, "Wired", "MaxStart"), ==, 3);
}

/* main.conf is read before plugins start: a plugin's declaration checks
 * the values already read, and its keys stop being unknown. */
static void
test_config_declared_late(void)
{
	static const gchar *const modes[] = {"fast", "slow", NULL};
	static const JoindConfigKey plugin_keys[] = {
	        {"Test", "Mode", JOIND_CONFIG_STRING, "fast", 0, 0, modes},
	        {"Test", "Name", JOIND_CONFIG_STRING, "x", 0, 0, NULL},
	        {NULL, NULL, 0, NULL, 0, 0, NULL},
	};
	g_autoptr(JoindConfig) config = joind_config_new();
	g_autoptr(GError) error = NULL;
	const gchar *text = "[Test]\nName = joind \nMode=medium\n";

	g_assert_true(joind_config_load_data(config, "main.conf", text, &error));
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 0);
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:3: [Test] Mode = “medium” is not one of: fast, slow; "
	                      "using the default “fast”");
	g_assert_true(joind_config_declare(config, plugin_keys, &error));
	g_test_assert_expected_messages();
	joind_config_report_unknown(config);
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 1);
}

/* Two plugins may share a group, never a key; a refused table adds nothing. */
static void
test_config_declared_twice(void)
{
	static const JoindConfigKey clash[] = {
	        {"Wired", "Other", JOIND_CONFIG_BOOL, "false", 0, 0, NULL},
	        {"Wired", "StartPeriod", JOIND_CONFIG_INT, "1", 1, 2, NULL},
	        {NULL, NULL, 0, NULL, 0, 0, NULL},
	};
	g_autoptr(JoindConfig) config = config_new_declared();
	g_autoptr(GError) error = NULL;

	g_assert_true(joind_config_load_data(config, "main.conf", "[Wired]\nOther=true\n", NULL));
	g_assert_false(joind_config_declare(config, clash, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_assert_nonnull(strstr(error->message, "[Wired] StartPeriod is declared twice"));
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:2: [Wired] Other is not a known setting; ignored");
	joind_config_report_unknown(config);
	g_test_assert_expected_messages();
}

static void
test_config_syntax_error(void)
{
	g_autoptr(JoindConfig) config = joind_config_new();
	g_autoptr(GError) error = NULL;
	const gchar *text = "[Scan]\n"
	                    "InitialPeriodicScanInterval=7\n"
	                    "this line is not a setting\n";

	g_assert_false(joind_config_load_data(config, "/etc/joind/main.conf", text, &error));
	g_assert_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE);
	g_assert_true(g_str_has_prefix(error->message, "/etc/joind/main.conf:3: "));
}

static void
test_keyfile_syntax_cases(void)
{
	const struct {
		const gchar *text;
		guint line;
	} cases[] = {
	        {"Key=1\n", 1},                      /* before any group */
	        {"[A]\n[B\n", 2},                    /* unterminated header */
	        {"[A]\n=value\n", 2},                /* empty key */
	        {"[A]\nk=v\n\n# ok\nnoequals\n", 5}, /* not key=value */
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GKeyFile) kf = joind_keyfile_load_data("f", cases[i].text, &error);
		g_autofree gchar *prefix = g_strdup_printf("f:%u: ", cases[i].line);

		g_assert_null(kf);
		g_assert_nonnull(error);
		g_assert_true(g_str_has_prefix(error->message, prefix));
	}
}

static void
test_keyfile_find_line(void)
{
	const gchar *text = "[A]\nx=1\n[B]\n  y = 2\nx=3\n";

	g_assert_cmpuint(joind_keyfile_find_line(text, "A", "x"), ==, 2);
	g_assert_cmpuint(joind_keyfile_find_line(text, "B", "y"), ==, 4);
	g_assert_cmpuint(joind_keyfile_find_line(text, "B", "x"), ==, 5);
	g_assert_cmpuint(joind_keyfile_find_line(text, "B", NULL), ==, 3);
	g_assert_cmpuint(joind_keyfile_find_line(text, "C", "x"), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/config/defaults", test_config_defaults);
	g_test_add_func("/config/good", test_config_good);
	g_test_add_func("/config/unknown-key", test_config_unknown_key);
	g_test_add_func("/config/bad-values", test_config_bad_values);
	g_test_add_func("/config/declared-late", test_config_declared_late);
	g_test_add_func("/config/declared-twice", test_config_declared_twice);
	g_test_add_func("/config/syntax-error", test_config_syntax_error);
	g_test_add_func("/keyfile/syntax-cases", test_keyfile_syntax_cases);
	g_test_add_func("/keyfile/find-line", test_keyfile_find_line);
	return g_test_run();
}
