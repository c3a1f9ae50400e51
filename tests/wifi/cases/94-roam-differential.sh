# shellcheck shell=bash
# 94-roam-differential.sh (wifi-matrix, on demand) - three roaming
# scenarios run through iwd's D-Bus API (net.connman.iwd: iwctl and the
# Station's State), first against joind's front end and then against
# Debian's iwd 2.3 on the same radio and the same two access points
# (joind-roam of roam-lib.sh, wlan4 channel 6 and wlan5 channel 11), both
# with RoamRetryInterval=20:
#   - signal: the access point in use fades to -80 dBm (hwsim rx_rssi);
#   - BTM: it sends a BSS transition request with disassociation imminent
#     naming the other one, at equal signal;
#   - retry discipline: both fade to -75 dBm (below RoamThreshold, no
#     candidate better): one search (the kernel's scan events, iw event),
#     then none until RoamRetryInterval is over.
# What both must do is asserted: the roam happens (hostapd lists the
# station on the target), the station never says disconnected, the weak
# candidates are not taken, no scan inside the retry interval. What may
# differ is recorded in the log, one "numbers:" line per daemon: the times,
# whether State said roaming, whether a BTM response reached hostapd (iwd
# 2.3 sends none), how many scans a search took and when the next began.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"

IWD=net.connman.iwd
RETRY=20
export TERM=dumb
IWD_LOG=$LOGDIR/iwd-roam.log

hwsim_file() { echo "/sys/kernel/debug/ieee80211/$(cat "/sys/class/net/$1/phy80211/name")/hwsim/$2"; }
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
declare -A rssi_saved
for i in wlan4 wlan5; do rssi_saved[$i]=$(cat "$(hwsim_file $i rx_rssi)"); done
restore_radios() {
	for i in wlan4 wlan5; do printf '%u' "${rssi_saved[$i]}" >"$(hwsim_file $i rx_rssi)"; done
}
diff_cleanup() {
	restore_radios
	nm_iwd_stop
}
trap diff_cleanup EXIT

phy=$(cat /sys/class/net/wlan2/phy80211/index)
IDEV=/net/connman/iwd/$phy/$(cat /sys/class/net/wlan2/ifindex)
ROAM_STA=$(cat /sys/class/net/wlan2/address)
station_state() {
	gdbus call --system --dest $IWD --object-path "$IDEV" \
		--method org.freedesktop.DBus.Properties.Get $IWD.Station State 2>/dev/null
}
state_is() { [[ $(station_state) == "(<'$1'>,)" ]]; }

diff_where() {
	roam_find_sta roam1 wlan4 roam2 wlan5
}

# The Station's changes while a scenario runs; DIFF_T0 when it began.
diff_watch() {
	gdbus monitor --system --dest $IWD --object-path "$IDEV" >"$WORK/diff-monitor.txt" 2>&1 &
	DIFF_MONITOR=$!
	sleep 0.5
	DIFF_T0=$(wifi_now)
}
diff_unwatch() {
	kill "$DIFF_MONITOR" 2>/dev/null || true
	wait "$DIFF_MONITOR" 2>/dev/null || true
	if grep -E "'State': <'(disconnected|connecting|disconnecting)'>" "$WORK/diff-monitor.txt"; then
		wifi_fail "$WHO: $1: the station reported a disconnection"
	fi
	SAID_ROAMING=no
	! grep -q "'State': <'roaming'>" "$WORK/diff-monitor.txt" || SAID_ROAMING=yes
}

# diff_roam WHAT: the station reaches ROAM_TO and is connected there;
# TOOK (s since the watch began); the roles swapped for the next one.
diff_roam() {
	wifi_poll 40 "$WHO: $1: the station on ${ROAM_TO[1]}" \
		roam_has_sta "${ROAM_TO[0]}" "${ROAM_TO[1]}" "$ROAM_STA"
	TOOK=$(wifi_since "$DIFF_T0")
	wifi_poll 20 "$WHO: $1: connected after the roam" state_is connected
	sleep 1
	diff_unwatch "$1"
	restore_radios
	# Not diff_where: the old access point may list the station a while.
	roam_swap
}

scans_started() { grep -c 'wlan2.*scan started' "$WORK/diff-scans.txt" || true; }
more_scans_than() { (($(scans_started) > $1)); }

