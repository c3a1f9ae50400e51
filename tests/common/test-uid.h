/* test-uid.h - the uid the bus gives for a client, played at the caller's
 * seam: joind_caller_set_uid_filter(test_uid_filter) makes every lookup
 * answer test_uid_played, or fail when test_uid_fails is set. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

extern guint32 test_uid_played;
extern gboolean test_uid_fails;

/* A JoindCallerUidFilter: fails with "no such user (test)". */
gboolean test_uid_filter(const gchar *sender, guint32 *uid, GError **error);

G_END_DECLS
