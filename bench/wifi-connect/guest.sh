#!/bin/bash
# bench/wifi-connect/guest.sh - the VM side of bench/wifi-connect/run.sh
# (which boots the VM and runs this; do not run it on a host).
#
# Radios: wlan0 is hostapd's WPA2-PSK access point "bench-wpa2" (channel 6,
# CCMP); wlan1 is the station, driven by one daemon at a time: joind
# (plugin wifi), Debian's iwd, Debian's wpa_supplicant, each with its
# default settings and no debug logging (iwd: EnableNetworkConfiguration=
# false; wpa_supplicant: p2p_disabled=1, as the others do no P2P, and -u, its
# D-Bus interface, so that all three are watched the same way).
#
# Warm-up: each daemon connects once from a fresh state so that it writes
# and learns what it keeps (joind: <ssid>.psk with PreSharedKey, state.json
# if it keeps one; iwd: PreSharedKey in its .psk and .known_network.freq;
# wpa_supplicant keeps nothing, its config holds the network with the hex
# PSK from wpa_passphrase). Then ROUNDS rounds, the daemons in turn, each:
#   (a) start -> connected: the daemon is started with the network known;
#       from the exec to the connected signal;
#   (d) VmRSS, RssAnon from /proc/PID/status at that moment; (e) CPU time
#       used so far (utime+stime from /proc/PID/stat, and the finer
#       per-thread schedstat run time);
#   (b) Connect() -> connected: disconnected by the daemon's own call
#       (joind Station1.Disconnect, iwd Station.Disconnect, wpa_cli
#       disconnect), one scan to completion (Station1.Scan, Station.Scan
#       until Scanning=false, wpa_cli scan until ScanDone), then from just
#       before the call (joind Network1.Connect, iwd Network.Connect,
#       wpa_cli select_network) to the connected signal;
#   (c) AP restart -> reconnected: hostapd is stopped, the daemon reports
#       the loss, hostapd is started again; from hostapd's own timestamp of
#       its AP-ENABLED event (hostapd -t: it is beaconing) to the connected
#       signal;
# and in the last round, once connected, (e) CPU time and voluntary context
# switches of every thread (the wakeups) over IDLE seconds of idle.
# "Connected": Station1.State=connected (joind), Station.State=connected
# (iwd), Interface.State=completed (wpa_supplicant, the D-Bus face of
# wpa_state=COMPLETED). Every wait is on events: one `gdbus monitor` of the
# daemon's bus name per run, each line stamped ($EPOCHREALTIME) as it
# arrives, so the times do not depend on when this script reads them;
# nothing is polled but hostapd's log while it starts (its own timestamp is
# what counts). A step that does not happen within TIMEOUT seconds is
# printed as "n/s" with the reason, never as a figure, and is not tried
# again in later rounds.
set -euo pipefail

