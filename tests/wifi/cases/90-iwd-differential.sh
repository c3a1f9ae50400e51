# shellcheck shell=bash
# 90-iwd-differential.sh (wifi-matrix, on demand) - the iwctl scenario of
# 80-iwd-iwctl, reduced to what iwctl and net.connman.iwd show, run first
# against joind's front end and then against Debian's iwd 2.3 on the same
# radio and access points: both must pass, which shows that the script
# tests iwd's contract rather than joind's quirks. While connected to
# joind-wpa2, the shape of both object trees (paths, interfaces, property
# names and signatures; tests/wifi/iwd-objects.sh) must be the same.

IWD=net.connman.iwd
export TERM=dumb
IWD_LOG=$LOGDIR/iwd.log

icall() { gdbus call --system --dest $IWD "$@"; }
station_state() {
	icall --object-path "$IDEV" --method org.freedesktop.DBus.Properties.Get \
		$IWD.Station State 2>/dev/null
}

iwd_cleanup() {
	[[ ! -e $WORK/iwd.pid ]] || kill "$(cat "$WORK/iwd.pid")" 2>/dev/null || true
	rm -f "$WORK/iwd.pid"
}
trap iwd_cleanup EXIT

phy=$(cat /sys/class/net/wlan2/phy80211/index)
IDEV=/net/connman/iwd/$phy/$(cat /sys/class/net/wlan2/ifindex)

# iwctl_contract WHO: the scenario; leaves the tree's shape, taken while
# connected, in $WORK/objects-WHO.
iwctl_contract() {
	local who=$1 out
	out=$(iwctl device list) || wifi_fail "$who: iwctl device list: $out"
	grep -qE "wlan2 +\S+ +on +phy$phy +station" <<<"$out" ||
		wifi_fail "$who: iwctl device list: $out"
	out=$(iwctl adapter list) || wifi_fail "$who: iwctl adapter list: $out"
	grep -qE "phy$phy +on" <<<"$out" || wifi_fail "$who: iwctl adapter list: $out"
	iwctl station wlan2 scan || wifi_fail "$who: iwctl station wlan2 scan"
	wifi_poll 30 "$who: scan done" sh -c "! iwctl station wlan2 show | grep -qE 'Scanning +yes'"
	out=$(iwctl station wlan2 get-networks) || wifi_fail "$who: get-networks: $out"
	grep -qE "joind-open +open +\*" <<<"$out" || wifi_fail "$who: get-networks: $out"
	grep -qE "joind-wpa2 +psk +\*" <<<"$out" || wifi_fail "$who: get-networks: $out"
	check "$who: device list, adapter list, scan, get-networks"

	out=$(iwctl --passphrase not-the-passphrase station wlan2 connect joind-wpa2 2>&1) &&
		wifi_fail "$who: a wrong passphrase connected: $out"
	wifi_poll 20 "$who: disconnected after the failure" \
		sh -c "iwctl station wlan2 show | grep -qE 'State +disconnected'"
	iwctl --passphrase "$PASS" station wlan2 connect joind-wpa2 ||
		wifi_fail "$who: iwctl connect joind-wpa2"
	out=$(iwctl station wlan2 show) || wifi_fail "$who: iwctl station show"
	grep -qE "State +connected" <<<"$out" || wifi_fail "$who: show: $out"
	grep -qE "Connected network +joind-wpa2" <<<"$out" || wifi_fail "$who: show: $out"
	icall --object-path "$IDEV" --method $IWD.StationDiagnostic.GetDiagnostics |
		grep -q "'ConnectedBss'" || wifi_fail "$who: GetDiagnostics"
	"$JOIND_SOURCE_ROOT/tests/wifi/iwd-objects.sh" >"$WORK/objects-$who" ||
		wifi_fail "$who: GetManagedObjects"
	check "$who: wrong passphrase fails, connect exits 0, show, GetDiagnostics"

	iwctl device wlan2 set-property Powered off || wifi_fail "$who: Powered off"
	wifi_poll 10 "$who: Powered off" \
		sh -c "iwctl device wlan2 show | grep -qE 'Powered +off'"
	iwctl device wlan2 set-property Powered on || wifi_fail "$who: Powered on"
	wifi_poll 30 "$who: reconnected after Powered on" \
		sh -c "iwctl station wlan2 show | grep -qE 'State +connected'"
	iwctl station wlan2 disconnect || wifi_fail "$who: iwctl disconnect"
	sleep 10
	out=$(iwctl station wlan2 show) || wifi_fail "$who: show: $out"
	grep -qE "State +disconnected" <<<"$out" || wifi_fail "$who: reconnected: $out"
	check "$who: Powered off and on (reconnects), disconnect holds 10 s"

	out=$(iwctl known-networks list) || wifi_fail "$who: known-networks list"
	grep -qE "joind-wpa2 +psk" <<<"$out" || wifi_fail "$who: known-networks list: $out"
	iwctl known-networks joind-wpa2 set-property AutoConnect no ||
		wifi_fail "$who: set-property AutoConnect no"
	out=$(iwctl known-networks joind-wpa2 show)
	grep -qE "AutoConnect +no" <<<"$out" || wifi_fail "$who: AutoConnect still on: $out"
	iwctl known-networks joind-wpa2 forget || wifi_fail "$who: forget"
	out=$(iwctl known-networks list)
	grep -q "joind-wpa2" <<<"$out" && wifi_fail "$who: still known: $out"
	check "$who: known-networks list, set-property AutoConnect no, forget"
}

wifi_start_iwd_compat
iwctl_contract joind

# iwd 2.3 on the same radio: it keeps wlan2 (UseDefaultInterface) and
# manages nothing else of the scene (-p, -i).
wifi_stop_joind
mkdir -p "$WORK/iwd-state" "$WORK/iwd-conf"
printf '[General]\nUseDefaultInterface=true\n[DriverQuirks]\nDefaultInterface=*\n' \
	>"$WORK/iwd-conf/main.conf"
STATE_DIRECTORY=$WORK/iwd-state CONFIGURATION_DIRECTORY=$WORK/iwd-conf \
	/usr/libexec/iwd -p "$(cat /sys/class/net/wlan2/phy80211/name)" -i wlan2 \
	>"$IWD_LOG" 2>&1 &
echo $! >"$WORK/iwd.pid"
# iwd 2.3 took more than 30 s to show it on a loaded host.
wifi_poll 90 "iwd to show wlan2's station" station_state
iwctl_contract iwd
iwd_cleanup
wifi_poll 10 "iwd to leave the bus" sh -c "! gdbus call --system --dest $IWD \
	--object-path / --method org.freedesktop.DBus.Peer.Ping"

if ! diff -u "$WORK/objects-iwd" "$WORK/objects-joind" >"$LOGDIR/iwd-objects.diff"; then
	cat "$LOGDIR/iwd-objects.diff"
	wifi_fail "the object trees differ (- iwd 2.3, + joind)"
fi
check "GetManagedObjects: iwd 2.3 and joind have the same paths, properties and signatures"

# joind back, with its usual configuration (it is stopped already).
wifi_stop_iwd_compat
