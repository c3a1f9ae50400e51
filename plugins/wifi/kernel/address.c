/* address.c - which MAC address a station shows (see address.h). */
#include "address.h"

#include <string.h>

#include "joind-mac.h"
#include "joind-error.h"
#include "joind-observer.h"
#include "joind-profile.h"
#include "rsn-crypto.h"

#define SECRET_FILE "address-secret"
#define SECRET_LEN  32

struct _WifiAddress {
	WifiAddressMode mode;
	gboolean nic; /* AddressRandomizationRange=nic: keep the OUI */
	gchar *state_dir;
	guint8 secret[SECRET_LEN];
	gboolean have_secret;
	guint8 permanent[6];
	gboolean have_permanent;
	gboolean changed; /* joind set an address of its own */
};

WifiAddress *
wifi_address_new(WifiAddressMode mode, gboolean nic_range, const gchar *state_dir)
{
	WifiAddress *self = g_new0(WifiAddress, 1);

	self->mode = mode;
	self->nic = nic_range;
	self->state_dir = g_strdup(state_dir);
	return self;
}

void
wifi_address_free(WifiAddress *self)
{
	if (self == NULL)
		return;
	explicit_bzero(self->secret, sizeof(self->secret));
	g_free(self->state_dir);
	g_free(self);
}

WifiAddressMode
wifi_address_mode_from_string(const gchar *text)
{
	if (g_strcmp0(text, "once") == 0)
		return WIFI_ADDRESS_ONCE;
	if (g_strcmp0(text, "network") == 0)
		return WIFI_ADDRESS_NETWORK;
	return WIFI_ADDRESS_DISABLED;
}

gboolean
wifi_address_randomize_scans(WifiAddress *self)
{
	return self != NULL && self->mode != WIFI_ADDRESS_DISABLED;
}

/* A locally administered unicast address; nic keeps the OUI. */
static void
make_local_unicast(guint8 addr[6], const guint8 permanent[6], gboolean nic)
{
	if (nic) {
		memcpy(addr, permanent, 3);
		return;
	}
	addr[0] = (guint8)((addr[0] & 0xfc) | 0x02);
}

void
wifi_address_derive(const guint8 secret[32], const guint8 permanent[6], const guint8 *ssid,
                    gsize ssid_len, gboolean nic, guint8 out[6])
{
	const WifiIov iov[] = {{permanent, 6}, {ssid, ssid_len}};
	guint8 mac[32];

	/* HMAC-SHA256 with a 32-octet key and two short inputs cannot fail
	 * once libcrypto is loaded; a failure leaves an all-zero digest,
	 * which the caller's address check refuses. */
	memset(mac, 0, sizeof(mac));
	wifi_hmac("SHA256", secret, SECRET_LEN, iov, G_N_ELEMENTS(iov), mac, sizeof(mac), NULL,
	          NULL);
	memcpy(out, mac, 6);
	make_local_unicast(out, permanent, nic);
}

static gboolean
random_address(WifiAddress *self, guint8 out[6], GError **error)
{
	if (!wifi_random_bytes(out, 6, error))
		return FALSE;
	make_local_unicast(out, self->permanent, self->nic);
	return TRUE;
}

/* Reads the secret from path: TRUE when it was there (error unset for a
 * missing file, *missing TRUE). */
static gboolean
read_secret(WifiAddress *self, const gchar *path, gboolean *missing, GError **error)
{
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	*missing = FALSE;
	if (!g_file_get_contents(path, &data, &len, &local)) {
		*missing = g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT);
		if (!*missing)
			g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	if (len == SECRET_LEN)
		memcpy(self->secret, data, SECRET_LEN);
	else
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "%s is not a %d-octet secret; remove it and joind makes a new one "
		            "(each network's address then changes).",
		            path, SECRET_LEN);
	explicit_bzero(data, len);
	return len == SECRET_LEN;
}

/* The secret that network addresses derive from: read from the state
 * directory, or made there (0600) the first time. */
