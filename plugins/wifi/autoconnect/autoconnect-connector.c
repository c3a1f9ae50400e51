/* autoconnect-connector.c - the connector's own functions as autoconnect
 * calls them (WifiAutoconnectConnectorOps, autoconnect.h). */
#include "autoconnect.h"

static void
real_connect_bss(gpointer connector, WifiNetwork *network, WifiBss *bss, GCancellable *cancellable,
                 GAsyncReadyCallback callback, gpointer user_data)
{
	wifi_connector_connect_bss(connector, network, bss, cancellable, callback, user_data);
}

static gboolean
real_take_over(gpointer connector, WifiNetwork *network, GCancellable *cancellable,
               GAsyncReadyCallback callback, gpointer user_data)
{
	return wifi_connector_take_over(connector, network, cancellable, callback, user_data);
}

static void
real_disconnect(gpointer connector, GCancellable *cancellable, GAsyncReadyCallback callback,
                gpointer user_data)
{
	wifi_connector_disconnect(connector, cancellable, callback, user_data);
}

static void
real_add_observer(gpointer connector, WifiConnectObserver func, gpointer user_data)
{
	wifi_connector_add_observer(connector, func, user_data);
}

static void
real_remove_observer(gpointer connector, WifiConnectObserver func, gconstpointer user_data)
{
	wifi_connector_remove_observer(connector, func, user_data);
}

const WifiAutoconnectConnectorOps wifi_autoconnect_connector_ops = {
        .connect_bss = real_connect_bss,
        .take_over = real_take_over,
        .disconnect = real_disconnect,
        .add_observer = real_add_observer,
        .remove_observer = real_remove_observer,
};