: "${JOIND_BUILD_ROOT:?}" "${JOIND_SOURCE_ROOT:?}" "${JOIND_VM:?run through run.sh}"
ROUNDS=${BENCH_ROUNDS:-5}
IDLE=${BENCH_IDLE:-60}
TIMEOUT=60
# iwd avoids a BSS it failed to reach for 60 s ([Blacklist] InitialTimeout),
# which an AP restart can trigger: leave room for that.
RECONNECT_TIMEOUT=150
export BUILD=$JOIND_BUILD_ROOT
export LOGDIR=$BUILD/meson-logs/bench-wifi-connect
export WORK=/tmp/joind-bench-connect
export JOIND_ARGS="" # no debug logging: neither iwd nor wpa_supplicant has it
rm -rf "$LOGDIR"
# shellcheck source=SCRIPTDIR/../../tests/wifi/lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/lib.sh"
# Logs stay on the guest's tmpfs while measuring (a write to the 9p share is
# a round trip to the host) and are copied out at the end; TZ keeps log
# timestamps from reading /etc/localtime over 9p.
JOIND_LOG=$WORK/joind.log
eval "lib_$(declare -f wifi_fail)"
wifi_fail() {
	cp "$WORK"/*.log "$LOGDIR/" 2>/dev/null || true
	lib_wifi_fail "$@"
}
export TZ=UTC
export LC_ALL=C # a dot in $EPOCHREALTIME

SSID=bench-wpa2
PASS=correct-horse-battery
SSID_HEX=$(printf %s "$SSID" | od -An -tx1 | tr -d ' \n')
HZ=$(getconf CLK_TCK)
ALL_DAEMONS=(joind iwd wpa_supplicant)
# BENCH_ONLY="iwd wpa_supplicant" (say) runs only those, for debugging this script.
read -r -a DAEMONS <<<"${BENCH_ONLY:-${ALL_DAEMONS[*]}}"

# ---- measuring -----------------------------------------------------------------

declare -A VALS NS

# record METRIC DAEMON VALUE
record() { VALS[$1,$2]+="$3 "; }
# unsupported METRIC DAEMON REASON: printed as n/s, not tried again
unsupported() {
	NS[$1,$2]=$3
	wifi_step "$2: $1: n/s ($3)"
}

ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
cpu_ms() { sed 's/^.*) //' "/proc/$1/stat" | awk -v hz="$HZ" '{ print ($12 + $13) * 1000 / hz }'; }
sched_ms() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%.1f\n", s / 1e6 }'; }
wakeups() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt_switches:/ { s += $2 } END { print s }'; }
status_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

# The daemon's signals, one line each, stamped on arrival, read on fd 5.
mon_start() {
	local line
	rm -f "$WORK/mon.raw" "$WORK/mon"
	mkfifo "$WORK/mon.raw" "$WORK/mon"
	gdbus monitor --system --dest "$1" >"$WORK/mon.raw" 2>&1 &
	MON_PID=$!
	while IFS= read -r line; do
		printf '%s %s\n' "$EPOCHREALTIME" "$line"
	done <"$WORK/mon.raw" >"$WORK/mon" &
	STAMP_PID=$!
	exec 5<"$WORK/mon"
	IFS= read -r line <&5 # "Monitoring signals ...": subscribed
}

mon_stop() {
	kill "$MON_PID" "$STAMP_PID" 2>/dev/null || true
	wait "$MON_PID" "$STAMP_PID" 2>/dev/null || true
	exec 5<&-
}

# Forget signals already received (before an action whose result counts).
mon_drain() {
	local line
	while IFS= read -r -t 0.05 line <&5; do :; done
}

# await SECONDS TEXT...: the next signal holding every TEXT; its arrival time
# in T_MATCH. Status 1 on timeout.
await() {
	local end=$((EPOCHSECONDS + $1)) line p ok
	shift
	while ((EPOCHSECONDS < end)); do
		IFS= read -r -t $((end - EPOCHSECONDS)) line <&5 || return 1
		ok=1
		for p in "$@"; do [[ $line == *"$p"* ]] || { ok=0; break; }; done
		if ((ok)); then
			T_MATCH=${line%% *}
			return 0
		fi
	done
	return 1
}

await_connected() { await "$1" "$STA_IFACE" "'State': <'$STA_CONNECTED'>"; }
await_disconnected() { await "$1" "$STA_IFACE" "'State': <'disconnected'>"; }

# ---- the access point -------------------------------------------------------------

cat >"$WORK/hostapd.conf" <<EOF
ctrl_interface=/run/hostapd-bench
interface=wlan0
driver=nl80211
hw_mode=g
channel=6
ssid=$SSID
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS
EOF

# Starts hostapd; AP_T0 = its own timestamp of AP-ENABLED (beaconing).
ap_start() {
	local before=0 end=$((EPOCHSECONDS + 30))
	[[ -f $WORK/hostapd.log ]] && before=$(grep -c 'AP-ENABLED' "$WORK/hostapd.log" || true)
	hostapd -B -t -P "$WORK/hostapd.pid" -f "$WORK/hostapd.log" "$WORK/hostapd.conf" ||
		wifi_fail "hostapd did not start"
	until (($(grep -c 'AP-ENABLED' "$WORK/hostapd.log" || true) > before)); do
		((EPOCHSECONDS < end)) || wifi_fail "hostapd: no AP-ENABLED within 30 s"
		sleep 0.02
	done
	AP_T0=$(grep 'AP-ENABLED' "$WORK/hostapd.log" | tail -n 1 | cut -d: -f1)
}

ap_stop() {
	local pid
	pid=$(cat "$WORK/hostapd.pid")
	kill "$pid"
	while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
}

# ---- the daemons: start, stop, scan, connect, disconnect ------------------------
# Each DAEMON_start sets PID and the STA_* patterns and starts the monitor
# before the daemon, so that nothing it signals is missed.

joind_start() {
	STA_IFACE=net.joind.Station1 STA_CONNECTED=connected
	JDEV=/net/joind/device/$(cat /sys/class/net/wlan1/ifindex)
	JNET=$JDEV/network/${SSID_HEX}_psk
	mon_start net.joind
	# As joind.service runs it: GLib's slice allocator off.
	G_SLICE=always-malloc "$BUILD/core/joind" --plugin-dir "$BUILD/plugins" --plugins wifi --config "$WORK/main.conf" \
		--state-dir "$WORK/state" >>"$JOIND_LOG" 2>&1 &
	PID=$!
}
joind_scan() {
	jw -t 30 object net.joind.Station1 >/dev/null || wifi_fail "joind: no station"
	jcall --object-path "$JDEV" --method net.joind.Station1.Scan >/dev/null ||
		wifi_fail "joind: Scan() failed"
	jw -t 30 object net.joind.Network1 "Name=$SSID" >/dev/null || wifi_fail "joind: no network"
}
joind_connect() {
	jcall --object-path "$JNET" --method net.joind.Network1.Connect >"$WORK/connect.out" 2>&1
}
joind_disconnect() {
	jcall --object-path "$JDEV" --method net.joind.Station1.Disconnect >/dev/null
}

iwd_call() {
	gdbus call --system --dest net.connman.iwd --object-path "$1" --method "$2" "${@:3}"
}
iwd_start() {
	STA_IFACE=net.connman.iwd.Station STA_CONNECTED=connected
	mon_start net.connman.iwd
	/usr/libexec/iwd -p "$STA_PHY" >>"$WORK/iwd.log" 2>&1 &
	PID=$!
}
# iwd's station: /net/connman/iwd/<wiphy>/<ifindex>, known once it is up
# (iwd sees only the station's radio: -p).
iwd_station() {
	[[ -n ${ISTA-} ]] && return 0
	local end=$((EPOCHSECONDS + 30))
	until ISTA=$(iwd_call / org.freedesktop.DBus.ObjectManager.GetManagedObjects 2>/dev/null |
		grep -oE "'/net/connman/iwd/[0-9]+/[0-9]+'" | head -n 1 | tr -d "'") &&
		[[ -n $ISTA ]]; do
		((EPOCHSECONDS < end)) || wifi_fail "iwd: no station for wlan1"
		sleep 0.2
	done
}
iwd_scan() {
	iwd_station
	iwd_call "$ISTA" net.connman.iwd.Station.Scan >/dev/null || wifi_fail "iwd: Scan() failed"
	await 30 "'Scanning': <false>" || wifi_fail "iwd: the scan did not end"
}
iwd_connect() {
	iwd_station
	iwd_call "$ISTA/${SSID_HEX}_psk" net.connman.iwd.Network.Connect >"$WORK/connect.out" 2>&1
}
iwd_disconnect() {
	iwd_station
	iwd_call "$ISTA" net.connman.iwd.Station.Disconnect >/dev/null
}

wpa_supplicant_start() {
	STA_IFACE=fi.w1.wpa_supplicant1.Interface STA_CONNECTED=completed
	mon_start fi.w1.wpa_supplicant1
	wpa_supplicant -u -t -D nl80211 -i wlan1 -c "$WORK/wpa_supplicant.conf" \
		-f "$WORK/wpa_supplicant.log" &
	PID=$!
}
wpa() { wpa_cli -p /run/wpa_supplicant -i wlan1 "$@"; }
wpa_supplicant_scan() {
	wpa scan | grep -qx OK || wifi_fail "wpa_cli scan failed"
	await 30 "ScanDone" || wifi_fail "wpa_supplicant: the scan did not end"
}
wpa_supplicant_connect() { wpa select_network 0 >"$WORK/connect.out" 2>&1; }
wpa_supplicant_disconnect() { wpa disconnect >/dev/null; }

phy_has_netdev() {
	local n
	for n in /sys/class/net/*/phy80211; do
		[[ $(readlink -f "$n") == */"$STA_PHY" ]] && return 0
	done
	return 1
}

