# shellcheck shell=bash
# 49-roam-recovery.sh - roams when the easy way is not there, on joind-roam
# (roam-lib.sh), joind running with RoamRetryInterval=20:
#   - a wrong neighbour report: the access point (hostapd set_neighbor)
#     names only a BSS on channel 1, where nothing is; on a signal drop
#     joind scans those channels, falls back to the known frequencies and
#     a full scan, and roams to the other access point;
#   - an access point vanishing (its radio's hwsim group 0: deaf and mute)
#     with the other one present: joind roams on the beacon loss before
#     mac80211 gives up on the link;
#   - retry discipline: both access points weak (-75 dBm, no candidate 8 dB
#     better): one search, then no scan at all (the kernel's own scan
#     events, iw event) until RoamRetryInterval is over, then the next
#     search; the link never moves.
# Each: never disconnected on D-Bus; where it roams, ConnectedAccessPoint
# and hostapd's station list name the target.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"

RETRY=20
# hwsim_file IFACE NAME: the radio's hwsim debugfs file NAME.
hwsim_file() { echo "/sys/kernel/debug/ieee80211/$(cat "/sys/class/net/$1/phy80211/name")/hwsim/$2"; }
# scans_started: the scans the kernel started on wlan2 since iw event began.
scans_started() { grep -c 'wlan2.*scan started' "$WORK/roam-scans.txt" || true; }
more_scans_than() { (($(scans_started) > $1)); }
roam_state_is() {
	wifi_diag ".devices[] | select(.name == \"wlan2\") | .details | select(.roam_state == \"$1\")" >/dev/null
}

wifi_restart_joind_with "RoamRetryInterval=$RETRY"
# As the fixture's joind is: autoconnect off until a Connect() (a user's
# Disconnect()), so that roam_setup's Scan() and Connect() run alone.
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect()"
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
declare -A rssi_saved group_saved
for i in wlan4 wlan5; do
	rssi_saved[$i]=$(cat "$(hwsim_file $i rx_rssi)")
	group_saved[$i]=$(cat "$(hwsim_file $i group)")
done
restore_radios() {
	for i in wlan4 wlan5; do
		printf '%u' "${rssi_saved[$i]}" >"$(hwsim_file $i rx_rssi)"
		echo "${group_saved[$i]}" >"$(hwsim_file $i group)"
	done
}
trap restore_radios EXIT
roam_setup

# ------------------------------------------- a wrong neighbour report ---
roam_cli "${ROAM_FROM[@]}" set_neighbor 02:00:00:00:99:01 'ssid="joind-roam"' \
	nr=0200000099018f000000510107 | grep -q OK || wifi_fail "hostapd_cli set_neighbor"
# joinctl monitor prints one roamed line for it, from the diagnostics.
"$BUILD/client/joinctl" monitor >"$WORK/roam-joinctl.txt" 2>&1 &
jmon=$!
wifi_poll 20 "joinctl monitor listing joind's objects" grep -q ' added ' "$WORK/roam-joinctl.txt"
roam_watch_start
printf '%u' -100 >"$(hwsim_file "${ROAM_FROM[1]}" rx_rssi)"
roam_watch_check
from_bssid=$(cat "/sys/class/net/${ROAM_FROM[1]}/address")
roams=$("$BUILD/client/joinctl" daemon diagnostics | jq '.devices[] | select(.name == "wlan2") | .details.roams')
jq -e ".roams >= 1 and .searches >= 1 and .last[0].result == \"ok\" and .last[0].from == \"$from_bssid\" and .last[0].to == \"$ROAM_TO_BSSID\" and .last[0].trigger == \"signal low\"" <<<"$roams" >/dev/null ||
	wifi_fail "the diagnostics' roams do not record the roam: $roams"
roamed_line() {
	grep -q "roamed .*$from_bssid -> $ROAM_TO_BSSID (signal low; reassociation; [0-9]* ms; ok)" \
		"$WORK/roam-joinctl.txt"
}
for _ in {1..20}; do roamed_line && break || sleep 0.5; done
kill "$jmon" 2>/dev/null || true
wait "$jmon" 2>/dev/null || true
roamed_line || wifi_fail "joinctl monitor printed no roamed line: $(grep -v ' added ' "$WORK/roam-joinctl.txt")"
(($(grep -c ' roamed ' "$WORK/roam-joinctl.txt") == 1)) ||
	wifi_fail "joinctl monitor: not one roamed line: $(grep ' roamed ' "$WORK/roam-joinctl.txt")"
check "a neighbour report naming only channel 1: fell back and roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s, never disconnected; joinctl monitor printed it, the diagnostics recorded it"
restore_radios
roam_swap

# ------------------------------------------------- an AP vanishing ---
roam_watch_start
echo 0 >"$(hwsim_file "${ROAM_FROM[1]}" group)"
roam_watch_check
check "${ROAM_FROM[1]} vanished (hwsim group 0): roamed to ${ROAM_TO[1]} in $ROAM_TOOK s, never disconnected"
restore_radios
roam_swap

# ------------------------------------------------- retry discipline ---
# Now on ROAM_FROM; both fade to -75 dBm (rx_rssi -95 plus 20 dBm):
# below RoamThreshold, above the second threshold 10 dB lower (crossing
# that would rightly search again at once).
iw event -t >"$WORK/roam-scans.txt" 2>&1 &
scan_watch=$!
gdbus monitor --system --dest net.joind --object-path "$DEV" >"$WORK/roam-monitor.txt" 2>&1 &
ROAM_MONITOR=$!
sleep 0.5
for i in wlan4 wlan5; do printf '%u' -95 >"$(hwsim_file $i rx_rssi)"; done
wifi_poll 30 "a search that ends in retry-wait" roam_state_is retry-wait
t=$(wifi_now)
first=$(scans_started)
((first >= 1)) || wifi_fail "the search started no scan"
sleep $((RETRY - 6))
((first == $(scans_started))) ||
	wifi_fail "scans during the retry interval: $(scans_started) after $first"
wifi_poll 30 "the next search after RoamRetryInterval" more_scans_than "$first"
again=$(wifi_since "$t")
kill "$scan_watch" "$ROAM_MONITOR" 2>/dev/null || true
wait "$scan_watch" "$ROAM_MONITOR" 2>/dev/null || true
roam_has_sta "${ROAM_FROM[@]}" "$ROAM_STA" || wifi_fail "the station left ${ROAM_FROM[1]} for a weak BSS"
if grep -E "'State': <'(disconnected|roaming)'>" "$WORK/roam-monitor.txt"; then
	wifi_fail "weak candidates: the station roamed or disconnected"
fi
check "weak candidates: one search ($first scans), none for $((RETRY - 6)) s, the next search ${again} s after entering retry-wait; stayed on ${ROAM_FROM[1]}"
restore_radios
trap - EXIT
roam_teardown
wifi_restart_joind_default
