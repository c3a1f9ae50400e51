/* joind-log-private.h - the core's own structured log lines, beside the
 * plugins' (api/joind-log.h). Private to the core.
 */
#pragma once

#include "joind-log.h"

G_BEGIN_DECLS

/* A D-Bus caller let in or refused by the gate (joind-auth.h). */
typedef struct {
	const gchar *member; /* "Interface.Member" called (or the property written) */
	const gchar *action; /* JOIND_ACTION: the polkit action; NULL when none covers it */
	const gchar *caller; /* JOIND_CALLER: the caller's unique bus name */
	gint64 uid;          /* JOIND_CALLER_UID; -1 when the gate did not need it */
	gboolean allowed;    /* JOIND_RESULT: "allowed" or "denied" */
	const gchar *how;    /* who decided, or why not: "polkit", "uid 1000, without polkit" */
} JoindLogAuthorization;

/* Logs "MEMBER by CALLER (uid UID): ACTION allowed|denied (HOW)" (the
 * parts not known left out) in the
 * domain "joind" at level, with MESSAGE_ID JOIND_LOG_ID_AUTHORIZATION and
 * the fields above. */
void joind_log_authorization(GLogLevelFlags level, const JoindLogAuthorization *auth);

G_END_DECLS