daemon_stop() {
	kill "$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
	mon_stop
	ISTA=
	# iwd replaces the radio's interface with its own (socket-owned, so the
	# kernel removes them shortly after iwd exits): wait for that, then give
	# the next daemon a wlan1 again.
	local end=$((EPOCHSECONDS + 10))
	while [[ $1 == iwd ]] && phy_has_netdev; do
		((EPOCHSECONDS < end)) || break
		sleep 0.05
	done
	if [[ ! -e /sys/class/net/wlan1 ]]; then
		iw phy "$STA_PHY" interface add wlan1 type managed || wifi_fail "cannot re-create wlan1"
	fi
}

# Connected on request when the daemon did not connect on its own.
connect_now() {
	local d=$1 cpid
	"${d}_scan"
	mon_drain
	"${d}_connect" &
	cpid=$!
	await_connected "$TIMEOUT" || wifi_fail "$d: Connect did not connect: $(cat "$WORK/connect.out")"
	wait "$cpid" || wifi_fail "$d: the Connect call failed: $(cat "$WORK/connect.out")"
}

# ---- one round of one daemon ------------------------------------------------------

measure_start() { # (a), (d), (e) from the start
	local d=$1 t0
	if [[ -n ${NS[start,$d]-} ]]; then
		"${d}_start"
		connect_now "$d"
	else
		t0=$EPOCHREALTIME
		"${d}_start"
		if await_connected "$TIMEOUT"; then
			record start "$d" "$(ms_between "$t0" "$T_MATCH")"
			record cpu_start "$d" "$(cpu_ms "$PID")"
			record sched_start "$d" "$(sched_ms "$PID")"
		else
			unsupported start "$d" "not connected on its own within $TIMEOUT s of the start"
			NS[cpu_start,$d]=${NS[start,$d]} NS[sched_start,$d]=${NS[start,$d]}
			connect_now "$d"
		fi
	fi
	# RSS once connected, on its own or on request.
	record rss "$d" "$(status_kib "$PID" VmRSS)"
	record anon "$d" "$(status_kib "$PID" RssAnon)"
}

