# shellcheck shell=bash
# 57-ap-iwctl.sh - an access point started the way an iwd user starts one,
# with Debian's iwctl against joind's iwd front end: a radio of its own in
# joind's namespace (joind takes it as a station), `iwctl device IF
# set-property Mode ap` (Device.Mode ap, AccessPoint on the device's
# object, Station gone), `iwctl ap IF start SSID PASS` (Started, Name,
# Frequency, iwd 2.3's WPA2: PairwiseCiphers CCMP-128); wpa_supplicant on a
# second radio in a namespace of its own joins and pings over the air;
# `iwctl ap IF stop`. Then, joind restarted with main.conf's [AccessPoint]
# MaxStations=1, `iwctl ap IF start-profile` of an .ap profile with
# joind's [General] Hidden=true: a passive scan hears beacons with an
# empty SSID, wpa_supplicant joins with scan_ssid=1 and pings, a second
# client is refused (status 17, the AP full) while the first still pings.
# Mode station again: Station is back, and joind as the fixture had it.

# shellcheck source=../ap-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ap-lib.sh"
IWD=net.connman.iwd
export TERM=dumb
iprop() {
	busctl --system --json=short get-property $IWD "$IDEV" "$IWD.$1" "$2" | jq -c .data
}
iifaces() {
	busctl --system --json=short call $IWD / org.freedesktop.DBus.ObjectManager \
		GetManagedObjects | jq -c --arg p "$IDEV" '.data[0][$p] | keys'
}

wifi_start_iwd_compat
AP_NN=57
AP_CLIENTS=0
trap 'ap_cleanup; "$HWSIM_RADIO" del joindap57 2>/dev/null || true' EXIT
"$HWSIM_RADIO" add joindap57 >/dev/null || wifi_fail "hwsim-radio add joindap57"
APIF=$(ls /sys/class/ieee80211/joindap57/device/net/)
jw -t 20 object net.joind.Device1 "Name=$APIF" >/dev/null || wifi_fail "joind did not take $APIF"
IDEV=/net/connman/iwd/$(cat /sys/class/net/"$APIF"/phy80211/index)/$(cat /sys/class/net/"$APIF"/ifindex)
modes=$(busctl --system --json=short get-property $IWD "${IDEV%/*}" $IWD.Adapter SupportedModes |
	jq -c .data)
[[ $modes == '["station","ap","ad-hoc"]' ]] || wifi_fail "SupportedModes: $modes"
check "joind manages $APIF; its adapter supports $modes"

T0=$(wifi_now)
out=$(iwctl device "$APIF" set-property Mode ap 2>&1) || wifi_fail "set-property Mode ap: $out"
[[ $(iprop Device Mode) == '"ap"' ]] || wifi_fail "Mode is $(iprop Device Mode)"
[[ $(iprop Device Powered) == true ]] || wifi_fail "not powered in AP mode"
[[ $(iifaces) == *'"net.connman.iwd.AccessPoint"'* && $(iifaces) != *Station* ]] ||
	wifi_fail "interfaces in AP mode: $(iifaces)"
[[ $(iprop AccessPoint Started) == false ]] || wifi_fail "started before Start"
check "iwctl set-property Mode ap: AccessPoint instead of Station in $(wifi_since "$T0") s"

T0=$(wifi_now)
out=$(iwctl ap "$APIF" start joind-hotspot57 "$PASS" 2>&1) || wifi_fail "iwctl ap start: $out"
[[ $(iprop AccessPoint Started) == true ]] || wifi_fail "Start answered, Started false"
[[ $(iprop AccessPoint Name) == '"joind-hotspot57"' ]] || wifi_fail "Name $(iprop AccessPoint Name)"
freq=$(iprop AccessPoint Frequency)
[[ $freq =~ ^24[0-9][0-9]$ ]] || wifi_fail "Frequency $freq"
[[ $(iprop AccessPoint PairwiseCiphers) == '["CCMP-128"]' ]] ||
	wifi_fail "PairwiseCiphers $(iprop AccessPoint PairwiseCiphers)"
check "iwctl ap start: beaconing on $freq MHz in $(wifi_since "$T0") s"

ip addr add 192.168.57.1/24 dev "$APIF"
AP_CLIENTS=1
CLIF=()
CLIF[1]=$(ap_radio joindcl57_1 "$(ap_ns_of 1)")
ap_in 1 ip link set "${CLIF[1]}" up
ap_in 1 ip addr add 192.168.57.2/24 dev "${CLIF[1]}"
T0=$(wifi_now)
ap_client 1 "ssid=\"joind-hotspot57\"
key_mgmt=WPA-PSK
proto=RSN
psk=\"$PASS\"
scan_freq=$freq"
ap_client_completed 1
ap_ping 1
check "wpa_supplicant joined joind's AP (WPA2-PSK) and pings it in $(wifi_since "$T0") s"

