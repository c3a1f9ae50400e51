/* ap-room.c - drives plugins/wifi/ap alone on a real radio, for the VM
 * cases of access point mode: the AP room's nl80211 (START_AP, registered
 * frames, NEW_STATION, the control port, keys) against the kernel's
 * mac80211_hwsim and a real client, before the D-Bus API starts it in
 * joind.
 *
 *   ap-room IFNAME SSID PASSPHRASE|--open CHANNEL [REKEY_SECONDS [wpa2|wpa3|wpa2-wpa3]]
 *
 * IFNAME must be up in AP mode already (iw dev IFNAME set type __ap).
 * Prints "started FREQ" once beaconing, "joined MAC" and "left MAC" per
 * station; exits on SIGTERM (stopping the BSS) or when the BSS stops.
 */
#include <glib-unix.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "ap.h"
#include "joind-mac.h"
#include "nl80211.h"

typedef struct {
	GMainLoop *loop;
	WifiNl *nl;
	WifiWiphy *wiphy;
	guint32 ifindex;
	guint32 wiphy_id;
	guint8 mac[6];
	WifiAp *ap;
	int status;
} Room;

static void
on_interface(struct nlattr **attrs, gpointer user_data)
{
	Room *r = user_data;

	if (attrs[NL80211_ATTR_WIPHY] != NULL)
		r->wiphy_id = nla_get_u32(attrs[NL80211_ATTR_WIPHY]);
	if (attrs[NL80211_ATTR_MAC] != NULL)
		memcpy(r->mac, nla_data(attrs[NL80211_ATTR_MAC]), 6);
}

static void
on_wiphy(struct nlattr **attrs, gpointer user_data)
{
	Room *r = user_data;

	if (attrs[NL80211_ATTR_WIPHY] != NULL &&
	    nla_get_u32(attrs[NL80211_ATTR_WIPHY]) == r->wiphy_id)
		wifi_wiphy_update(r->wiphy, attrs);
}

static void
request_done(int error, gpointer user_data)
{
	Room *r = user_data;

	if (error < 0) {
		fprintf(stderr, "ap-room: nl80211: %s\n", g_strerror(-error));
		r->status = 1;
	}
	g_main_loop_quit(r->loop);
}

/* Runs one request to its end. */
static gboolean
run_request(Room *r, struct nl_msg *msg, WifiNlReplyFunc reply)
{
	wifi_nl_send(r->nl, msg, reply, request_done, r, NULL);
	g_main_loop_run(r->loop);
	return r->status == 0;
}

static void
on_state(WifiApState old_state, WifiApState new_state, const gchar *reason, gpointer user_data)
{
	Room *r = user_data;

	if (new_state == WIFI_AP_STATE_STARTED)
		printf("started %u\n", wifi_ap_get_frequency(r->ap));
	if (new_state == WIFI_AP_STATE_IDLE) {
		printf("stopped (%s)\n", reason);
		r->status = old_state == WIFI_AP_STATE_STOPPING ? r->status : 1;
		g_main_loop_quit(r->loop);
	}
	fflush(stdout);
}

static void
on_station(const guint8 mac[6], gboolean joined, gpointer user_data)
{
	gchar text[JOIND_MAC_STRING_LEN];

	(void)user_data;
	printf("%s %s\n", joined ? "joined" : "left", joind_mac_to_string(mac, text));
	fflush(stdout);
}

static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	Room *r = user_data;

	if (r->ap != NULL && attrs[NL80211_ATTR_IFINDEX] != NULL &&
	    nla_get_u32(attrs[NL80211_ATTR_IFINDEX]) == r->ifindex)
		wifi_ap_handle_event(r->ap, cmd, attrs);
}

static gboolean
on_sigterm(gpointer user_data)
{
	Room *r = user_data;

	wifi_ap_stop(r->ap, "SIGTERM");
	return G_SOURCE_REMOVE;
}

static gboolean
room_read_radio(Room *r)
{
	struct nl_msg *msg = wifi_nl_msg_new(r->nl, NL80211_CMD_GET_INTERFACE, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, r->ifindex);
	if (!run_request(r, msg, on_interface))
		return FALSE;
	msg = wifi_nl_msg_new(r->nl, NL80211_CMD_GET_WIPHY, NLM_F_DUMP);
	nla_put_u32(msg, NL80211_ATTR_WIPHY, r->wiphy_id);
	nla_put_flag(msg, NL80211_ATTR_SPLIT_WIPHY_DUMP);
	r->wiphy = wifi_wiphy_new(r->wiphy_id);
	return run_request(r, msg, on_wiphy);
}

static void
room_config(WifiApConfig *config, int argc, char **argv)
{
	config->ssid_len = strlen(argv[2]);
	memcpy(config->ssid, argv[2], config->ssid_len);
	config->open = strcmp(argv[3], "--open") == 0;
	config->secret = config->open ? NULL : argv[3];
	config->channel = (guint)g_ascii_strtoull(argv[4], NULL, 10);
	config->rekey_interval = argc > 5 ? (guint)g_ascii_strtoull(argv[5], NULL, 10) : 0;
	if (argc > 6)
		config->security = g_str_equal(argv[6], "wpa3")        ? WIFI_AP_SECURITY_WPA3
		                   : g_str_equal(argv[6], "wpa2-wpa3") ? WIFI_AP_SECURITY_WPA2_WPA3
		                                                       : WIFI_AP_SECURITY_WPA2;
}

/* Runs the AP until SIGTERM stops it or the kernel does. */
static void
room_run(Room *r, const gchar *ifname, const WifiApConfig *config)
{
	static const WifiApCallbacks cb = {on_state, on_station};
	g_autoptr(GError) error = NULL;
	WifiIface *iface = wifi_iface_new(r->nl, NULL, r->wiphy, r->ifindex, ifname);

	r->ap = wifi_ap_new(iface, r->mac, &cb, r);
	if (wifi_ap_start(r->ap, config, &error)) {
		g_unix_signal_add(SIGTERM, on_sigterm, r);
		g_main_loop_run(r->loop);
	} else {
		fprintf(stderr, "ap-room: %s\n", error->message);
		r->status = 1;
	}
	g_clear_pointer(&r->ap, wifi_ap_free);
	wifi_iface_unref(iface);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	WifiApConfig config = {0};
	Room r = {0};

	if (argc < 5 || strlen(argv[2]) > 32) {
		fprintf(stderr, "usage: ap-room IFNAME SSID PASSPHRASE|--open CHANNEL [REKEY "
		                "[wpa2|wpa3|wpa2-wpa3]]\n");
		return 2;
	}
	r.ifindex = if_nametoindex(argv[1]);
	r.nl = r.ifindex != 0 ? wifi_nl_new(&error) : NULL;
	if (r.nl == NULL) {
		fprintf(stderr, "ap-room: %s\n",
		        r.ifindex == 0 ? "no such interface" : error->message);
		return 1;
	}
	r.loop = g_main_loop_new(NULL, FALSE);
	wifi_nl_add_listener(r.nl, on_event, &r);
	room_config(&config, argc, argv);
	if (room_read_radio(&r))
		room_run(&r, argv[1], &config);
	else
		r.status = 1;
	g_clear_pointer(&r.wiphy, wifi_wiphy_unref);
	wifi_nl_free(r.nl);
	g_main_loop_unref(r.loop);
	return r.status;
}
