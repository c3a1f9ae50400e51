/* joind-log-writer.h - where the daemon's log lines go.
 *
 * Exported from libjoind for the joind executable only; not part of the
 * plugin ABI (core/api/joind-log.h is the plugins' side).
 */
#pragma once

#include <stdio.h>

#include "joind-export.h"
#include "joind-log.h"

G_BEGIN_DECLS

typedef struct _JoindLogWriter JoindLogWriter;

/* Debug lines pass only for the log domains matching one of debug's globs
 * ("all" or "*" for every domain; NULL: none); info and up always. When fd
 * is the journal's stream (systemd's JOURNAL_STREAM names it) the fields go
 * to the journal as they are; otherwise, or when the journal refuses a
 * line, plain is written a timestamped line. */
JOIND_EXPORT JoindLogWriter *joind_log_writer_new(const gchar *const *debug, gint fd, FILE *plain);
JOIND_EXPORT void joind_log_writer_free(JoindLogWriter *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindLogWriter, joind_log_writer_free)

gboolean joind_log_writer_uses_journal(JoindLogWriter *self);

/* A GLogWriterFunc; writer is the JoindLogWriter. */
JOIND_EXPORT GLogWriterOutput joind_log_writer_write(GLogLevelFlags level, const GLogField *fields,
                                                     gsize n_fields, gpointer writer);

G_END_DECLS
