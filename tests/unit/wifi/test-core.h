/* test-core.h - a real JoindCore for the wifi state machines' tests: its
 * own state directory and main.conf, exported on a private session bus,
 * no plugins loaded (the test builds the rooms it drives itself). */
#pragma once

#include "joind.h"

typedef struct {
	GTestDBus *bus;
	GDBusConnection *conn;
	gchar *dir; /* state directory; main.conf and an empty plugin dir inside */
	JoindCore *core;
} WifiTestCore;

/* main_conf: the text of main.conf (NULL: none). */
WifiTestCore *wifi_test_core_new(const gchar *main_conf);
void wifi_test_core_free(WifiTestCore *tc);

/* Writes a profile file (e.g. "home.psk") into the state directory and
 * reloads the profiles, as SIGHUP would. */
void wifi_test_core_add_profile(WifiTestCore *tc, const gchar *filename, const gchar *contents);
