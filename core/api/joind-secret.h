/* joind-secret.h - the one way secrets may reach a log.
 *
 * Passwords, passphrases, PSKs, PMKs, MSKs and keys are never logged. When a
 * log line must tell two secrets apart, log joind_secret_tag(): a short tag
 * made with a key drawn at start-up, so it cannot be reversed or compared
 * across runs.
 */
#pragma once

#include <glib.h>

#include "joind-export.h"

G_BEGIN_DECLS

/* Returns "<secret:xxxxxxxx>" (or "<secret:none>" for NULL/empty). */
JOIND_EXPORT gchar *joind_secret_tag(const void *data, gsize len);
/* Overwrite and free a NUL-terminated secret; NULL-safe. */
JOIND_EXPORT void joind_secret_wipe(gchar *secret);
/* Overwrite memory in a way the compiler cannot drop. */
JOIND_EXPORT void joind_secret_clear(void *data, gsize len);

G_END_DECLS