measure_connect() { # (b)
	local d=$1 t0 cpid
	mon_drain
	"${d}_disconnect" || wifi_fail "$d: the disconnect call failed"
	await_disconnected 30 || wifi_fail "$d: not disconnected"
	"${d}_scan"
	mon_drain
	t0=$EPOCHREALTIME
	"${d}_connect" &
	cpid=$!
	await_connected "$TIMEOUT" || wifi_fail "$d: Connect did not connect: $(cat "$WORK/connect.out")"
	wait "$cpid" || wifi_fail "$d: the Connect call failed: $(cat "$WORK/connect.out")"
	record connect "$d" "$(ms_between "$t0" "$T_MATCH")"
}

measure_ap_restart() { # (c)
	local d=$1
	mon_drain
	ap_stop
	await_disconnected 60 || wifi_fail "$d: did not notice the AP going"
	ap_start
	if [[ -n ${NS[reconnect,$d]-} ]]; then
		connect_now "$d"
	elif await_connected "$RECONNECT_TIMEOUT"; then
		record reconnect "$d" "$(ms_between "$AP_T0" "$T_MATCH")"
	else
		unsupported reconnect "$d" \
			"not reconnected on its own within $RECONNECT_TIMEOUT s of the AP's return"
		connect_now "$d"
	fi
}

measure_idle() { # (e) idle
	local d=$1 c0 s0 w0
	sleep 2
	mon_drain
	c0=$(cpu_ms "$PID") s0=$(sched_ms "$PID") w0=$(wakeups "$PID")
	sleep "$IDLE"
	record cpu_idle "$d" "$(awk -v a="$c0" -v b="$(cpu_ms "$PID")" 'BEGIN { print b - a }')"
	record sched_idle "$d" "$(awk -v a="$s0" -v b="$(sched_ms "$PID")" 'BEGIN { print b - a }')"
	record wakeups "$d" $(($(wakeups "$PID") - w0))
	# Still connected all along: no disconnection signalled.
	if await 1 "$STA_IFACE" "'State': <'disconnected'>"; then
		wifi_fail "$d: disconnected during the idle period"
	fi
}

# ---- set up ----------------------------------------------------------------------

wifi_step "guest up after ${JOIND_VM_BOOT_SECONDS:-?} s of boot; $ROUNDS rounds, ${IDLE} s idle"
wifi_load_hwsim 2
STA_PHY=$(basename "$(readlink -f /sys/class/net/wlan1/phy80211)")
wifi_start_bus
ap_start
wifi_step "hostapd: $SSID (WPA2-PSK) beaconing on wlan0, channel 6"

mkdir -p "$WORK/state" /etc/iwd /var/lib/iwd
printf '[General]\nBlacklistInterfaces=wlan0*\n' >"$WORK/main.conf"
printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/$SSID.psk"
chmod 600 "$WORK/state/$SSID.psk"
printf '[General]\nEnableNetworkConfiguration=false\n[DriverQuirks]\nDefaultInterface=*\n' \
	>/etc/iwd/main.conf
printf '[Security]\nPassphrase=%s\n' "$PASS" >"/var/lib/iwd/$SSID.psk"
chmod 600 "/var/lib/iwd/$SSID.psk"
hexpsk=$(wpa_passphrase "$SSID" "$PASS" | sed -n 's/^[[:space:]]*psk=\([0-9a-f]\{64\}\)$/\1/p')
cat >"$WORK/wpa_supplicant.conf" <<EOF
ctrl_interface=/run/wpa_supplicant
p2p_disabled=1
network={
	ssid="$SSID"
	psk=$hexpsk
	key_mgmt=WPA-PSK
}
EOF

