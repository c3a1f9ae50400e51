/* log-capture.h - the wifi plugin's log ("joind-wifi") in unit tests: every
 * line kept for the test to search, and the warnings a test expects not
 * fatal (the other warnings stay fatal, as g_test makes them).
 *
 * g_test_expect_message() will not do here: it fails on any unexpected
 * line in between, and the rooms log at info level as they go. */
#pragma once

#include <glib.h>

/* In main(), after g_test_init(). */
void log_capture_init(void);
/* Captures domain's log as well (the core's "joind", say). */
void log_capture_add_domain(const gchar *domain);
/* At the start of a test: forgets the lines and the allowed warnings. */
void log_capture_reset(void);
/* Warnings matching pattern (g_pattern_match_simple) are not fatal. */
void log_capture_allow_warning(const gchar *pattern);
/* How many lines since the reset match pattern ("LEVEL: message"). */
guint log_capture_count(const gchar *pattern);
