/* manager-mode.c - switching a managed interface between modes for
 * Device1.Mode (and the iwd front end's Device.Mode), the way iwd does:
 * the device stays; it is powered off, the old owner gives the interface
 * back (a station disconnects, an access point stops), the link goes
 * down, nl80211 SET_INTERFACE changes its type, and the new owner takes
 * it (its object's interface, Station1 or AccessPoint1, appears) and
 * brings the link up (powered again) before the write is answered.
 * Back in station mode the new station autoconnects.
 */
#include <linux/nl80211.h>

#include "device.h"
#include "joind-error.h"
#include "manager-private.h"

JoindDeviceMode
wifi_manager_iftype_mode(guint32 iftype)
{
	switch (iftype) {
	case NL80211_IFTYPE_AP:
		return JOIND_DEVICE_MODE_AP;
	case NL80211_IFTYPE_ADHOC:
		return JOIND_DEVICE_MODE_ADHOC;
	default:
		return JOIND_DEVICE_MODE_STATION;
	}
}

static guint32
mode_iftype(JoindDeviceMode mode)
{
	switch (mode) {
	case JOIND_DEVICE_MODE_AP:
		return NL80211_IFTYPE_AP;
	case JOIND_DEVICE_MODE_ADHOC:
		return NL80211_IFTYPE_ADHOC;
	case JOIND_DEVICE_MODE_STATION:
	default:
		return NL80211_IFTYPE_STATION;
	}
}

static void
owned_give_back(Owned *owned)
{
	if (owned->owner == NULL)
		return;
	owned->ops->calls->release(owned->owner);
	owned->owner = NULL;
}

void
wifi_manager_switch_owner(WifiManager *self, Owned *owned, const WifiModeOps *ops, const gchar *why)
{
	g_autoptr(GError) error = NULL;

	wifi_iface_info(owned->iface, "from %s to %s (%s)", owned->ops->name, ops->name, why);
	owned_give_back(owned);
	if (!wifi_manager_take(self, owned, ops, &error))
		wifi_iface_warning(owned->iface, "%s", error->message);
}

typedef struct {
	WifiManager *manager;
	guint32 ifindex;
	JoindDeviceMode mode;
	const WifiModeOps *from;
	GTask *task;
} ModeSwitch;

static void
mode_switch_free(ModeSwitch *sw)
{
	g_clear_object(&sw->task);
	g_free(sw);
}

/* SET_INTERFACE answered. Its event may have come first and switched the
 * owner already (manager.c's interface_seen). */
static void
mode_switched(int err, gpointer user_data)
{
	ModeSwitch *sw = user_data;
	Owned *owned = g_hash_table_lookup(sw->manager->owned, GUINT_TO_POINTER(sw->ifindex));
	const WifiModeOps *ops = wifi_manager_mode_owner(mode_iftype(sw->mode));
	g_autoptr(GError) error = NULL;

	if (owned == NULL) {
		g_task_return_new_error(sw->task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		                        "The interface went away while its mode changed.");
		mode_switch_free(sw);
		return;
	}
	owned->switching = FALSE;
	if (err < 0) {
		g_set_error(&error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "%s cannot switch to %s mode: the kernel refused (%s)",
		            owned->iface->name, joind_device_mode_to_string(sw->mode),
		            g_strerror(-err));
		g_warning("%s", error->message);
		ops = sw->from; /* the old owner takes it back */
	}
	if (owned->owner == NULL || owned->ops != ops) {
		g_autoptr(GError) take_error = NULL;

		owned_give_back(owned);
		if (!wifi_manager_take(sw->manager, owned, ops, &take_error)) {
			wifi_iface_warning(owned->iface, "%s", take_error->message);
			if (error == NULL)
				error = g_steal_pointer(&take_error);
		}
	}
	if (error != NULL)
		g_task_return_error(sw->task, g_steal_pointer(&error));
	else
		g_task_return_boolean(sw->task, TRUE);
	mode_switch_free(sw);
}

static void
mode_switch_send(WifiManager *self, Owned *owned, ModeSwitch *sw)
{
	g_autoptr(GError) error = NULL;
	struct nl_msg *msg;

	joind_device_set_powered(owned->device, FALSE);
	joind_device_set_state(owned->device, JOIND_DEVICE_STATE_DOWN);
	owned_give_back(owned);
	if (!wifi_link_set_down(self->link, owned->iface->name, &error)) {
		/* SET_INTERFACE says whether the driver can switch it up. */
		g_info("%s", error->message);
	}
	owned->switching = TRUE;
	msg = wifi_nl_msg_new(self->nl, NL80211_CMD_SET_INTERFACE, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, sw->ifindex);
	nla_put_u32(msg, NL80211_ATTR_IFTYPE, mode_iftype(sw->mode));
	wifi_nl_send(self->nl, msg, NULL, mode_switched, sw, NULL);
}

void
wifi_manager_set_mode(gpointer user_data, JoindDevice *device, JoindDeviceMode mode, GTask *task)
{
	WifiManager *self = user_data;
	guint32 ifindex = (guint32)joind_device_get_ifindex(device);
	Owned *owned = g_hash_table_lookup(self->owned, GUINT_TO_POINTER(ifindex));
	ModeSwitch *sw;

	if (owned == NULL || owned->switching) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_BUSY,
		                        "%s is changing modes already.",
		                        joind_device_get_name(device));
		g_object_unref(task);
		return;
	}
	wifi_iface_info(owned->iface, "switching from %s to %s mode (asked for)",
	                joind_device_mode_to_string(joind_device_get_mode(device)),
	                joind_device_mode_to_string(mode));
	sw = g_new0(ModeSwitch, 1);
	sw->manager = self;
	sw->ifindex = ifindex;
	sw->mode = mode;
	sw->from = owned->ops;
	sw->task = task;
	mode_switch_send(self, owned, sw);
}