# The three scenarios against whatever owns net.connman.iwd now (WHO);
# NUMBERS[WHO] what it did.
declare -A NUMBERS
roam_contract() {
	WHO=$1
	local out signal btm resp first again
	iwctl station wlan2 scan || wifi_fail "$WHO: iwctl station wlan2 scan"
	wifi_poll 30 "$WHO: scan done" sh -c "! iwctl station wlan2 show | grep -qE 'Scanning +yes'"
	out=$(iwctl station wlan2 connect joind-roam 2>&1) || wifi_fail "$WHO: iwctl connect: $out"
	wifi_poll 20 "$WHO: connected to joind-roam" state_is connected
	diff_where
	check "$WHO: connected to joind-roam through ${ROAM_FROM[1]}"

	diff_watch
	printf '%u' -100 >"$(hwsim_file "${ROAM_FROM[1]}" rx_rssi)"
	diff_roam "signal"
	signal="signal roam ${TOOK} s (roaming said: $SAID_ROAMING)"
	check "$WHO: signal -80 dBm: roamed to ${ROAM_FROM[1]} in $TOOK s, never disconnected"

	local ch=6
	[[ ${ROAM_TO[1]} == wlan5 ]] && ch=11
	local resps0
	resps0=$(grep -c "BSS-TM-RESP $ROAM_STA" "$LOGDIR/hostapd-${ROAM_FROM[0]}.log" || true)
	btm=("${ROAM_FROM[@]}")
	diff_watch
	roam_cli "${ROAM_FROM[@]}" bss_tm_req "$ROAM_STA" disassoc_imminent=1 disassoc_timer=100 \
		valid_int=255 pref=1 "neighbor=$ROAM_TO_BSSID,0x0000008f,81,$ch,7,0301ff" | grep -q OK ||
		wifi_fail "$WHO: hostapd_cli bss_tm_req"
	diff_roam "BTM"
	sleep 1
	resp=$(grep "BSS-TM-RESP $ROAM_STA" "$LOGDIR/hostapd-${btm[0]}.log" | tail -n +$((resps0 + 1)) |
		head -n 1 | grep -o 'status_code=[0-9]*' || echo none)
	signal+="; BTM roam ${TOOK} s (roaming said: $SAID_ROAMING, BTM response: $resp)"
	check "$WHO: BTM disassociation imminent: roamed to ${ROAM_FROM[1]} in $TOOK s, never disconnected; response: $resp"

	# Both at -75 dBm: below the threshold, no candidate better.
	iw event -t >"$WORK/diff-scans.txt" 2>&1 &
	local scan_watch=$!
	diff_watch
	for i in wlan4 wlan5; do printf '%u' -95 >"$(hwsim_file $i rx_rssi)"; done
	wifi_poll 30 "$WHO: weak: a search" more_scans_than 0
	local t
	t=$(wifi_now)
	# The search's scans come back to back: it is over after 5 s of none.
	sleep 5
	first=$(scans_started)
	sleep $((RETRY - 10))
	((first == $(scans_started))) ||
		wifi_fail "$WHO: weak: scans during the retry interval: $(scans_started) after $first"
	wifi_poll 40 "$WHO: weak: the next search after RoamRetryInterval" more_scans_than "$first"
	again=$(wifi_since "$t")
	kill "$scan_watch" 2>/dev/null || true
	wait "$scan_watch" 2>/dev/null || true
	diff_unwatch "weak"
	roam_has_sta "${ROAM_FROM[@]}" "$ROAM_STA" ||
		wifi_fail "$WHO: weak: the station left ${ROAM_FROM[1]} for a weak BSS"
	restore_radios
	NUMBERS[$WHO]="$signal; weak candidates: one search of $first scans, the next ${again} s after the first (roaming said: $SAID_ROAMING)"
	check "$WHO: weak candidates: one search ($first scans), none for $((RETRY - 5)) s, the next ${again} s after it; stayed on ${ROAM_FROM[1]}"
	iwctl station wlan2 disconnect || wifi_fail "$WHO: iwctl disconnect"
	wifi_poll 10 "$WHO: disconnected" state_is disconnected
}

roam_ap roam1 wlan4 6
roam_ap roam2 wlan5 11
wifi_step "joind-roam beaconing on wlan4 (channel 6) and wlan5 (channel 11)"
profile=$(printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$PASS")

# joind through its iwd front end, with the retry interval.
printf '%s\n' "$profile" >"$WORK/state/joind-roam.psk"
wifi_start_iwd_compat
sed -i "s/^\[General\]\$/[General]\nRoamRetryInterval=$RETRY/" "$WORK/main.conf"
JOIND_PLUGINS="wifi,eap-*,iwd-compat" wifi_restart_joind_same
wifi_poll 20 "joind to own net.connman.iwd" station_state
roam_contract joind
rm -f "$WORK/state/joind-roam.psk"

# iwd 2.3 on the same radio, the same profile; it keeps wlan2
# (UseDefaultInterface) and manages nothing else of the scene (-p, -i).
wifi_stop_joind
rm -rf "$WORK/iwd-state" "$WORK/iwd-conf"
mkdir -p "$WORK/iwd-state" "$WORK/iwd-conf"
printf '%s\n' "$profile" >"$WORK/iwd-state/joind-roam.psk"
printf '[General]\nUseDefaultInterface=true\nRoamRetryInterval=%s\n[DriverQuirks]\nDefaultInterface=*\n' \
	"$RETRY" >"$WORK/iwd-conf/main.conf"
STATE_DIRECTORY=$WORK/iwd-state CONFIGURATION_DIRECTORY=$WORK/iwd-conf \
	/usr/libexec/iwd -i wlan2 -p "$(cat /sys/class/net/wlan2/phy80211/name)" >>"$IWD_LOG" 2>&1 &
echo $! >"$WORK/iwd.pid"
# iwd 2.3 took more than 30 s to show it on a loaded host.
wifi_poll 90 "iwd to show wlan2's station" station_state
roam_contract iwd
nm_iwd_stop
rm -rf "$WORK/iwd-state"
wifi_poll 10 "iwd to leave the bus" sh -c "! gdbus call --system --dest $IWD \
	--object-path / --method org.freedesktop.DBus.Peer.Ping"

for who in joind iwd; do wifi_step "numbers: $who: ${NUMBERS[$who]}"; done
trap - EXIT
restore_radios
wifi_stop_hostapd roam1
wifi_stop_hostapd roam2
# joind back, with its usual configuration (it is stopped already).
wifi_stop_iwd_compat
