/* joind-device-mode.c - a device's mode by name, and switching it (see
 * joind-device.h). */
#include "joind-device.h"

#include "joind-error.h"

static const gchar *const mode_names[] = {
        [JOIND_DEVICE_MODE_STATION] = "station",
        [JOIND_DEVICE_MODE_AP] = "ap",
        [JOIND_DEVICE_MODE_ADHOC] = "ad-hoc",
};
G_STATIC_ASSERT(G_N_ELEMENTS(mode_names) == JOIND_DEVICE_MODE_LAST + 1);

const gchar *
joind_device_mode_to_string(JoindDeviceMode mode)
{
	return mode <= JOIND_DEVICE_MODE_LAST ? mode_names[mode] : "unknown";
}

gchar **
joind_device_modes_to_strv(guint modes)
{
	GStrvBuilder *builder = g_strv_builder_new();
	gchar **names;

	for (guint i = 0; i < G_N_ELEMENTS(mode_names); i++) {
		if ((modes & (1u << i)) != 0)
			g_strv_builder_add(builder, mode_names[i]);
	}
	names = g_strv_builder_end(builder);
	g_strv_builder_unref(builder);
	return names;
}

gboolean
joind_device_mode_from_string(const gchar *name, JoindDeviceMode *mode)
{
	for (guint i = 0; i < G_N_ELEMENTS(mode_names); i++) {
		if (g_strcmp0(name, mode_names[i]) == 0) {
			*mode = (JoindDeviceMode)i;
			return TRUE;
		}
	}
	return FALSE;
}

void
joind_device_change_mode(JoindDevice *self, JoindDeviceMode mode, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
	JoindDeviceClass *klass;
	g_autoptr(GTask) task = NULL;

	g_return_if_fail(JOIND_IS_DEVICE(self));
	klass = JOIND_DEVICE_GET_CLASS(self);
	if (mode <= JOIND_DEVICE_MODE_LAST && mode != joind_device_get_mode(self) &&
	    (joind_device_get_supported_modes(self) & (1u << mode)) != 0 &&
	    klass->set_mode != NULL) {
		klass->set_mode(self, mode, cancellable, callback, user_data);
		return;
	}
	task = g_task_new(self, cancellable, callback, user_data);
	g_task_set_source_tag(task, joind_device_change_mode);
	if (mode == joind_device_get_mode(self))
		g_task_return_boolean(task, TRUE);
	else
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                        "%s cannot run in %s mode (its radio or driver does not "
		                        "offer it).",
		                        joind_device_get_name(self),
		                        joind_device_mode_to_string(mode));
}

gboolean
joind_device_change_mode_finish(JoindDevice *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, self), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}
