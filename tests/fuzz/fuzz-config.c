/* fuzz-config.c - main.conf: the key-file syntax check with line numbers and
 * the validation of every key the device plugins declare.
 *
 * main.conf is written by an administrator, but a daemon that aborts on a
 * bad byte in it does not come back up, so it gets the same treatment as
 * data off the wire. After a load, the getters must hand back a usable value
 * for every key (the default when main.conf's is bad), and a reload of the
 * same text must behave the same.
 */
#include <stdint.h>
#include <stdlib.h>

#include "joind-config.h"
#include "joind-keyfile.h"
#include "settings.h"
#include "wired-settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static GLogWriterOutput
drop_log(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
	/* Bad input is reported with g_warning by design; a critical or an
	 * error would be a bug, so those still abort. */
	if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR))
		abort();
	return G_LOG_WRITER_HANDLED;
}

static void
check_getters(JoindConfig *config)
{
	static const char *const ints[][2] = {
	        {"Scan", "InitialPeriodicScanInterval"},
	        {"Scan", "MaximumPeriodicScanInterval"},
	        {"Wired", "StartPeriod"},
	        {"Wired", "MaxStart"},
	        {"Wired", "HeldPeriod"},
	        {"Wired", "AuthPeriod"},
	};
	g_auto(GStrv) ifaces = NULL;
	g_auto(GStrv) deny = NULL;

	for (gsize i = 0; i < G_N_ELEMENTS(ints); i++)
		(void)joind_config_get_int(config, ints[i][0], ints[i][1]);
	(void)joind_config_get_bool(config, "Scan", "DisablePeriodicScan");
	(void)joind_config_get_bool(config, "General", "UserspaceSME");
	ifaces = joind_config_get_strv(config, "General", "Interfaces");
	deny = joind_config_get_strv(config, "General", "BlacklistInterfaces");
	if (ifaces == NULL || deny == NULL)
		abort();
	/* Only values in range survive validation. */
	if (joind_config_get_int(config, "Scan", "InitialPeriodicScanInterval") < 1 ||
	    joind_config_get_int(config, "Wired", "MaxStart") < 1)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static gboolean initialised;
	g_autofree gchar *text = g_strndup((const gchar *)data, size);
	g_autoptr(JoindConfig) config = joind_config_new();
	g_autoptr(GError) error = NULL;
	gboolean ok;
	guint warnings;

	if (!initialised) {
		g_log_set_writer_func(drop_log, NULL, NULL);
		initialised = TRUE;
	}
	/* As in the daemon: main.conf first, then the plugins' declarations. */
	ok = joind_config_load_data(config, "main.conf", text, &error);
	if (!joind_config_declare(config, wifi_settings, NULL) ||
	    !joind_config_declare(config, wired_settings, NULL))
		abort();
	joind_config_report_unknown(config);
	/* Failure always says why, with the file name first. */
	if (ok != (error == NULL) ||
	    (error != NULL && !g_str_has_prefix(error->message, "main.conf")))
		abort();
	check_getters(config);
	if (!ok)
		return 0;
	warnings = joind_config_get_n_warnings(config);
	/* Reload (SIGHUP) of the same text: same verdict, same warnings. */
	if (!joind_config_load_data(config, "main.conf", text, NULL))
		abort();
	joind_config_report_unknown(config);
	if (joind_config_get_n_warnings(config) != warnings)
		abort();
	check_getters(config);
	/* The line finder never points past the end of the text. */
	{
		guint lines = 1;
		for (const gchar *p = text; *p != '\0'; p++)
			lines += *p == '\n';
		if (joind_keyfile_find_line(text, "Scan", "InitialPeriodicScanInterval") > lines ||
		    joind_keyfile_find_line(text, "General", "Interfaces") > lines)
			abort();
	}
	return 0;
}
