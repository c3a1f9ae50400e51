/* test-core.h - a real JoindCore for unit tests: its own state directory
 * and main.conf, exported on a private session bus, no plugins loaded (a
 * test builds the rooms it drives itself, or the front end it checks). */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct {
	GTestDBus *bus;
	GDBusConnection *conn; /* the core's */
	gchar *dir;            /* state directory; main.conf and an empty plugin dir inside */
	JoindCore *core;
} TestCore;

/* main_conf: the text of main.conf (NULL: none). settings: the keys a
 * plugin's init() would declare before the core starts (NULL: none). */
TestCore *test_core_new(const gchar *main_conf, const JoindConfigKey *settings);
void test_core_free(TestCore *tc);

/* Writes a profile file (e.g. "home.psk") into the state directory and
 * reloads the profiles, as SIGHUP would. */
void test_core_add_profile(TestCore *tc, const gchar *filename, const gchar *contents);
/* A client's own connection to the core's bus (unref when done). */
GDBusConnection *test_core_client(TestCore *tc);

G_END_DECLS
