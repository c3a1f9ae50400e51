/* manager.c - radios (wiphys) and station interfaces over nl80211.
 *
 * Start-up dumps every wiphy (split dump) and then every interface; from
 * then on the config group's events keep the picture current: new and
 * deleted wiphys and interfaces, and interface type changes (hostapd turns
 * a station into an AP). Each managed interface is handed to the owner of
 * its mode (mode_owners below, kernel/mode.h): the station, the access
 * point or the ad-hoc network. The interface's device (Device1) is the manager's and stays
 * while the interface changes modes (manager-mode.c switches them for
 * Device1.Mode); only the owner changes.
 *
 * The radios' rfkill switches (rfkill.h) reach the stations of the radio
 * they name; the system's resume from sleep (sleep.h) reaches every
 * station.
 */
#include "manager.h"

#include "joind-mac.h"
#include "address.h"
#include "adhoc-mode.h"
#include "ap-mode.h"
#include "device.h"
#include "manager-private.h"
#include "joind-observer.h"
#include "link.h"
#include "nl80211.h"
#include "rfkill.h"
#include "sleep.h"
#include "station.h"
#include "wiphy.h"

typedef struct {
	guint32 ifindex;
	gchar *name;
	guint32 wiphy;
	guint32 iftype;
	gchar address[JOIND_MAC_STRING_LEN];
} Interface;

/* Who owns an interface in each mode; an interface in a mode no one
 * owns is left alone. */
static const WifiModeOps *const mode_owners[] = {&wifi_station_mode_ops, &wifi_ap_mode_ops,
                                                 &wifi_adhoc_mode_ops};

static void manager_interface_seen(WifiManager *self, Interface *iface);

static void
owned_free(gpointer data)
{
	Owned *owned = data;

	if (owned->owner != NULL)
		owned->ops->calls->release(owned->owner);
	wifi_device_set_mode_func(WIFI_DEVICE(owned->device), NULL, NULL);
	joind_core_remove_device(owned->manager->core, owned->device);
	g_object_unref(owned->device);
	wifi_iface_unref(owned->iface);
	g_free(owned);
}

const WifiModeOps *
wifi_manager_mode_owner(guint32 iftype)
{
	for (guint i = 0; i < G_N_ELEMENTS(mode_owners); i++) {
		if (mode_owners[i]->iftype == iftype)
			return mode_owners[i];
	}
	return NULL;
}

static void
interface_free(Interface *iface)
{
	g_free(iface->name);
	g_free(iface);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Interface, interface_free)

/* NULL when attrs do not describe an interface. */
static Interface *
interface_from_attrs(struct nlattr **attrs)
{
	Interface *iface;

	if (attrs[NL80211_ATTR_IFINDEX] == NULL || attrs[NL80211_ATTR_IFNAME] == NULL ||
	    attrs[NL80211_ATTR_WIPHY] == NULL || attrs[NL80211_ATTR_IFTYPE] == NULL)
		return NULL;
	iface = g_new0(Interface, 1);
	iface->ifindex = nla_get_u32(attrs[NL80211_ATTR_IFINDEX]);
	iface->name = g_strdup(nla_get_string(attrs[NL80211_ATTR_IFNAME]));
	iface->wiphy = nla_get_u32(attrs[NL80211_ATTR_WIPHY]);
	iface->iftype = nla_get_u32(attrs[NL80211_ATTR_IFTYPE]);
	if (attrs[NL80211_ATTR_MAC] != NULL && nla_len(attrs[NL80211_ATTR_MAC]) == 6)
		joind_mac_to_string(nla_data(attrs[NL80211_ATTR_MAC]), iface->address);
	return iface;
}

gboolean
wifi_interface_allowed(const gchar *const *allow, const gchar *const *deny, const gchar *ifname)
{
	gboolean allowed = allow == NULL || allow[0] == NULL;

	for (guint i = 0; !allowed && allow[i] != NULL; i++)
		allowed = g_pattern_match_simple(allow[i], ifname);
	for (guint i = 0; allowed && deny != NULL && deny[i] != NULL; i++)
		allowed = !g_pattern_match_simple(deny[i], ifname);
	return allowed;
}

