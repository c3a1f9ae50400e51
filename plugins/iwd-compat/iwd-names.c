/* iwd-names.c - iwd's names for joind's model (see iwd-names.h). */
#include "iwd-names.h"

#include "joind-mac.h"

static const GDBusErrorEntry iwd_error_entries[] = {
        {IWD_ERROR_FAILED, IWD_SERVICE ".Failed"},
        {IWD_ERROR_ABORTED, IWD_SERVICE ".Aborted"},
        {IWD_ERROR_BUSY, IWD_SERVICE ".Busy"},
        {IWD_ERROR_IN_PROGRESS, IWD_SERVICE ".InProgress"},
        {IWD_ERROR_INVALID_ARGUMENTS, IWD_SERVICE ".InvalidArguments"},
        {IWD_ERROR_INVALID_FORMAT, IWD_SERVICE ".InvalidFormat"},
        {IWD_ERROR_ALREADY_EXISTS, IWD_SERVICE ".AlreadyExists"},
        {IWD_ERROR_NOT_FOUND, IWD_SERVICE ".NotFound"},
        {IWD_ERROR_NOT_SUPPORTED, IWD_SERVICE ".NotSupported"},
        {IWD_ERROR_NO_AGENT, IWD_SERVICE ".NoAgent"},
        {IWD_ERROR_NOT_CONNECTED, IWD_SERVICE ".NotConnected"},
        {IWD_ERROR_NOT_CONFIGURED, IWD_SERVICE ".NotConfigured"},
        {IWD_ERROR_NOT_AVAILABLE, IWD_SERVICE ".NotAvailable"},
};

GQuark
iwd_error_quark(void)
{
	static gsize quark;

	g_dbus_error_register_error_domain("joind-iwd-compat-error-quark", &quark,
	                                   iwd_error_entries, G_N_ELEMENTS(iwd_error_entries));
	return (GQuark)quark;
}

static IwdError
iwd_error_code(const gchar *method, gint joind_code)
{
	switch ((JoindErrorCode)joind_code) {
	case JOIND_ERROR_INVALID_ARGS:
		return IWD_ERROR_INVALID_ARGUMENTS;
	case JOIND_ERROR_NOT_FOUND:
		return IWD_ERROR_NOT_FOUND;
	case JOIND_ERROR_BUSY:
		/* The agent registry's only "busy" is a second agent. */
		return g_strcmp0(method, "RegisterAgent") == 0 ? IWD_ERROR_ALREADY_EXISTS
		                                               : IWD_ERROR_IN_PROGRESS;
	case JOIND_ERROR_ABORTED:
		return IWD_ERROR_ABORTED;
	case JOIND_ERROR_NOT_SUPPORTED:
		return IWD_ERROR_NOT_SUPPORTED;
	case JOIND_ERROR_NO_AGENT:
		return IWD_ERROR_NO_AGENT;
	case JOIND_ERROR_FAILED:
	case JOIND_ERROR_PERMISSION_DENIED:
	case JOIND_ERROR_AUTHENTICATION_FAILED:
		break;
	}
	return IWD_ERROR_FAILED;
}

GError *
iwd_error_from_joind(const gchar *method, const GError *error)
{
	IwdError code = IWD_ERROR_FAILED;

	if (error->domain == IWD_ERROR)
		return g_error_copy(error);
	if (error->domain == JOIND_ERROR)
		code = iwd_error_code(method, error->code);
	return g_error_new_literal(IWD_ERROR, code, error->message);
}

const gchar *
iwd_network_type(JoindNetworkType type)
{
	switch (type) {
	case JOIND_NETWORK_TYPE_OPEN:
	case JOIND_NETWORK_TYPE_OWE:
		return "open";
	case JOIND_NETWORK_TYPE_WEP:
		return "wep";
	case JOIND_NETWORK_TYPE_PSK:
	case JOIND_NETWORK_TYPE_SAE:
		return "psk";
	case JOIND_NETWORK_TYPE_8021X:
		return "8021x";
	}
	return "open";
}

gchar *
iwd_address_to_string(const guint8 address[6])
{
	gchar text[JOIND_MAC_STRING_LEN];

	return g_strdup(joind_mac_to_string(address, text));
}

gchar *
iwd_adapter_path(guint phy)
{
	return g_strdup_printf(IWD_ROOT_PATH "/%u", phy);
}

gchar *
iwd_device_path(guint phy, gint ifindex)
{
	return g_strdup_printf(IWD_ROOT_PATH "/%u/%d", phy, ifindex);
}

static gchar *
iwd_ssid_hex(GBytes *ssid)
{
	gsize len = 0;
	const guint8 *bytes = g_bytes_get_data(ssid, &len);
	GString *hex = g_string_sized_new(len * 2);

	for (gsize i = 0; i < len; i++)
		g_string_append_printf(hex, "%02x", bytes[i]);
	return g_string_free(hex, FALSE);
}

gchar *
iwd_network_path(const gchar *device_path, GBytes *ssid, JoindNetworkType type)
{
	g_autofree gchar *hex = iwd_ssid_hex(ssid);

	return g_strdup_printf("%s/%s_%s", device_path, hex, iwd_network_type(type));
}

gchar *
iwd_known_path(GBytes *ssid, JoindProfileType type)
{
	g_autofree gchar *hex = NULL;

	if (ssid == NULL || type == JOIND_PROFILE_TYPE_WIRED)
		return NULL;
	hex = iwd_ssid_hex(ssid);
	return g_strdup_printf(IWD_ROOT_PATH "/%s_%s", hex, joind_profile_type_to_extension(type));
}

gchar *
iwd_time_string(gint64 unix_time)
{
	g_autoptr(GDateTime) when = NULL;

	if (unix_time <= 0)
		return NULL;
	when = g_date_time_new_from_unix_utc(unix_time);
	return when != NULL ? g_date_time_format(when, "%Y-%m-%dT%H:%M:%SZ") : NULL;
}
