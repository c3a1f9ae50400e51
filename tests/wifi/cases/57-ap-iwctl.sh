# shellcheck shell=bash
# 57-ap-iwctl.sh - an access point started the way an iwd user starts one,
# with Debian's iwctl against joind's iwd front end: a radio of its own in
# joind's namespace (joind takes it as a station), `iwctl device IF
# set-property Mode ap` (Device.Mode ap, AccessPoint on the device's
# object, Station gone), `iwctl ap IF start SSID PASS` (Started, Name,
# Frequency, iwd 2.3's WPA2: PairwiseCiphers CCMP-128); wpa_supplicant on a
# second radio in a namespace of its own joins and pings over the air;
# `iwctl ap IF stop`, then Mode station again: Station is back.

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
out=$(iwctl device "$APIF" set-property Mode station 2>&1) ||
	wifi_fail "set-property Mode station: $out"
[[ $(iprop Device Mode) == '"station"' ]] || wifi_fail "Mode is $(iprop Device Mode)"
wifi_poll 10 "Station back on $IDEV" sh -c "busctl --system --json=short call $IWD / \
	org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q '$IWD.Station'"
check "iwctl ap stop, set-property Mode station: the station is back"