/* ---- managed interfaces --------------------------------------------------- */

static void
manager_release(WifiManager *self, guint32 ifindex, const gchar *why)
{
	Owned *owned = g_hash_table_lookup(self->owned, GUINT_TO_POINTER(ifindex));

	if (owned == NULL)
		return;
	wifi_iface_info(owned->iface, "no longer a managed %s (%s)", owned->ops->name, why);
	g_hash_table_remove(self->owned, GUINT_TO_POINTER(ifindex));
}

/* main.conf's choice of addresses, for one interface. */
static WifiAddress *
manager_address_policy(WifiManager *self)
{
	g_autofree gchar *mode =
	        joind_core_get_config_string(self->core, "General", "AddressRandomization");
	g_autofree gchar *range =
	        joind_core_get_config_string(self->core, "General", "AddressRandomizationRange");

	return wifi_address_new(wifi_address_mode_from_string(mode), g_strcmp0(range, "nic") == 0,
	                        joind_core_get_state_dir(self->core));
}

/* Why the radio's rfkill switch blocks it, or NULL. */
static const gchar *
manager_blocked(WifiManager *self, WifiWiphy *wiphy)
{
	const gchar *reason = NULL;

	if (self->rfkill != NULL && wifi_rfkill_is_blocked(self->rfkill, wiphy->name, &reason))
		return reason;
	return NULL;
}

gboolean
wifi_manager_take(WifiManager *self, Owned *owned, const WifiModeOps *ops, GError **error)
{
	WifiModeSetup setup = {
	        .core = self->core,
	        .iface = owned->iface,
	        .device = owned->device,
	        .address = joind_device_get_address(owned->device),
	        .blocked = manager_blocked(self, owned->iface->wiphy),
	        .data = ops->data,
	};

	owned->ops = ops;
	owned->owner = ops->calls->take(&setup, error);
	if (owned->owner == NULL)
		return FALSE;
	joind_device_set_mode(owned->device, wifi_manager_iftype_mode(ops->iftype));
	return TRUE;
}

/* The modes the radio runs that joind owns. */
static guint
manager_supported_modes(const WifiWiphy *wiphy)
{
	guint modes = 0;

	for (guint i = 0; i < G_N_ELEMENTS(mode_owners); i++) {
		if ((wiphy->iftypes & (1u << mode_owners[i]->iftype)) != 0)
			modes |= 1u << wifi_manager_iftype_mode(mode_owners[i]->iftype);
	}
	return modes | (1u << JOIND_DEVICE_MODE_STATION);
}

static void
manager_hand_over(WifiManager *self, const Interface *iface, WifiWiphy *wiphy,
                  const WifiModeOps *ops)
{
	g_autoptr(GError) error = NULL;
	Owned *owned = g_new0(Owned, 1);

	owned->manager = self;
	owned->iface = wifi_iface_new(self->nl, self->link, wiphy, iface->ifindex, iface->name);
	owned->iface->address = manager_address_policy(self);
	owned->device =
	        JOIND_DEVICE(wifi_device_new((gint)iface->ifindex, iface->name, NULL, NULL));
	joind_device_set_address(owned->device, iface->address[0] != '\0' ? iface->address : NULL);
	joind_device_set_supported_modes(owned->device, manager_supported_modes(wiphy));
	wifi_device_set_mode_func(WIFI_DEVICE(owned->device), wifi_manager_set_mode, self);
	/* Taken first, so that the device appears with its Station1 (or
	 * AccessPoint1) in one InterfacesAdded, as before it outlived its
	 * owner. */
	if (!wifi_manager_take(self, owned, ops, &error) ||
	    !joind_core_add_device(self->core, owned->device, &error)) {
		joind_dev_warning(iface->name, "%s", error->message);
		owned_free(owned);
		return;
	}
	g_hash_table_insert(self->owned, GUINT_TO_POINTER(iface->ifindex), owned);
}

