/* test-uid.c - see test-uid.h. */
#include "test-uid.h"

#include <gio/gio.h>

guint32 test_uid_played;
gboolean test_uid_fails;

gboolean
test_uid_filter(const gchar *sender, guint32 *uid, GError **error)
{
	if (test_uid_fails) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, "no such user (test)");
		return FALSE;
	}
	*uid = test_uid_played;
	return TRUE;
}
