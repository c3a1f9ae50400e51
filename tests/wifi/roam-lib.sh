# shellcheck shell=bash
# roam-lib.sh - what the roaming cases (45-..47-) share, sourced by them:
# joind-roam (WPA2-PSK, neighbour reports and BSS transition on) from
# wlan4 (channel 6) and wlan5 (channel 11), joined; the station's D-Bus
# changes recorded while it roams, and checked afterwards.

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
roam_cli() { hostapd_cli -p "/run/hostapd-$1" -i "$2" "${@:3}"; }
# An access point has the station when it lists it associated and
# authorized: hostapd keeps listing a station a while after it left, or
# after an association that did not complete.
roam_has_sta() {
	roam_cli "$1" "$2" sta "$3" 2>/dev/null | grep -q '^flags=.*\[ASSOC\].*\[AUTHORIZED\]'
}
roam_rssi_file() { echo "/sys/kernel/debug/ieee80211/$(cat "/sys/class/net/$1/phy80211/name")/hwsim/rx_rssi"; }

# roam_find_sta NAME1 IFACE1 NAME2 IFACE2: which of the two access points
# lists ROAM_STA (ROAM_FROM: hostapd name and interface) and the other
# (ROAM_TO, ROAM_TO_BSSID).
roam_find_sta() {
	if roam_has_sta "$1" "$2" "$ROAM_STA"; then
		ROAM_FROM=("$1" "$2") ROAM_TO=("$3" "$4")
	else
		roam_has_sta "$3" "$4" "$ROAM_STA" || wifi_fail "neither access point lists $ROAM_STA"
		ROAM_FROM=("$3" "$4") ROAM_TO=("$1" "$2")
	fi
	roam_set_to_bssid
}

# roam_swap: the station is on ROAM_TO now, the other is the next target.
roam_swap() {
	local from=("${ROAM_FROM[@]}")
	ROAM_FROM=("${ROAM_TO[@]}")
	ROAM_TO=("${from[@]}")
	roam_set_to_bssid
}

# ROAM_TO_BSSID: ROAM_TO's address as hostapd says it, which works for an
# access point in another network namespace too.
roam_set_to_bssid() {
	ROAM_TO_BSSID=$(roam_cli "${ROAM_TO[@]}" status | sed -n 's/^bssid\[0\]=//p')
	[[ -n $ROAM_TO_BSSID ]] || wifi_fail "hostapd ${ROAM_TO[0]} does not say its BSSID"
}

# Both access points up, joind connected to joind-roam: sets ROAM_NET, ROAM_STA
# (our address), ROAM_FROM and ROAM_TO (hostapd name and interface each).
roam_setup() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	roam_ap roam1 wlan4 6
	roam_ap roam2 wlan5 11
	wifi_step "joind-roam beaconing on wlan4 (channel 6) and wlan5 (channel 11)"
	printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/joind-roam.psk"
	jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
	ROAM_NET=$(jw -t 40 count 1 $NET "Device=$DEV" Name=joind-roam 'KnownNetwork!=/') ||
		wifi_fail "joind-roam not listed as known"
	wifi_connect "$ROAM_NET" joind-roam
	ROAM_STA=$(cat /sys/class/net/wlan2/address)
	roam_find_sta roam1 wlan4 roam2 wlan5
	check "connected to joind-roam through ${ROAM_FROM[1]} in $TOOK s"
}

# hostapd NAME on IFACE saw our last (re)association request advertise BSS
# Transition (Extended Capabilities bit 19: ext_capab's third octet, 0x08)
# and radio measurement (the Capability Information's bit 12, 0x1000,
# which mac80211 sets for NL80211_ATTR_USE_RRM).
roam_check_caps() { # NAME IFACE
	local sta ext cap
	sta=$(roam_cli "$1" "$2" sta "$ROAM_STA") || wifi_fail "hostapd_cli sta on $2"
	ext=$(sed -n 's/^ext_capab=//p' <<<"$sta")
	cap=$(sed -n 's/^capability=//p' <<<"$sta")
	[[ ${#ext} -ge 6 ]] && ((16#${ext:4:2} & 0x08)) ||
		wifi_fail "hostapd $1 sees no BSS Transition in our Extended Capabilities (ext_capab=$ext)"
	[[ -n $cap ]] && ((cap & 0x1000)) ||
		wifi_fail "hostapd $1 sees no radio measurement in our capabilities (capability=$cap)"
}

# Records every change of the station's properties until roam_watch_check.
roam_watch_start() {
	gdbus monitor --system --dest net.joind --object-path "$DEV" >"$WORK/roam-monitor.txt" 2>&1 &
	ROAM_MONITOR=$!
	sleep 0.5
	ROAM_T0=$(wifi_now)
}

# The station is on ROAM_TO (hostapd there lists it), connected to the same
# network with ConnectedAccessPoint naming it; it said roaming and never
# disconnected on the way. Sets ROAM_TOOK (seconds).
roam_watch_check() {
	wifi_poll 30 "the station on ${ROAM_TO[1]}" roam_has_sta "${ROAM_TO[0]}" "${ROAM_TO[1]}" "$ROAM_STA"
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$ROAM_NET" \
		"ConnectedAccessPoint=$ROAM_TO_BSSID" >/dev/null ||
		wifi_fail "after the roam: not connected to joind-roam through $ROAM_TO_BSSID"
	ROAM_TOOK=$(wifi_since "$ROAM_T0")
	sleep 1
	kill "$ROAM_MONITOR" 2>/dev/null || true
	wait "$ROAM_MONITOR" 2>/dev/null || true
	grep -q "'State': <'roaming'>" "$WORK/roam-monitor.txt" ||
		wifi_fail "Station1.State never said roaming: $(cat "$WORK/roam-monitor.txt")"
	if grep -E "'State': <'(disconnected|connecting|disconnecting)'>|'ConnectedNetwork': <objectpath '/'>" \
		"$WORK/roam-monitor.txt"; then
		wifi_fail "the station reported a disconnection during the roam"
	fi
}

roam_teardown() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect()"
	wifi_stop_hostapd roam1
	wifi_stop_hostapd roam2
	rm -f "$WORK/state/joind-roam.psk"
}
