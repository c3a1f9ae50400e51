/* joind-hosted.c - what an access point and an ad-hoc network keep and do
 * alike in the core (see joind-hosted.h). */
#include "joind-hosted.h"

#include "joind-error.h"
#include "joind-util.h"

void
joind_hosted_init(JoindHosted *hosted)
{
	hosted->members = g_ptr_array_new_null_terminated(4, g_free, TRUE);
}

void
joind_hosted_clear(JoindHosted *hosted)
{
	g_clear_pointer(&hosted->name, g_free);
	g_clear_pointer(&hosted->security, g_free);
	g_clear_pointer(&hosted->members, g_ptr_array_unref);
}

void
joind_hosted_class_install(GObjectClass *klass, GParamSpec **props, guint n_props, guint *signals,
                           const gchar *members, const gchar *joined, const gchar *left)
{
	const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
	GType type = G_TYPE_FROM_CLASS(klass);

	props[JOIND_HOSTED_PROP_STARTED] = g_param_spec_boolean("started", NULL, NULL, FALSE, ro);
	props[JOIND_HOSTED_PROP_NAME] = g_param_spec_string("name", NULL, NULL, "", ro);
	props[JOIND_HOSTED_PROP_SECURITY] = g_param_spec_string("security", NULL, NULL, "", ro);
	props[JOIND_HOSTED_PROP_MEMBERS] = g_param_spec_boxed(members, NULL, NULL, G_TYPE_STRV, ro);
	g_object_class_install_properties(klass, n_props, props);
	signals[JOIND_HOSTED_SIGNAL_JOINED] =
	        g_signal_new(joined, type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
	                     G_TYPE_STRING);
	signals[JOIND_HOSTED_SIGNAL_LEFT] = g_signal_new(left, type, G_SIGNAL_RUN_LAST, 0, NULL,
	                                                 NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

gboolean
joind_hosted_get_property(const JoindHosted *hosted, guint id, GValue *value)
{
	switch (id) {
	case JOIND_HOSTED_PROP_STARTED:
		g_value_set_boolean(value, hosted->started);
		return TRUE;
	case JOIND_HOSTED_PROP_NAME:
		g_value_set_string(value, hosted->name != NULL ? hosted->name : "");
		return TRUE;
	case JOIND_HOSTED_PROP_SECURITY:
		g_value_set_string(value, hosted->security != NULL ? hosted->security : "");
		return TRUE;
	case JOIND_HOSTED_PROP_MEMBERS:
		g_value_set_boxed(value, hosted->members->pdata);
		return TRUE;
	default:
		return FALSE;
	}
}

void
joind_hosted_set_started(JoindHosted *hosted, GObject *object, GParamSpec **props, gboolean started,
                         const gchar *name, const gchar *security)
{
	if (!started) {
		name = NULL;
		security = NULL;
	}
	if (joind_set_str(&hosted->name, name))
		g_object_notify_by_pspec(object, props[JOIND_HOSTED_PROP_NAME]);
	if (joind_set_str(&hosted->security, security))
		g_object_notify_by_pspec(object, props[JOIND_HOSTED_PROP_SECURITY]);
	if (hosted->started != !!started) {
		hosted->started = !!started;
		g_object_notify_by_pspec(object, props[JOIND_HOSTED_PROP_STARTED]);
	}
}

void
joind_hosted_member_joined(JoindHosted *hosted, GObject *object, GParamSpec **props,
                           const guint *signals, const gchar *address)
{
	gchar *lower = g_ascii_strdown(address, -1);

	if (g_ptr_array_find_with_equal_func(hosted->members, lower, g_str_equal, NULL)) {
		g_free(lower);
		return;
	}
	g_ptr_array_add(hosted->members, lower);
	g_object_notify_by_pspec(object, props[JOIND_HOSTED_PROP_MEMBERS]);
	g_signal_emit(object, signals[JOIND_HOSTED_SIGNAL_JOINED], 0, address);
}

void
joind_hosted_member_left(JoindHosted *hosted, GObject *object, GParamSpec **props,
                         const guint *signals, const gchar *address)
{
	g_autofree gchar *lower = g_ascii_strdown(address, -1);
	guint index;

	if (!g_ptr_array_find_with_equal_func(hosted->members, lower, g_str_equal, &index))
		return;
	g_ptr_array_remove_index(hosted->members, index);
	g_object_notify_by_pspec(object, props[JOIND_HOSTED_PROP_MEMBERS]);
	g_signal_emit(object, signals[JOIND_HOSTED_SIGNAL_LEFT], 0, address);
}

void
joind_hosted_refuse(gpointer self, GAsyncReadyCallback callback, gpointer user_data,
                    const gchar *message)
{
	g_autoptr(GTask) task = g_task_new(self, NULL, callback, user_data);

	g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED, "%s", message);
}

gboolean
joind_hosted_finish(gpointer self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, self), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}