out=$(iwctl ap "$APIF" stop 2>&1) || wifi_fail "iwctl ap stop: $out"
[[ $(iprop AccessPoint Started) == false ]] || wifi_fail "Stop answered, Started true"
kill "$(cat "$WORK/ap57-cl1.pid")"
rm -f "$WORK/ap57-cl1.pid"

# A hidden access point that takes one station.
T0=$(wifi_now)
printf '\n[AccessPoint]\nMaxStations=1\n' >>"$WORK/main.conf"
JOIND_PLUGINS="wifi,eap-*,iwd-compat" wifi_restart_joind_same
wifi_poll 20 "joind to own net.connman.iwd" iprop Device Mode
out=$(iwctl device "$APIF" set-property Mode ap 2>&1) || wifi_fail "set-property Mode ap: $out"
mkdir -p "$WORK/state/ap"
printf '[General]\nChannel=6\nHidden=true\n[Security]\nPassphrase=%s\n' "$PASS" \
	>"$WORK/state/ap/joind-hidden57.ap"
chmod 600 "$WORK/state/ap/joind-hidden57.ap"
out=$(iwctl ap "$APIF" start-profile joind-hidden57 2>&1) || wifi_fail "iwctl ap start-profile: $out"
[[ $(iprop AccessPoint Name) == '"joind-hidden57"' ]] || wifi_fail "Name $(iprop AccessPoint Name)"
check "joind restarted with MaxStations=1; iwctl ap start-profile: a hidden AP in $(wifi_since "$T0") s"

# What a passive scan hears: this BSS, its SSID element empty.
apmac=$(cat "/sys/class/net/$APIF/address")
# The SSID element of apmac's entry, bracketed, in the last scan's output.
ssid_heard() {
	awk -v bss="BSS $apmac" 'index($0, bss) == 1 { on = 1; next } /^BSS / { on = 0 }
		on && /^\tSSID:/ { sub(/^\tSSID: ?/, ""); print "[" $0 "]" }' "$WORK/scan57.txt"
}
hidden_beacon() {
	ap_in 1 iw dev "${CLIF[1]}" scan freq 2437 flush passive >"$WORK/scan57.txt" 2>&1 &&
		[[ -n $(ssid_heard) ]]
}
wifi_poll 20 "a passive scan hearing $apmac" hidden_beacon
[[ $(ssid_heard) == "[]" ]] || wifi_fail "the hidden AP's beacon names an SSID: $(ssid_heard)"
grep -q joind-hidden57 "$WORK/scan57.txt" && wifi_fail "the passive scan shows the hidden SSID"
check "a passive scan hears $apmac with an empty SSID"

T0=$(wifi_now)
hidden_net="ssid=\"joind-hidden57\"
scan_ssid=1
key_mgmt=WPA-PSK
proto=RSN
psk=\"$PASS\"
scan_freq=2437"
ap_client 1 "$hidden_net"
ap_client_completed 1
ap_ping 1
check "wpa_supplicant (scan_ssid=1) joined the hidden AP and pings it in $(wifi_since "$T0") s"

AP_CLIENTS=2
CLIF[2]=$(ap_radio joindcl57_2 "$(ap_ns_of 2)")
ap_in 2 ip link set "${CLIF[2]}" up
rm -f "$LOGDIR/wpa_supplicant-57-2.log"
ap_client 2 "$hidden_net"
wifi_poll 30 "the second client refused" \
	grep -q "CTRL-EVENT-ASSOC-REJECT.*status_code=17" "$LOGDIR/wpa_supplicant-57-2.log"
ap_cli 2 status | grep -q '^wpa_state=COMPLETED' && wifi_fail "a second station joined past MaxStations=1"
ap_cli 1 status | grep -q '^wpa_state=COMPLETED' || wifi_fail "the first client lost the AP"
ap_ping 1
check "MaxStations=1: the second client is refused (status 17), the first still pings"
out=$(iwctl ap "$APIF" stop 2>&1) || wifi_fail "iwctl ap stop: $out"
out=$(iwctl device "$APIF" set-property Mode station 2>&1) ||
	wifi_fail "set-property Mode station: $out"
[[ $(iprop Device Mode) == '"station"' ]] || wifi_fail "Mode is $(iprop Device Mode)"
wifi_poll 10 "Station back on $IDEV" sh -c "busctl --system --json=short call $IWD / \
	org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q '$IWD.Station'"
check "iwctl ap stop, set-property Mode station: the station is back"
rm -rf "$WORK/state/ap"
wifi_stop_iwd_compat
