/* sleep.c - logind's PrepareForSleep signal (see sleep.h). */
#include "sleep.h"

#define LOGIN1_NAME "org.freedesktop.login1"

struct _WifiSleep {
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

WifiSleep *
wifi_sleep_new(GDBusConnection *connection, WifiSleepFunc resumed, gpointer user_data)
{
	WifiSleep *self = g_new0(WifiSleep, 1);
	g_autoptr(GDBusConnection) system = NULL;
	g_autoptr(GError) error = NULL;

	self->resumed = resumed;
	self->user_data = user_data;
	if (connection != NULL) {
		sleep_subscribe(self, connection);
		return self;
	}
	/* Synchronous on purpose: the daemon already holds the system bus
	 * (GLib's shared connection, returned at once), and GIO's
	 * asynchronous g_bus_get() runs its initialisation in a worker thread
	 * that lingers 15 s and then wakes the process up to exit. */
	system = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
	if (system == NULL)
		g_debug("no system bus, so no resume from sleep is heard: %s", error->message);
	else
		sleep_subscribe(self, system);
	return self;
}

void
wifi_sleep_free(WifiSleep *self)
{
	if (self == NULL)
		return;
	if (self->subscription != 0)
		g_dbus_connection_signal_unsubscribe(self->connection, self->subscription);
	g_clear_object(&self->connection);
	g_free(self);
}