static void manager_fetch_wiphy(WifiManager *self, guint32 id);

static void
manager_interface_seen(WifiManager *self, Interface *iface)
{
	gpointer key = GUINT_TO_POINTER(iface->ifindex);
	const WifiModeOps *ops = wifi_manager_mode_owner(iface->iftype);
	Owned *owned = g_hash_table_lookup(self->owned, key);
	WifiWiphy *wiphy;

	if (owned != NULL && owned->ops == ops && owned->owner != NULL)
		return;
	if (owned != NULL && ops != NULL) {
		wifi_manager_switch_owner(self, owned, ops, "its mode changed");
		return;
	}
	if (owned != NULL)
		manager_release(self, iface->ifindex, "a mode joind does not run");
	if (ops == NULL)
		return;
	if (!wifi_interface_allowed((const gchar *const *)self->allow,
	                            (const gchar *const *)self->deny, iface->name)) {
		if (g_hash_table_add(self->ignored, key))
			joind_dev_info(iface->name,
			               "left alone ([General] Interfaces/BlacklistInterfaces)");
		return;
	}
	wiphy = g_hash_table_lookup(self->wiphys, GUINT_TO_POINTER(iface->wiphy));
	if (wiphy == NULL) {
		/* Its wiphy is being dumped (or now will be, when its event
		 * was lost): continue when that is done. */
		manager_fetch_wiphy(self, iface->wiphy);
		g_hash_table_replace(self->pending, key, g_memdup2(iface, sizeof(*iface)));
		iface->name = NULL; /* moved into the copy */
		return;
	}
	manager_hand_over(self, iface, wiphy, ops);
}

/* ---- wiphys --------------------------------------------------------------- */

static void
wiphy_entry(struct nlattr **attrs, gpointer user_data)
{
	WifiManager *self = user_data;
	guint32 id;
	WifiWiphy *wiphy;

	if (attrs[NL80211_ATTR_WIPHY] == NULL)
		return;
	id = nla_get_u32(attrs[NL80211_ATTR_WIPHY]);
	wiphy = g_hash_table_lookup(self->wiphys, GUINT_TO_POINTER(id));
	if (wiphy == NULL) {
		wiphy = wifi_wiphy_new(id);
		g_hash_table_insert(self->wiphys, GUINT_TO_POINTER(id), wiphy);
	}
	wifi_wiphy_update(wiphy, attrs);
}

/* Interfaces that waited for a wiphy that is now known (or gone). */
static void
manager_flush_pending(WifiManager *self)
{
	g_autoptr(GList) keys = g_hash_table_get_keys(self->pending);

	for (GList *l = keys; l != NULL; l = l->next) {
		g_autoptr(Interface) iface = NULL;

		g_hash_table_steal_extended(self->pending, l->data, NULL, (gpointer *)&iface);
		if (g_hash_table_contains(self->fetching, GUINT_TO_POINTER(iface->wiphy))) {
			g_hash_table_insert(self->pending, l->data, g_steal_pointer(&iface));
			continue;
		}
		if (g_hash_table_contains(self->wiphys, GUINT_TO_POINTER(iface->wiphy)))
			manager_interface_seen(self, iface);
	}
}

static void
wiphy_fetched(int err, gpointer user_data)
{
	WifiManager *self = user_data;

	if (err < 0)
		g_warning("nl80211: reading a radio's capabilities failed: %s", g_strerror(-err));
	manager_flush_pending(self);
}

typedef struct {
	WifiManager *manager;
	guint32 id;
} WiphyFetch;

static void
single_wiphy_entry(struct nlattr **attrs, gpointer user_data)
{
	WiphyFetch *fetch = user_data;

	wiphy_entry(attrs, fetch->manager);
}

