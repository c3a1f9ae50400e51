/* test-config.c - main.conf parsing: good, unknown keys, bad values, bad syntax. */
#include "joind-config.h"
#include "joind-keyfile.h"

static void
test_config_defaults(void)
{
	g_autoptr(JoindConfig) config = joind_config_new();
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) ifaces = NULL;

	g_assert_true(joind_config_load(config, "/nonexistent/main.conf", &error));
	g_assert_no_error(error);
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==,
	                10);
	g_assert_cmpint(joind_config_get_int(config, "Scan", "MaximumPeriodicScanInterval"), ==,
	                300);
	g_assert_cmpint(joind_config_get_int(config, "Wired", "StartPeriod"), ==, 30);
	g_assert_false(joind_config_get_bool(config, "Scan", "DisablePeriodicScan"));
	ifaces = joind_config_get_strv(config, "General", "Interfaces");
	g_assert_cmpuint(g_strv_length(ifaces), ==, 0);
}

static void
test_config_good(void)
{
	g_autoptr(JoindConfig) config = joind_config_new();
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) deny = NULL;
	g_autofree gchar *rand = NULL;
	const gchar *text = "# comment\n"
	                    "[General]\n"
	                    "BlacklistInterfaces = wlan0, wlan1 ,\n"
	                    "AddressRandomization=once\n"
	                    "[Scan]\n"
	                    "InitialPeriodicScanInterval=5\n"
	                    "DisablePeriodicScan=true\n"
	                    "[Wired]\n"
	                    "StartPeriod = 2\n";

	g_assert_true(joind_config_load_data(config, "main.conf", text, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 0);
	deny = joind_config_get_strv(config, "General", "BlacklistInterfaces");
	g_assert_cmpuint(g_strv_length(deny), ==, 2);
	g_assert_cmpstr(deny[0], ==, "wlan0");
	g_assert_cmpstr(deny[1], ==, "wlan1");
	rand = joind_config_get_string(config, "General", "AddressRandomization");
	g_assert_cmpstr(rand, ==, "once");
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==, 5);
	g_assert_true(joind_config_get_bool(config, "Scan", "DisablePeriodicScan"));
	g_assert_cmpint(joind_config_get_int(config, "Wired", "StartPeriod"), ==, 2);
}

static void
test_config_unknown_key(void)
{
	g_autoptr(JoindConfig) config = joind_config_new();
	g_autoptr(GError) error = NULL;
	const gchar *text = "[Scan]\n"
	                    "InitialPeriodicScanInterval=7\n"
	                    "\n"
	                    "InitialPeriodicScanIntervall=8\n"
	                    "[Bogus]\n"
	                    "Key=1\n";

	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:4: [Scan] InitialPeriodicScanIntervall is not a known*");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING, "main.conf:6: [Bogus] Key is not*");
	g_assert_true(joind_config_load_data(config, "main.conf", text, &error));
	g_test_assert_expected_messages();
	g_assert_cmpuint(joind_config_get_n_warnings(config), ==, 2);
	/* The good key next to the typo still counts. */
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==, 7);
}

static void
test_config_bad_values(void)
{
	g_autoptr(JoindConfig) config = joind_config_new();
	g_autoptr(GError) error = NULL;
	g_autofree gchar *rand = NULL;
	const gchar *text = "[Scan]\n"
	                    "InitialPeriodicScanInterval=soon\n"
	                    "MaximumPeriodicScanInterval=0\n"
	                    "DisablePeriodicScan=yes\n"
	                    "[General]\n"
	                    "AddressRandomization=always\n";

	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:2: [Scan] InitialPeriodicScanInterval = “soon” is not a "
	                      "whole number; using the default “10”");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:3: [Scan] MaximumPeriodicScanInterval = “0” is out of "
	                      "range*");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:4: [Scan] DisablePeriodicScan = “yes” is not a boolean*");
	g_test_expect_message("joind", G_LOG_LEVEL_WARNING,
	                      "main.conf:6: [General] AddressRandomization = “always” is not one "
	                      "of: disabled, once, network*");
	g_assert_true(joind_config_load_data(config, "main.conf", text, &error));
	g_test_assert_expected_messages();
	g_assert_cmpint(joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval"), ==,
	                10);
	g_assert_cmpint(joind_config_get_int(config, "Scan", "MaximumPeriodicScanInterval"), ==,
	                300);
	g_assert_false(joind_config_get_bool(config, "Scan", "DisablePeriodicScan"));
	rand = joind_config_get_string(config, "General", "AddressRandomization");
	g_assert_cmpstr(rand, ==, "disabled");
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
	g_test_add_func("/config/syntax-error", test_config_syntax_error);
	g_test_add_func("/keyfile/syntax-cases", test_keyfile_syntax_cases);
	g_test_add_func("/keyfile/find-line", test_keyfile_find_line);
	return g_test_run();
}
