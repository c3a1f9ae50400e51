/* hosted-calls.c - the waiting Start and Stop of a hosted network (see
 * hosted-calls.h). */
#include "hosted-calls.h"

#include <string.h>

void
wifi_hosted_task_done(GTask **task, GError *error)
{
	g_autoptr(GTask) done = g_steal_pointer(task);

	if (done == NULL) {
		g_clear_error(&error);
		return;
	}
	if (error != NULL)
		g_task_return_error(done, error);
	else
		g_task_return_boolean(done, TRUE);
}

GTask *
wifi_hosted_calls_new_start(WifiHostedCalls *calls, gpointer self, gboolean idle,
                            const gchar *state, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(self, cancellable, callback, user_data);

	g_task_set_source_tag(task, wifi_hosted_calls_new_start);
	if (state == NULL || !idle || calls->start != NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_BUSY,
		                        "The %s is %s already; stop it first.", calls->what,
		                        state != NULL ? state : "closed");
		g_object_unref(task);
		return NULL;
	}
	return task;
}

gboolean
wifi_hosted_take_ssid(GTask *task, const gchar *ssid, guint8 *ssid_out, gsize *ssid_len)
{
	gsize len = strlen(ssid);

	if (len < 1 || len > 32) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                        "An SSID has 1 to 32 octets, not %zu.", len);
		g_object_unref(task);
		return FALSE;
	}
	memcpy(ssid_out, ssid, len);
	*ssid_len = len;
	return TRUE;
}

gboolean
wifi_hosted_calls_stop(WifiHostedCalls *calls, gpointer self, gboolean idle,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(self, cancellable, callback, user_data);

	g_task_set_source_tag(task, wifi_hosted_calls_stop);
	if (idle) {
		g_task_return_boolean(task, TRUE);
		return FALSE;
	}
	if (calls->stop != NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_BUSY,
		                        "The %s is stopping already.", calls->what);
		return FALSE;
	}
	calls->stop = g_steal_pointer(&task);
	return TRUE;
}

void
wifi_hosted_calls_up(WifiHostedCalls *calls)
{
	wifi_hosted_task_done(&calls->start, NULL);
}

void
wifi_hosted_calls_down(WifiHostedCalls *calls, JoindErrorCode code, const gchar *reason)
{
	wifi_hosted_task_done(
	        &calls->start,
	        g_error_new(JOIND_ERROR, code, "The %s did not start: %s.", calls->what, reason));
	wifi_hosted_task_done(&calls->stop, NULL);
}