static void
single_wiphy_fetched(int err, gpointer user_data)
{
	WiphyFetch *fetch = user_data;

	g_hash_table_remove(fetch->manager->fetching, GUINT_TO_POINTER(fetch->id));
	wiphy_fetched(err, fetch->manager);
}

static void
manager_fetch_wiphy(WifiManager *self, guint32 id)
{
	struct nl_msg *msg;
	WiphyFetch *fetch;

	if (!g_hash_table_add(self->fetching, GUINT_TO_POINTER(id)))
		return;
	fetch = g_new0(WiphyFetch, 1);
	fetch->manager = self;
	fetch->id = id;
	msg = wifi_nl_msg_new(self->nl, NL80211_CMD_GET_WIPHY, NLM_F_DUMP);
	nla_put_u32(msg, NL80211_ATTR_WIPHY, id);
	nla_put_flag(msg, NL80211_ATTR_SPLIT_WIPHY_DUMP);
	wifi_nl_send(self->nl, msg, single_wiphy_entry, single_wiphy_fetched, fetch, g_free);
}

static void
manager_remove_wiphy(WifiManager *self, guint32 id)
{
	g_autoptr(GList) owned = g_hash_table_get_values(self->owned);

	for (GList *l = owned; l != NULL; l = l->next) {
		const WifiIface *iface = ((Owned *)l->data)->iface;

		if (iface->wiphy->id == id)
			manager_release(self, iface->ifindex, "radio removed");
	}
	if (g_hash_table_remove(self->wiphys, GUINT_TO_POINTER(id)))
		g_info("radio %u removed", id);
}

/* A regulatory change alters which channels are usable (or passive):
 * read the affected radios again; stations share the updated WifiWiphy. */
static void
manager_refresh_channels(WifiManager *self, struct nlattr **attrs)
{
	g_autoptr(GList) ids = NULL;

	if (attrs[NL80211_ATTR_WIPHY] != NULL) {
		manager_fetch_wiphy(self, nla_get_u32(attrs[NL80211_ATTR_WIPHY]));
		return;
	}
	ids = g_hash_table_get_keys(self->wiphys);
	for (GList *l = ids; l != NULL; l = l->next)
		manager_fetch_wiphy(self, GPOINTER_TO_UINT(l->data));
}

/* ---- events --------------------------------------------------------------- */

static void
on_nl_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	WifiManager *self = user_data;
	g_autoptr(Interface) iface = NULL;
	Owned *owned;

	switch (cmd) {
	case NL80211_CMD_NEW_WIPHY:
		if (attrs[NL80211_ATTR_WIPHY] != NULL)
			manager_fetch_wiphy(self, nla_get_u32(attrs[NL80211_ATTR_WIPHY]));
		return;
	case NL80211_CMD_DEL_WIPHY:
		if (attrs[NL80211_ATTR_WIPHY] != NULL)
			manager_remove_wiphy(self, nla_get_u32(attrs[NL80211_ATTR_WIPHY]));
		return;
	case NL80211_CMD_NEW_INTERFACE:
	case NL80211_CMD_SET_INTERFACE:
		iface = interface_from_attrs(attrs);
		if (iface != NULL)
			manager_interface_seen(self, iface);
		return;
	case NL80211_CMD_DEL_INTERFACE:
		if (attrs[NL80211_ATTR_IFINDEX] != NULL)
			manager_release(self, nla_get_u32(attrs[NL80211_ATTR_IFINDEX]),
			                "interface removed");
		return;
	case NL80211_CMD_REG_CHANGE:
	case NL80211_CMD_WIPHY_REG_CHANGE:
		manager_refresh_channels(self, attrs);
		return;
	default:
		break;
	}
	if (attrs[NL80211_ATTR_IFINDEX] == NULL)
		return;
	owned = g_hash_table_lookup(self->owned,
	                            GUINT_TO_POINTER(nla_get_u32(attrs[NL80211_ATTR_IFINDEX])));
	if (owned != NULL && owned->owner != NULL)
		owned->ops->calls->handle_event(owned->owner, cmd, attrs);
}

