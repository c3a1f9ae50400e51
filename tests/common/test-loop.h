/* test-loop.h - the default main context run for a while in tests. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Runs the default main context for ms milliseconds of real time. */
void test_loop_run_for(guint ms);
/* Runs it until *count reaches n; the test fails after limit_ms. */
void test_loop_run_until(const guint *count, guint n, guint limit_ms);

G_END_DECLS
