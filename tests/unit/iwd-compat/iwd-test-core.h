/* iwd-test-core.h - what the iwd-compat tests that need the daemon share:
 * a state directory, a private bus and a real core started on it, as the
 * front end finds them in joind. */
#pragma once

#include "joind-core-private.h"

G_BEGIN_DECLS

typedef struct {
	gchar *dir; /* the state directory, with an empty main.conf */
	GTestDBus *bus;
	GDBusConnection *conn; /* the core's */
	JoindCore *core;
} IwdTestCore;

/* Makes the directory; files the core should find go there before
 * iwd_test_core_start(). */
void iwd_test_core_init(IwdTestCore *t);
void iwd_test_core_start(IwdTestCore *t);
/* A client's own connection to the bus. */
GDBusConnection *iwd_test_core_client(IwdTestCore *t);
/* Shuts everything down and removes the directory with its files. */
void iwd_test_core_clear(IwdTestCore *t);

G_END_DECLS