static void
on_link(gint ifindex, const gchar *name, const gchar *address, guint flags, gpointer user_data)
{
	WifiManager *self = user_data;
	Owned *owned = g_hash_table_lookup(self->owned, GUINT_TO_POINTER(ifindex));

	if (owned != NULL && owned->owner != NULL)
		owned->ops->calls->link_changed(owned->owner, name, address, flags);
}

/* ---- after lost events ---------------------------------------------------- */

static void
resync_entry(struct nlattr **attrs, gpointer user_data)
{
	WifiManager *self = user_data;
	g_autoptr(Interface) iface = interface_from_attrs(attrs);

	if (iface == NULL)
		return;
	g_hash_table_add(self->resync_seen, GUINT_TO_POINTER(iface->ifindex));
	manager_interface_seen(self, iface);
}

/* Stations whose interface the new listing lacks went away unseen. */
static void
resync_dumped(int err, gpointer user_data)
{
	WifiManager *self = user_data;
	g_autoptr(GHashTable) seen = g_steal_pointer(&self->resync_seen);
	g_autoptr(GList) ifindexes = NULL;

	if (err < 0) {
		g_warning("nl80211: listing interfaces again failed: %s", g_strerror(-err));
		return;
	}
	ifindexes = g_hash_table_get_keys(self->owned);
	for (GList *l = ifindexes; l != NULL; l = l->next) {
		if (!g_hash_table_contains(seen, l->data))
			manager_release(self, GPOINTER_TO_UINT(l->data),
			                "gone while events were lost");
	}
}

/* Events were lost: interfaces may have come or gone, each station's scan
 * and link may have moved on. */
static void
on_events_lost(gpointer user_data)
{
	WifiManager *self = user_data;
	GHashTableIter iter;
	Owned *owned;
	struct nl_msg *msg;

	g_hash_table_iter_init(&iter, self->owned);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&owned)) {
		if (owned->owner != NULL)
			owned->ops->calls->resync(owned->owner);
	}
	if (self->resync_seen != NULL)
		return; /* a listing is under way already */
	self->resync_seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	msg = wifi_nl_msg_new(self->nl, NL80211_CMD_GET_INTERFACE, NLM_F_DUMP);
	wifi_nl_send(self->nl, msg, resync_entry, resync_dumped, self, NULL);
}

static void
on_rfkill(const gchar *wiphy_name, gboolean blocked, const gchar *reason, gpointer user_data)
{
	WifiManager *self = user_data;
	g_autoptr(GList) owned = g_hash_table_get_values(self->owned);

	for (GList *l = owned; l != NULL; l = l->next) {
		const Owned *o = l->data;
		WifiWiphy *wiphy =
		        g_hash_table_lookup(self->wiphys, GUINT_TO_POINTER(o->iface->wiphy->id));

		if (o->owner != NULL && wiphy != NULL && g_strcmp0(wiphy->name, wiphy_name) == 0)
			o->ops->calls->set_blocked(o->owner, blocked, reason);
	}
}

static void
on_resumed(gpointer user_data)
{
	WifiManager *self = user_data;
	g_autoptr(GList) owned = g_hash_table_get_values(self->owned);

	for (GList *l = owned; l != NULL; l = l->next) {
		const Owned *o = l->data;

		if (o->owner != NULL)
			o->ops->calls->resumed(o->owner);
	}
}

/* ---- start-up ------------------------------------------------------------- */

static void
interface_entry(struct nlattr **attrs, gpointer user_data)
{
	g_autoptr(Interface) iface = interface_from_attrs(attrs);

	if (iface != NULL)
		manager_interface_seen(user_data, iface);
}

