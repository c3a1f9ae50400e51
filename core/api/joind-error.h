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

G_END_DECLS
