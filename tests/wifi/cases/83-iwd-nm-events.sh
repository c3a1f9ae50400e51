# shellcheck shell=bash
# 83-iwd-nm-events.sh - NetworkManager 1.42 over joind's iwd API (as in
# 81-iwd-nm) when things happen under it: a WPA2-PSK connection saved by
# NetworkManager (secret in its profile), then the access point
# deauthenticates the station (the daemon reconnects by itself and
# NetworkManager follows back to activated), NetworkManager killed and
# started again (the daemon keeps its connection and NetworkManager takes
# it up), the daemon
# restarted under NetworkManager (NetworkManager attaches to the new one,
# which reconnects), and a hidden network NetworkManager saved (known and
# hidden at once, found by the next scan). Checks read net.connman.iwd and nmcli -t, so
# 91-nm-differential runs this file against the real iwd too.

NMS=net.connman.iwd.Station
NMK=net.connman.iwd.KnownNetwork

trap nm_cleanup EXIT

nm_daemon_start
nm_start
nm_wait_state 60 30
wpa2_net=$IDEV/$(iwd_hex joind-wpa2)_psk
wpa2_known=/net/connman/iwd/$(iwd_hex joind-wpa2)_psk
nmcli con add type wifi con-name jw2 ifname wlan2 ssid joind-wpa2 wifi-sec.key-mgmt wpa-psk \
	wifi-sec.psk "$PASS" ipv4.method disabled ipv6.method disabled >/dev/null ||
	wifi_fail "nmcli con add jw2"
# NetworkManager activates a WiFi connection only on a network its
# device lists: the daemon's first scan after its start may still be
# running (under load, seconds), as it would for a user at boot.
wifi_poll 60 "joind-wpa2 in nmcli dev wifi list" \
	sh -c 'nmcli -t -f SSID dev wifi list ifname wlan2 --rescan no | grep -qx joind-wpa2'
nmcli -w 60 con up jw2 || wifi_fail "nmcli con up jw2"
nm_wait_state 10 100 jw2
iwd_is "$IDEV" $NMS ConnectedNetwork "$wpa2_net" || wifi_fail "not connected to joind-wpa2"
check "NetworkManager's joind-wpa2 (secret in its profile) up through $NM_DAEMON"

# The access point drops the station: the daemon reconnects on its own
# (the network is known and autoconnectable), NetworkManager takes the new
# connection up. LastConnectedTime (whole seconds) tells the new
# connection from the old one.
last=$(iwd_get "$wpa2_known" $NMK LastConnectedTime)
[[ -n $last ]] || wifi_fail "no LastConnectedTime for joind-wpa2"
sleep 1.1
mac=$(cat /sys/class/net/wlan2/address)
# Whichever BSS the station is on (hostapd_cli sta names an associated
# station first, FAIL otherwise).
deauthed=
for sock in /run/hostapd-*/*; do
	[[ -S $sock ]] || continue
	[[ $(hostapd_cli -p "${sock%/*}" -i "${sock##*/}" sta "$mac" 2>/dev/null | head -n 1) == "$mac" ]] ||
		continue
	hostapd_cli -p "${sock%/*}" -i "${sock##*/}" deauthenticate "$mac" >/dev/null ||
		wifi_fail "hostapd_cli deauthenticate on ${sock##*/}"
	deauthed+=" ${sock##*/}"
done
[[ -n $deauthed ]] || wifi_fail "no access point has $mac associated"
wifi_poll 60 "a new connection after the deauthentication" \
	bash -c "[[ \$(busctl --system --json=short get-property net.connman.iwd $wpa2_known \
		$NMK LastConnectedTime | jq -r .data) != '$last' ]]"
iwd_wait 30 "$IDEV" $NMS State connected
nm_wait_state 60 100 jw2
iwd_is "$IDEV" $NMS ConnectedNetwork "$wpa2_net" || wifi_fail "reconnected elsewhere"
check "AP deauthenticates: $NM_DAEMON reconnects, NetworkManager back to activated (jw2)"

# NetworkManager dies (SIGKILL: on SIGTERM it disconnects WiFi itself)
# and comes back: the connection stays up (LastConnectedTime unchanged)
# and NetworkManager takes it over as jw2.
nm_stop KILL
iwd_is "$IDEV" $NMS State connected || wifi_fail "disconnected when NetworkManager stopped"
last=$(iwd_get "$wpa2_known" $NMK LastConnectedTime)
nm_start
nm_wait_state 60 100 jw2
iwd_is "$IDEV" $NMS State connected || wifi_fail "not connected after NetworkManager's start"
[[ $(iwd_get "$wpa2_known" $NMK LastConnectedTime) == "$last" ]] ||
	wifi_fail "reconnected while NetworkManager restarted"
check "NetworkManager killed and restarted: $NM_DAEMON kept its connection, NetworkManager took it up"

# The daemon restarts under NetworkManager: its objects go and come back,
# it reconnects to the known network, NetworkManager follows.
nm_daemon_restart
iwd_wait 60 "$IDEV" $NMS State connected
nm_wait_state 60 100 jw2
iwd_is "$IDEV" $NMS ConnectedNetwork "$wpa2_net" || wifi_fail "not connected to joind-wpa2"
if [[ $NM_DAEMON == joind ]]; then
	jw -t 5 object net.joind.Station1 State=connected >/dev/null || wifi_fail "joind: not connected"
fi
check "$NM_DAEMON restarted under NetworkManager: reconnected, NetworkManager activated again"

nmcli con delete jw2 || wifi_fail "nmcli con delete jw2"
iwd_wait 20 "$IDEV" $NMS State disconnected
nm_wait_state 20 30

# joind-hidden (the fixture's hidden BSS on wlan0). NetworkManager's
# profile file (Hidden=true) makes it a known hidden network at once, and
# NetworkManager connects a known network only through its Network object
# (ConnectHiddenNetwork is for networks the daemon does not know): the
# daemon probes for its known hidden networks in every scan, so after a
# rescan it is listed and con up takes it. Autoconnect off, so that the
# daemon does not join it by itself once found.
hidden_known=/net/connman/iwd/$(iwd_hex joind-hidden)_psk
nmcli con add type wifi con-name jhid ifname wlan2 ssid joind-hidden 802-11-wireless.hidden yes \
	connection.autoconnect no wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$PASS" \
	ipv4.method disabled ipv6.method disabled >/dev/null || wifi_fail "nmcli con add jhid"
iwd_wait 20 "$hidden_known" $NMK Hidden true
iwd_is "$hidden_known" $NMK AutoConnect false || wifi_fail "KnownNetwork joind-hidden autoconnects"
nmcli dev wifi rescan ifname wlan2 || wifi_fail "nmcli dev wifi rescan"
wifi_poll 60 "joind-hidden in nmcli dev wifi list" \
	sh -c 'nmcli -t -f SSID dev wifi list ifname wlan2 --rescan no | grep -qx joind-hidden'
nmcli -w 60 con up jhid || wifi_fail "nmcli con up jhid"
nm_wait_state 10 100 jhid
connected=$(iwd_get "$IDEV" $NMS ConnectedNetwork)
iwd_is "$connected" net.connman.iwd.Network Name joind-hidden ||
	wifi_fail "connected to $connected, not joind-hidden"
nmcli con delete jhid || wifi_fail "nmcli con delete jhid"
iwd_wait 20 "$IDEV" $NMS State disconnected
check "hidden joind-hidden: known from NetworkManager's file (Hidden), found by a rescan, con up connects"

nm_cleanup
nm_daemon_stop