static gboolean
load_secret(WifiAddress *self, GError **error)
{
	g_autofree gchar *path = NULL;
	gboolean missing;

	if (self->have_secret)
		return TRUE;
	if (self->state_dir == NULL)
		return self->have_secret = wifi_random_bytes(self->secret, SECRET_LEN, error);
	path = g_build_filename(self->state_dir, SECRET_FILE, NULL);
	if (read_secret(self, path, &missing, error))
		return self->have_secret = TRUE;
	if (!missing || !wifi_random_bytes(self->secret, SECRET_LEN, error) ||
	    !g_file_set_contents_full(path, (const gchar *)self->secret, SECRET_LEN,
	                              G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
		return FALSE;
	g_info("made the secret for per-network addresses: %s", path);
	return self->have_secret = TRUE;
}

/* The radio's own address (ethtool); the address seen first when the
 * driver does not tell. */
static void
load_permanent(WifiAddress *self, WifiIface *iface, const guint8 current[6])
{
	static const guint8 zero[6];
	g_autoptr(GError) error = NULL;

	if (self->have_permanent)
		return;
	if (iface->link == NULL ||
	    !wifi_link_get_permanent_address(iface->link, iface->name, self->permanent, &error) ||
	    memcmp(self->permanent, zero, 6) == 0) {
		wifi_iface_debug(
		        iface, "no permanent address from the driver (%s); taking the current one",
		        error != NULL ? error->message : "all zero");
		memcpy(self->permanent, current, 6);
	}
	self->have_permanent = TRUE;
}

/* The profile's AddressOverride, when it has a good one. */
static gboolean
profile_override(JoindProfile *profile, guint8 out[6])
{
	g_autofree gchar *text = NULL;

	if (profile == NULL || !joind_profile_has_key(profile, "Settings", "AddressOverride"))
		return FALSE;
	text = joind_profile_get_string(profile, "Settings", "AddressOverride");
	return text != NULL && joind_mac_parse(text, out);
}

gboolean
wifi_address_for_network(WifiAddress *self, WifiIface *iface, const guint8 *ssid, gsize ssid_len,
                         JoindProfile *profile, const guint8 current[6], guint8 out[6],
                         GError **error)
{
	memcpy(out, current, 6);
	if (self == NULL || self->mode != WIFI_ADDRESS_NETWORK)
		return TRUE;
	load_permanent(self, iface, current);
	if (profile_override(profile, out))
		return TRUE;
	if (profile != NULL &&
	    joind_profile_get_boolean(profile, "Settings", "AlwaysRandomizeAddress", FALSE))
		return random_address(self, out, error);
	if (!load_secret(self, error))
		return FALSE;
	wifi_address_derive(self->secret, self->permanent, ssid, ssid_len, self->nic, out);
	return TRUE;
}

static gboolean
address_initial(WifiAddress *self, WifiIface *iface, const guint8 current[6], guint8 out[6])
{
	g_autoptr(GError) error = NULL;

	if (self == NULL || self->mode != WIFI_ADDRESS_ONCE || iface->link == NULL)
		return FALSE;
	load_permanent(self, iface, current);
	if (random_address(self, out, &error))
		return TRUE;
	wifi_iface_warning(iface, "no random address: %s", error->message);
	return FALSE;
}

gboolean
wifi_address_apply(WifiIface *iface, const guint8 addr[6], const guint8 current[6], GError **error)
{
	gchar text[JOIND_MAC_STRING_LEN];

	if (memcmp(addr, current, 6) == 0 || iface->link == NULL)
		return TRUE;
	if (!wifi_link_set_address(iface->link, iface->name, addr, error))
		return FALSE;
	if (iface->address != NULL)
		iface->address->changed = TRUE;
	wifi_iface_info(iface, "address now %s", joind_mac_to_string(addr, text));
	return TRUE;
}

static void
address_restore(WifiAddress *self, WifiIface *iface, const guint8 current[6])
{
	g_autoptr(GError) error = NULL;

	if (self == NULL || !self->changed || !self->have_permanent)
		return;
	if (!wifi_address_apply(iface, self->permanent, current, &error))
		wifi_iface_warning(iface, "could not restore the permanent address: %s",
		                   error->message);
	self->changed = FALSE;
}

void
wifi_address_start(WifiIface *iface, JoindDevice *device)
{
	g_autoptr(GError) error = NULL;
	guint8 current[6];
	guint8 addr[6];
	gchar text[JOIND_MAC_STRING_LEN];

	if (!joind_mac_parse(joind_device_get_address(device), current) ||
	    !address_initial(iface->address, iface, current, addr))
		return;
	if (!wifi_address_apply(iface, addr, current, &error)) {
		g_warning("%s", error->message);
		return;
	}
	joind_device_set_address(device, joind_mac_to_string(addr, text));
}

void
wifi_address_stop(WifiIface *iface, JoindDevice *device)
{
	guint8 current[6];

	if (joind_mac_parse(joind_device_get_address(device), current))
		address_restore(iface->address, iface, current);
}

void
wifi_address_diagnostics(WifiIface *iface, const gchar *current, GVariantDict *d)
{
	static const gchar *const modes[] = {"disabled", "once", "network"};
	WifiAddress *self = iface->address;
	guint8 now[6];
	gchar text[JOIND_MAC_STRING_LEN];

	if (current == NULL || !joind_mac_parse(current, now))
		return;
	g_variant_dict_insert(d, "address", "s", current);
	if (self == NULL)
		return;
	load_permanent(self, iface, now);
	g_variant_dict_insert(d, "address_randomization", "s", modes[self->mode]);
	g_variant_dict_insert(d, "permanent_address", "s",
	                      joind_mac_to_string(self->permanent, text));
}