static void
interfaces_dumped(int err, gpointer user_data)
{
	WifiManager *self = user_data;

	if (err < 0)
		g_warning("nl80211: listing interfaces failed: %s", g_strerror(-err));
	g_info("%u radios, %u interfaces managed", g_hash_table_size(self->wiphys),
	       g_hash_table_size(self->owned));
}

static void
wiphys_dumped(int err, gpointer user_data)
{
	WifiManager *self = user_data;
	struct nl_msg *msg;

	wiphy_fetched(err, self);
	msg = wifi_nl_msg_new(self->nl, NL80211_CMD_GET_INTERFACE, NLM_F_DUMP);
	wifi_nl_send(self->nl, msg, interface_entry, interfaces_dumped, self, NULL);
}

/* Without /dev/rfkill (a container) no radio is ever blocked. */
static WifiRfkill *
wifi_manager_open_rfkill(WifiManager *self)
{
	g_autoptr(GError) error = NULL;
	WifiRfkill *rfkill = wifi_rfkill_new(on_rfkill, self, &error);

	if (rfkill == NULL)
		g_info("%s: radios are taken as never blocked", error->message);
	return rfkill;
}

WifiManager *
wifi_manager_new(JoindCore *core, GError **error)
{
	WifiManager *self = g_new0(WifiManager, 1);
	struct nl_msg *msg;

	self->core = core;
	self->nl = wifi_nl_new(error);
	if (self->nl == NULL) {
		wifi_manager_free(self);
		return NULL;
	}
	self->link = wifi_link_new(on_link, self, error);
	if (self->link == NULL) {
		wifi_manager_free(self);
		return NULL;
	}
	self->wiphys = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	                                     (GDestroyNotify)wifi_wiphy_unref);
	self->owned = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, owned_free);
	self->pending = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	                                      (GDestroyNotify)interface_free);
	self->fetching = g_hash_table_new(g_direct_hash, g_direct_equal);
	self->ignored = g_hash_table_new(g_direct_hash, g_direct_equal);
	self->allow = joind_core_get_config_strv(core, "General", "Interfaces");
	self->deny = joind_core_get_config_strv(core, "General", "BlacklistInterfaces");
	self->listener = wifi_nl_add_listener(self->nl, on_nl_event, self);
	wifi_nl_add_resync_listener(self->nl, on_events_lost, self);
	self->rfkill = wifi_manager_open_rfkill(self);
	self->sleep = wifi_sleep_new(NULL, on_resumed, self);

	msg = wifi_nl_msg_new(self->nl, NL80211_CMD_GET_WIPHY, NLM_F_DUMP);
	nla_put_flag(msg, NL80211_ATTR_SPLIT_WIPHY_DUMP);
	wifi_nl_send(self->nl, msg, wiphy_entry, wiphys_dumped, self, NULL);
	return self;
}

void
wifi_manager_free(WifiManager *self)
{
	if (self == NULL)
		return;
	if (self->owned != NULL) {
		g_autoptr(GList) ifindexes = g_hash_table_get_keys(self->owned);

		for (GList *l = ifindexes; l != NULL; l = l->next)
			manager_release(self, GPOINTER_TO_UINT(l->data), "shutting down");
	}
	g_clear_pointer(&self->sleep, wifi_sleep_free);
	g_clear_pointer(&self->rfkill, wifi_rfkill_free);
	g_clear_pointer(&self->owned, g_hash_table_unref);
	g_clear_pointer(&self->wiphys, g_hash_table_unref);
	g_clear_pointer(&self->pending, g_hash_table_unref);
	g_clear_pointer(&self->fetching, g_hash_table_unref);
	g_clear_pointer(&self->ignored, g_hash_table_unref);
	g_clear_pointer(&self->resync_seen, g_hash_table_unref);
	g_strfreev(self->allow);
	g_strfreev(self->deny);
	g_clear_pointer(&self->link, wifi_link_free);
	g_clear_pointer(&self->nl, wifi_nl_free);
	g_free(self);
}
