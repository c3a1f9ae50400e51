/* sleep.c - logind's PrepareForSleep signal (see sleep.h). */
#include "sleep.h"

#define LOGIN1_NAME "org.freedesktop.login1"

struct _WifiSleep {
	GCancellable *cancellable;
	GDBusConnection *connection;
	guint subscription;
	WifiSleepFunc resumed;
	gpointer user_data;
};

static void
on_prepare_for_sleep(GDBusConnection *connection, const gchar *sender, const gchar *path,
                     const gchar *interface, const gchar *signal, GVariant *parameters,
                     gpointer user_data)
{
	WifiSleep *self = user_data;
	gboolean start;

	if (!g_variant_is_of_type(parameters, G_VARIANT_TYPE("(b)")))
		return;
	g_variant_get(parameters, "(b)", &start);
	if (start) {
		g_info("the system is going to sleep");
		return;
	}
	g_info("the system resumed from sleep");
	self->resumed(self->user_data);
}

/* Only logind's own signal counts: the sender is the name's owner. */
static void
sleep_subscribe(WifiSleep *self, GDBusConnection *connection)
{
	self->connection = g_object_ref(connection);
	self->subscription = g_dbus_connection_signal_subscribe(
	        connection, LOGIN1_NAME, LOGIN1_NAME ".Manager", "PrepareForSleep",
	        "/org/freedesktop/login1", NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_prepare_for_sleep,
	        self, NULL);
}

static void
on_bus(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) connection = g_bus_get_finish(result, &error);
	WifiSleep *self;

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = user_data;
	if (connection == NULL) {
		g_debug("no system bus, so no resume from sleep is heard: %s", error->message);
		return;
	}
	sleep_subscribe(self, connection);
}

WifiSleep *
wifi_sleep_new(GDBusConnection *connection, WifiSleepFunc resumed, gpointer user_data)
{
	WifiSleep *self = g_new0(WifiSleep, 1);

	self->resumed = resumed;
	self->user_data = user_data;
	self->cancellable = g_cancellable_new();
	if (connection != NULL)
		sleep_subscribe(self, connection);
	else
		g_bus_get(G_BUS_TYPE_SYSTEM, self->cancellable, on_bus, self);
	return self;
}

void
wifi_sleep_free(WifiSleep *self)
{
	if (self == NULL)
		return;
	g_cancellable_cancel(self->cancellable);
	g_object_unref(self->cancellable);
	if (self->subscription != 0)
		g_dbus_connection_signal_unsubscribe(self->connection, self->subscription);
	g_clear_object(&self->connection);
	g_free(self);
}
