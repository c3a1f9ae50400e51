/* iwd-names.h - how iwd 2.3 names things on D-Bus: object paths, network
 * types, times and errors, from joind's model. Pure functions.
 */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

#define IWD_SERVICE       "net.connman.iwd"
#define IWD_ROOT_PATH     "/net/connman/iwd"
#define IWD_IFACE_DAEMON  IWD_SERVICE ".Daemon"
#define IWD_IFACE_AGENTS  IWD_SERVICE ".AgentManager"
#define IWD_IFACE_AGENT   IWD_SERVICE ".Agent"
#define IWD_IFACE_ADAPTER IWD_SERVICE ".Adapter"
#define IWD_IFACE_DEVICE  IWD_SERVICE ".Device"
#define IWD_IFACE_STATION IWD_SERVICE ".Station"
#define IWD_IFACE_AP      IWD_SERVICE ".AccessPoint"
#define IWD_IFACE_ADHOC   IWD_SERVICE ".AdHoc"
#define IWD_IFACE_DIAG    IWD_SERVICE ".StationDiagnostic"
#define IWD_IFACE_NETWORK IWD_SERVICE ".Network"
#define IWD_IFACE_KNOWN   IWD_SERVICE ".KnownNetwork"

/* iwd's error names, net.connman.iwd.<Name>. */
#define IWD_ERROR (iwd_error_quark())
typedef enum {
	IWD_ERROR_FAILED,
	IWD_ERROR_ABORTED,
	IWD_ERROR_BUSY,
	IWD_ERROR_IN_PROGRESS,
	IWD_ERROR_INVALID_ARGUMENTS,
	IWD_ERROR_INVALID_FORMAT,
	IWD_ERROR_ALREADY_EXISTS,
	IWD_ERROR_NOT_FOUND,
	IWD_ERROR_NOT_SUPPORTED,
	IWD_ERROR_NO_AGENT,
	IWD_ERROR_NOT_CONNECTED,
	IWD_ERROR_NOT_CONFIGURED,
	IWD_ERROR_NOT_AVAILABLE,
} IwdError;

GQuark iwd_error_quark(void);

/* The iwd error a client of method should see for error (any domain): a
 * wrong secret is Failed, an agent that declined Aborted, busy InProgress,
 * a second agent of one client AlreadyExists. */
GError *iwd_error_from_joind(const gchar *method, const GError *error);

/* "open", "psk" (SAE too), "8021x", "wep"; OWE is "open". */
const gchar *iwd_network_type(JoindNetworkType type);
/* A BSSID as iwd writes it: "aa:bb:cc:dd:ee:ff". */
gchar *iwd_address_to_string(const guint8 address[6]);
/* /net/connman/iwd/<phy> and .../<phy>/<ifindex> */
gchar *iwd_adapter_path(guint phy);
gchar *iwd_device_path(guint phy, gint ifindex);
/* <device>/<ssid-hex>_<type> */
gchar *iwd_network_path(const gchar *device_path, GBytes *ssid, JoindNetworkType type);
/* /net/connman/iwd/<ssid-hex>_<type>, NULL for a wired profile */
gchar *iwd_known_path(GBytes *ssid, JoindProfileType type);
/* ISO 8601 in UTC ("2024-05-01T10:00:00Z"), NULL for 0 (never). */
gchar *iwd_time_string(gint64 unix_time);

G_END_DECLS