# ---- warm-up ---------------------------------------------------------------------

for d in "${DAEMONS[@]}"; do
	"${d}_start"
	if ! await_connected 30; then
		wifi_step "$d: warm-up: not connected on its own within 30 s; connecting on request"
		connect_now "$d"
	fi
	daemon_stop "$d"
	wifi_step "$d: warm-up connection done"
done
[[ " ${DAEMONS[*]} " != *" joind "* ]] || grep -q "^PreSharedKey=" "$WORK/state/$SSID.psk" ||
	wifi_fail "joind saved no PreSharedKey"
learned="joind: $(find "$WORK/state" -mindepth 1 -printf "%f ")| iwd: $(find /var/lib/iwd -mindepth 1 -printf "%f ")"
wifi_step "learned: $learned"

# ---- rounds ----------------------------------------------------------------------

for ((r = 1; r <= ROUNDS; r++)); do
	for d in "${DAEMONS[@]}"; do
		measure_start "$d"
		measure_connect "$d"
		measure_ap_restart "$d"
		((r == ROUNDS)) && measure_idle "$d"
		daemon_stop "$d"
		wifi_step "round $r/$ROUNDS: $d done"
	done
done

# ---- the table -------------------------------------------------------------------

median() { # of the numbers in $1, or empty
	tr ' ' '\n' <<<"$1" | { grep . || true; } | sort -g | awk '{ v[NR] = $1 }
		END { if (NR) printf "%.6g", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"
		else if (a / b < 0.1) printf "%.4f", a / b; else printf "%.2f", a / b }'
}

row() { # METRIC LABEL
	local m=$1 label=$2 d v cells=() med=()
	for d in "${ALL_DAEMONS[@]}"; do
		v=$(median "${VALS[$m,$d]-}")
		med+=("$v")
		if [[ -n ${NS[$m,$d]-} ]]; then
			cells+=("n/s")
		else
			cells+=("${v:--}")
		fi
	done
	[[ -n ${NS[$m,joind]-} ]] && med[0]=""
	printf '%-40s %9s %9s %9s %8s %8s\n' "$label" "${cells[@]}" \
		"$(ratio "${med[0]}" "${med[1]}")" "$(ratio "${med[0]}" "${med[2]}")"
}

{
	echo "bench/wifi-connect: WPA2-PSK on mac80211_hwsim, qemu TCG; medians of $ROUNDS rounds"
	echo "(iwd $(/usr/libexec/iwd --version), $(wpa_supplicant -v | grep -o 'v[0-9.]*' | head -n 1 | sed 's/^/wpa_supplicant /'), joind $("$BUILD/core/joind" --version 2>/dev/null | grep -oE '[0-9][0-9.]*' | head -n 1))"
	printf '%-40s %9s %9s %9s %8s %8s\n' metric joind iwd wpa_s j/iwd j/wpa_s
	row start "(a) start -> connected, ms"
	row connect "(b) Connect() -> connected, ms"
	row reconnect "(c) AP beaconing -> reconnected, ms"
	row rss "(d) VmRSS after connect, KiB"
	row anon "(d) RssAnon after connect, KiB"
	row cpu_start "(e) CPU start -> connected, ms"
	row sched_start "    same, schedstat run time, ms"
	row cpu_idle "(e) CPU in ${IDLE} s idle connected, ms"
	row sched_idle "    same, schedstat run time, ms"
	row wakeups "(e) wakeups in ${IDLE} s idle"
	for k in start reconnect; do
		[[ -z ${NS[$k,joind]-} ]] || echo "n/s: joind, $k: ${NS[$k,joind]}"
		[[ -z ${NS[$k,iwd]-} ]] || echo "n/s: iwd, $k: ${NS[$k,iwd]}"
		[[ -z ${NS[$k,wpa_supplicant]-} ]] || echo "n/s: wpa_supplicant, $k: ${NS[$k,wpa_supplicant]}"
	done
	echo "CPU: utime+stime (/proc/PID/stat, ${HZ} Hz ticks); schedstat: the run time of every"
	echo "thread (/proc/PID/task/*/schedstat); wakeups: voluntary context switches of every"
	echo "thread. Times from the start of the daemon / just before the call / hostapd's"
	echo "AP-ENABLED to the connected signal's arrival at gdbus monitor."
	echo "Every value, in order of the rounds:"
	for k in $(printf '%s\n' "${!VALS[@]}" | sort); do echo "  $k: ${VALS[$k]}"; done
} | tee "$LOGDIR/results.txt"

ap_stop
cp "$WORK"/*.log "$LOGDIR/"
wifi_step "done"
