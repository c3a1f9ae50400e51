/* joind-error.h - the error domain shared by the core, plugins and D-Bus.
 *
 * Each code maps to a D-Bus error name net.joind.Error.<Name>; a GError
 * returned from a method handler reaches the client with that name and the
 * GError's message, which must be a sentence a person can act on.
 */
#pragma once

#include <glib.h>

#include "joind-export.h"

G_BEGIN_DECLS

#define JOIND_ERROR (joind_error_quark())

typedef enum {
	JOIND_ERROR_FAILED,
	JOIND_ERROR_INVALID_ARGS,
	JOIND_ERROR_NOT_FOUND,
	JOIND_ERROR_BUSY,
	JOIND_ERROR_ABORTED,
	JOIND_ERROR_NOT_SUPPORTED,
	JOIND_ERROR_NO_AGENT,
	JOIND_ERROR_PERMISSION_DENIED,
	JOIND_ERROR_AUTHENTICATION_FAILED,
} JoindErrorCode;

JOIND_EXPORT GQuark joind_error_quark(void);

/* Sets error to the JOIND_ERROR code with a printf-style message and returns
 * FALSE, so that a check can end in "return joind_set_error(...)" (ABI 1.4). */
JOIND_EXPORT gboolean joind_set_error(GError **error, JoindErrorCode code, const gchar *format, ...)
        G_GNUC_PRINTF(3, 4);

/* For a failed OpenSSL call: sets error to domain and code with the message
 * "<format>: <reason>", the reason being OpenSSL's for the most recent entry
 * in this thread's error queue ("no reason given" when the queue is empty),
 * and empties the queue so that the next OpenSSL call starts clean. Returns
 * FALSE (ABI 1.4). */
JOIND_EXPORT gboolean joind_set_error_from_openssl(GError **error, GQuark domain, gint code,
                                                   const gchar *format, ...) G_GNUC_PRINTF(4, 5);

G_END_DECLS
