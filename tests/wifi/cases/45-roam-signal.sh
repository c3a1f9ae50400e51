# shellcheck shell=bash
# 45-roam-signal.sh - a WPA2-PSK roam on a signal drop. joind-roam beacons
# from wlan4 (channel 6) and wlan5 (channel 11); joind joins one, whose
# signal then falls to about -80 dBm (its radio's hwsim rx_rssi, which the
# station hears plus the sender's 20 dBm), below RoamThreshold (-70).
# joind must reassociate to the other: hostapd there lists the station,
# Station1 is connected to the same network, and over the whole move
# Station1.State never said disconnected (nor ConnectedNetwork changed).

roam_ap() { # NAME IFACE CHANNEL
	wifi_start_hostapd "$1" <<EOF2
interface=$2
driver=nl80211
hw_mode=g
channel=$3
ssid=joind-roam
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS
rrm_neighbor_report=1
bss_transition=1
EOF2
}
roam_has_sta() { hostapd_cli -p "/run/hostapd-$1" -i "$2" list_sta 2>/dev/null | grep -qix "$3"; }
roam_rssi_file() { echo "/sys/kernel/debug/ieee80211/$(cat "/sys/class/net/$1/phy80211/name")/hwsim/rx_rssi"; }

mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
roam_ap roam1 wlan4 6
roam_ap roam2 wlan5 11
wifi_step "joind-roam beaconing on wlan4 (channel 6) and wlan5 (channel 11)"
printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/joind-roam.psk"
jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
net=$(jw -t 40 count 1 $NET "Device=$DEV" Name=joind-roam 'KnownNetwork!=/') ||
	wifi_fail "joind-roam not listed as known"
wifi_connect "$net" joind-roam
sta=$(cat /sys/class/net/wlan2/address)
if roam_has_sta roam1 wlan4 "$sta"; then
	from=(roam1 wlan4) to=(roam2 wlan5)
else
	roam_has_sta roam2 wlan5 "$sta" || wifi_fail "neither access point lists $sta"
	from=(roam2 wlan5) to=(roam1 wlan4)
fi
check "connected to joind-roam through ${from[1]} in $TOOK s"

# Every State and ConnectedNetwork change of the station, from now on.
gdbus monitor --system --dest net.joind --object-path "$DEV" >"$WORK/roam-monitor.txt" 2>&1 &
monitor=$!
sleep 0.5
rssi_file=$(roam_rssi_file "${from[1]}")
rssi_saved=$(cat "$rssi_file")
t=$(wifi_now)
printf '%u' -100 >"$rssi_file"
wifi_poll 30 "the station on ${to[1]}" roam_has_sta "${to[0]}" "${to[1]}" "$sta"
jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
	wifi_fail "after the roam: not connected to joind-roam"
took=$(wifi_since "$t")
sleep 1
kill "$monitor" 2>/dev/null || true
wait "$monitor" 2>/dev/null || true
printf '%s' "$rssi_saved" >"$rssi_file"
grep -q "'State': <'roaming'>" "$WORK/roam-monitor.txt" ||
	wifi_fail "Station1.State never said roaming: $(cat "$WORK/roam-monitor.txt")"
if grep -E "'State': <'(disconnected|connecting|disconnecting)'>|'ConnectedNetwork': <objectpath '/'>" \
	"$WORK/roam-monitor.txt"; then
	wifi_fail "the station reported a disconnection during the roam"
fi
check "signal -80 dBm on ${from[1]}: roamed to ${to[1]} in $took s, State roaming -> connected, never disconnected"

jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null || wifi_fail "Disconnect()"
wifi_stop_hostapd roam1
wifi_stop_hostapd roam2
rm -f "$WORK/state/joind-roam.psk"
