#!/bin/bash
# bench/wifi-connect/guest.sh - the VM side of bench/wifi-connect/run.sh
# (which boots the VM and runs this; do not run it on a host).
#
# Radios: wlan0 is hostapd's access point (channel 6, CCMP), one row at a
# time (rows.sh: WPA2-PSK, PEAP/MSCHAPv2, EAP-TLS, SAE hunting and
# pecking, SAE hash-to-element, OWE; each row's hostapd serves all three
# daemons); wlan1 is the station, driven by one daemon at a time: joind
# (plugin wifi; the EAP method plugins too on the enterprise rows),
# Debian's iwd, Debian's wpa_supplicant, each with its default settings and
# no debug logging (iwd: EnableNetworkConfiguration=false; wpa_supplicant:
# p2p_disabled=1, as the others do no P2P, and -u, its D-Bus interface, so
# that all three are watched the same way).
#
# BENCH_ONLY (words, commas or spaces) picks parts: psk, eap (= peap tls),
# sae (= hnp h2e), owe, or single rows; and daemons: joind, iwd,
# wpa_supplicant. Unset: everything.
#
# Warm-up, per row: each daemon connects once from a fresh state so that it
# writes and learns what it keeps (joind: PreSharedKey, the SAE PT per
# group in the profile; iwd: PreSharedKey and its PT in its .psk,
# .known_network.freq; wpa_supplicant keeps nothing on disk). Then ROUNDS
# rounds, the daemons in turn, each:
#   (a) start -> connected: the daemon is started with the network known;
#       from just before the exec (the monitor already running) to the
#       connected signal; on the way, exec -> its name on the bus;
#   (d) WPA2-PSK row: VmRSS, RssAnon at that moment (smaps_rollup's Rss and
#       Anonymous, exact; /proc/PID/status's, which lag, printed beside),
#       beside the floor program's (bench/footprint/floor.c), bare and after
#       PBKDF2 + HMAC, once per round;
#       (e) CPU time used so far (utime+stime from /proc/PID/stat, and the
#       finer per-thread schedstat run time), beside the floor's from its
#       exec to its name on the bus (what loading the stack costs);
#   (b) Connect() -> connected: disconnected by the daemon's own call
#       (joind Station1.Disconnect, iwd Station.Disconnect, wpa_cli
#       disconnect), one scan to completion (Station1.Scan, Station.Scan
#       until Scanning=false, wpa_cli scan until ScanDone), then the
#       request through bench-connect (bench-connect.c: joind
#       Network1.Connect, iwd Network.Connect, wpa_supplicant's D-Bus
#       Interface.SelectNetwork), timed by it from just before it sends the
#       request, already on the bus and subscribed, to the arrival of the
#       station's State signal; (s) the daemon's CPU over that interval
#       (schedstat run time of every thread, read by bench-connect);
#       every row but WPA2-PSK: the access point's PMKSA cache flushed
#       first (hostapd_cli pmksa_flush), so this is a full EAP
#       authentication, a full SAE exchange, a fresh OWE key (a daemon that
#       offers the PMKSA it cached is refused and falls back to them);
#   (p) every row but WPA2-PSK, before (b): the same to the same running
#       access point without the flush: the daemon's PMKSA from the
#       previous connection is used where it caches one (on the enterprise
#       rows, the rounds in which hostapd began no EAP conversation are
#       counted and printed);
#   (c) WPA2-PSK and PEAP rows: AP restart -> reconnected: hostapd
#       is stopped, the daemon reports the loss, hostapd is started again
#       (with an empty PMKSA cache: full EAP); from hostapd's own timestamp
#       of its AP-ENABLED event (hostapd -t: it is beaconing) to the
#       connected signal;
# and in the last round of the WPA2-PSK row, once connected, (e) CPU time
# and voluntary context switches of every thread (the wakeups) over IDLE
# seconds of idle.
# (b) and (p) are timed inside bench-connect, so starting a client (GLib
# costs up to seconds in the emulated guest on a loaded host) is outside
# them for the three daemons alike, and they end on the same kind of event
# for the three; (a) and (c) end on the signal's arrival at the monitor,
# also alike.
# "Connected": Station1.State=connected (joind), Station.State=connected
# (iwd), Interface.State=completed (wpa_supplicant, the D-Bus face of
# wpa_state=COMPLETED). Every wait is on events: one `gdbus monitor` of the
# daemon's bus name per run, each line stamped ($EPOCHREALTIME) as it
# arrives, so the times do not depend on when this script reads them;
# nothing is polled but hostapd's log while it starts (its own timestamp is
# what counts). A step that does not happen within TIMEOUT seconds is
# printed as "n/s" with the reason, never as a figure, and is not tried
# again in later rounds; a daemon that fails a step otherwise leaves the
# rest of that round's steps (the failure is printed under the table) and
# the run goes on; one that cannot connect in the warm-up is given up on
# that row.
set -euo pipefail

BENCH_NAME=wifi-connect
# shellcheck source=SCRIPTDIR/../common/vm-guest.sh
source "$JOIND_SOURCE_ROOT/bench/common/vm-guest.sh"
ROUNDS=${BENCH_ROUNDS:-5}
IDLE=${BENCH_IDLE:-60}
TIMEOUT=60
# iwd avoids a BSS it failed to reach for 60 s ([Blacklist] InitialTimeout),
# which an AP restart can trigger: leave room for that.
RECONNECT_TIMEOUT=150
export JOIND_ARGS="" # no debug logging: neither iwd nor wpa_supplicant has it

HZ=$(getconf CLK_TCK)
mkdir -p "$WORK/state" /etc/iwd /var/lib/iwd
# shellcheck source=SCRIPTDIR/rows.sh
source "$JOIND_SOURCE_ROOT/bench/wifi-connect/rows.sh"
ALL_DAEMONS=(joind iwd wpa_supplicant)
DAEMONS=() ROWS=()
for w in ${BENCH_ONLY//,/ }; do
	case $w in
	joind | iwd | wpa_supplicant) DAEMONS+=("$w") ;;
	eap) ROWS+=(peap tls) ;;
	sae) ROWS+=(hnp h2e) ;;
	psk | peap | tls | hnp | h2e | owe) ROWS+=("$w") ;;
	*) wifi_fail "BENCH_ONLY: $w is neither a part, a row nor a daemon" ;;
	esac
done
((${#DAEMONS[@]})) || DAEMONS=("${ALL_DAEMONS[@]}")
((${#ROWS[@]})) || ROWS=("${ALL_ROWS[@]}")

# ---- measuring -----------------------------------------------------------------

# VALS[ROW:METRIC,DAEMON]: the figures; NS[...]: why a step was not
# supported; SKIP[ROW,DAEMON]: why a daemon was given up on a row;
# FAILED[ROW,DAEMON]: the rounds it failed, and why.
declare -A VALS NS SKIP FAILED

# record METRIC DAEMON VALUE
record() { VALS[$ROW:$1,$2]+="$3 "; }
# unsupported METRIC DAEMON REASON: printed as n/s, not tried again
unsupported() {
	NS[$ROW:$1,$2]=$3
	wifi_step "$2: $ROW: $1: n/s ($3)"
}
# miss REASON: the current daemon ($D) is given up on this row; status 1.
miss() {
	SKIP[$ROW,$D]=$1
	wifi_step "$D: $ROW: failed: $1"
	return 1
}

ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
cpu_ms() { sed 's/^.*) //' "/proc/$1/stat" | awk -v hz="$HZ" '{ print ($12 + $13) * 1000 / hz }'; }
sched_ms() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%.1f\n", s / 1e6 }'; }
# thread_counts and idle_deltas: the wakeups while idle.
# shellcheck source=SCRIPTDIR/../common/idle.sh
source "$JOIND_SOURCE_ROOT/bench/common/idle.sh"
# memory_kib PID: "Rss Anonymous VmRSS RssAnon", the first two from
# smaps_rollup (exact), the last two from status (lagging), in one process
# (each costs a good part of a second in the emulated guest).
memory_kib() {
	awk '$1 == "Rss:" { r = $2 } $1 == "Anonymous:" { a = $2 }
		$1 == "VmRSS:" { sr = $2 } $1 == "RssAnon:" { sa = $2 }
		END { print r, a, sr, sa }' "/proc/$1/smaps_rollup" "/proc/$1/status"
}
# Resident KiB per mapping, "lib NAME KIB" as the footprint probe's --libs
# prints it: files by base name, [heap], [stack], [anon] (no name).
smaps_libs() {
	awk '$1 ~ /^[0-9a-f]+-[0-9a-f]+$/ { n = NF >= 6 ? $NF : "[anon]"; sub(".*/", "", n); next }
		$1 == "Rss:" { kib[n] += $2 }
		END { for (n in kib) print "lib", n, kib[n] }' "/proc/$1/smaps"
}
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
# EAP conversations hostapd began so far.
eap_started() { grep -c 'CTRL-EVENT-EAP-STARTED' "$WORK/hostapd.log" || true; }

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

# Starts hostapd on $WORK/hostapd.conf (rows.sh); AP_T0 = its own timestamp
# of AP-ENABLED (beaconing).
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
# before the daemon, so that nothing it signals is missed; T_EXEC: the
# time just before the daemon's exec, after the monitor's start-up. The scans return
# status 1 (after miss) when they fail.

joind_start() {
	local plugins=wifi
	[[ ${ROW_PART[$ROW]} == eap ]] && plugins='wifi,eap-*'
	STA_IFACE=net.joind.Station1 STA_CONNECTED=connected
	JDEV=/net/joind/device/$(cat /sys/class/net/wlan1/ifindex)
	JNET=$JDEV/network/${SSID_HEX}_$NTYPE
	mon_start net.joind
	# As joind.service runs it: GLib's slice allocator off.
	T_EXEC=$EPOCHREALTIME
	G_SLICE=always-malloc "$JOIND_BIN" --plugin-dir "$JOIND_PLUGINS" --plugins "$plugins" \
		--config "$WORK/main.conf" --state-dir "$WORK/state" >>"$JOIND_LOG" 2>&1 &
	PID=$!
	[[ -z ${BENCH_PERF-} ]] || joind_perf_attach
}
# BENCH_PERF=1: joind's CPU profile per row, on the wall clock, so that
# `perf report --time` can pick a window out of joind's log. perf takes
# seconds to start in the emulated guest: wait for it.
joind_perf_attach() {
	local data=$LOGDIR/joind-$ROW.perf.data
	rm -f "$data"
	perf record -q --call-graph dwarf,8192 -k CLOCK_REALTIME -F 2000 -p "$PID" -o "$data" \
		>/dev/null 2>&1 &
	wifi_poll 60 "perf attached to joind" test -s "$data"
	sleep 3
}
joind_scan() {
	jw -t 30 object net.joind.Station1 >/dev/null || miss "joind: no station" || return
	jcall --object-path "$JDEV" --method net.joind.Station1.Scan >/dev/null ||
		miss "joind: Scan() failed" || return
	jw -t 30 object net.joind.Network1 "Name=$SSID" >/dev/null || miss "joind: no network" || return
}
joind_target() { TARGET=("$JDEV" "$JNET"); }
joind_disconnect() {
	jcall --object-path "$JDEV" --method net.joind.Station1.Disconnect >/dev/null
}

iwd_call() {
	gdbus call --system --dest net.connman.iwd --object-path "$1" --method "$2" "${@:3}"
}
iwd_start() {
	STA_IFACE=net.connman.iwd.Station STA_CONNECTED=connected
	mon_start net.connman.iwd
	T_EXEC=$EPOCHREALTIME
	/usr/libexec/iwd -p "$STA_PHY" >>"$WORK/iwd.log" 2>&1 &
	PID=$!
}
# iwd's station: /net/connman/iwd/<wiphy>/<ifindex>, known once it is up
# (iwd sees only the station's radio: -p).
iwd_station() {
	[[ -n ${ISTA-} ]] && return 0
	local end=$((EPOCHSECONDS + 60))
	until ISTA=$(iwd_call / org.freedesktop.DBus.ObjectManager.GetManagedObjects 2>/dev/null |
		grep -oE "'/net/connman/iwd/[0-9]+/[0-9]+'" | head -n 1 | tr -d "'") &&
		[[ -n $ISTA ]]; do
		((EPOCHSECONDS < end)) || miss "iwd: no station for wlan1" || return
		sleep 0.2
	done
}
iwd_scan() {
	iwd_station || return
	iwd_call "$ISTA" net.connman.iwd.Station.Scan >/dev/null || miss "iwd: Scan() failed" || return
	await 30 "'Scanning': <false>" || miss "iwd: the scan did not end" || return
}
iwd_target() {
	iwd_station || return
	TARGET=("$ISTA" "$ISTA/${SSID_HEX}_$NTYPE")
}
iwd_disconnect() {
	iwd_station || return
	iwd_call "$ISTA" net.connman.iwd.Station.Disconnect >/dev/null
}

wpa_supplicant_start() {
	STA_IFACE=fi.w1.wpa_supplicant1.Interface STA_CONNECTED=completed
	mon_start fi.w1.wpa_supplicant1
	T_EXEC=$EPOCHREALTIME
	wpa_supplicant -u -t -D nl80211 -i wlan1 -c "$WORK/wpa_supplicant.conf" \
		-f "$WORK/wpa_supplicant.log" &
	PID=$!
}
wpa() { wpa_cli -p /run/wpa_supplicant -i wlan1 "$@"; }
wpa_supplicant_scan() {
	wpa scan | grep -qx OK || miss "wpa_cli scan failed" || return
	await 30 "ScanDone" || miss "wpa_supplicant: the scan did not end" || return
}
# The network block of wpa_supplicant.conf: the first of the interface's.
wpa_supplicant_target() { TARGET=(wlan1 0); }
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

# connect_call: the daemon's connect request through bench-connect, which
# is on the bus and subscribed to the station's State before it takes its
# start time, so no daemon's figure includes a client's start-up; the same
# D-Bus event ends it for the three. CONNECT=(T0 T1 CPU0 CPU1): the times
# (epoch seconds) and the daemon's schedstat run time (ms) at both. Status
# 1 after miss.
connect_call() {
	local out
	"${D}_target" || return
	if ! out=$("$BUILD/bench/wifi-connect/bench-connect" "$D" "$PID" "${TARGET[@]}" "$TIMEOUT" \
		2>"$WORK/connect.out"); then
		miss "$(head -c 300 "$WORK/connect.out")"
		return
	fi
	read -r -a CONNECT <<<"$out"
}

# Connected on request when the daemon did not connect on its own.
connect_now() {
	"${D}_scan" || return
	mon_drain
	connect_call
}

# ---- one round of one daemon ($D) ------------------------------------------------

measure_start() { # (a), (d), (e) from the start
	if [[ -n ${NS[$ROW:start,$D]-} ]]; then
		"${D}_start"
		connect_now || return
	else
		"${D}_start"
		# gdbus monitor tells when the name gets its owner, before any
		# signal of the daemon's.
		await 30 "is owned by" && record name "$D" "$(ms_between "$T_EXEC" "$T_MATCH")"
		if await_connected "$TIMEOUT"; then
			record start "$D" "$(ms_between "$T_EXEC" "$T_MATCH")"
			record cpu_start "$D" "$(cpu_ms "$PID")"
			record sched_start "$D" "$(sched_ms "$PID")"
		else
			unsupported start "$D" "not connected on its own within $TIMEOUT s of the start"
			NS[$ROW:cpu_start,$D]=${NS[$ROW:start,$D]} NS[$ROW:sched_start,$D]=${NS[$ROW:start,$D]}
			connect_now || return
		fi
	fi
	# RSS once connected, on its own or on request: smaps_rollup's,
	# counted from the page tables; /proc/PID/status's counters on this
	# kernel (6.1) are kept per thread and added up every 64 page faults,
	# so they lag by up to megabytes (see the footprint probe).
	local rss anon rss_status anon_status
	read -r rss anon rss_status anon_status < <(memory_kib "$PID")
	record rss "$D" "$rss"
	record anon "$D" "$anon"
	record rss_status "$D" "$rss_status"
	record anon_status "$D" "$anon_status"
	[[ $ROW != psk ]] || smaps_libs "$PID" >"$LOGDIR/libs-$D.txt"
}

# measure_connect METRIC [flush]: (b) or (p); (s) the CPU of it; and how
# many EAP conversations hostapd began. "flush": the access point forgets
# every PMKSA first.
measure_connect() {
	local m=$1 e0
	mon_drain
	"${D}_disconnect" || miss "the disconnect call failed" || return
	await_disconnected 30 || miss "not disconnected within 30 s of the call" || return
	if [[ ${2-} == flush ]]; then
		hostapd_cli -p /run/hostapd-bench -i wlan0 pmksa_flush | grep -qx OK ||
			wifi_fail "hostapd_cli pmksa_flush failed"
	fi
	"${D}_scan" || return
	e0=$(eap_started)
	connect_call || return
	# When, on the guest's clock, to read against the daemons' logs.
	printf '%s %s %s: sent %s, connected signal %s\n' "$ROW" "$m" "$D" \
		"$(date -d "@${CONNECT[0]}" +%T.%3N)" "$(date -d "@${CONNECT[1]}" +%T.%3N)" \
		>>"$LOGDIR/connect-times.txt"
	record "$m" "$D" "$(ms_between "${CONNECT[0]}" "${CONNECT[1]}")"
	record "cpu_$m" "$D" "$(minus "${CONNECT[3]}" "${CONNECT[2]}")"
	record "eap_$m" "$D" $(($(eap_started) - e0))
}

measure_ap_restart() { # (c)
	mon_drain
	ap_stop
	if ! await_disconnected 60; then
		ap_start
		miss "did not notice the AP going within 60 s"
		return
	fi
	ap_start
	if [[ -n ${NS[$ROW:reconnect,$D]-} ]]; then
		connect_now
	elif await_connected "$RECONNECT_TIMEOUT"; then
		record reconnect "$D" "$(ms_between "$AP_T0" "$T_MATCH")"
	else
		unsupported reconnect "$D" \
			"not reconnected on its own within $RECONNECT_TIMEOUT s of the AP's return"
		connect_now
	fi
}

measure_idle() { # (e) idle
	local c0 wakeups run gone
	sleep 2
	mon_drain
	c0=$(cpu_ms "$PID")
	thread_counts "$PID" >"$WORK/threads-before"
	sleep "$IDLE"
	thread_counts "$PID" >"$WORK/threads-after"
	read -r wakeups run gone < <(idle_deltas "$WORK/threads-before" "$WORK/threads-after")
	record cpu_idle "$D" "$(awk -v a="$c0" -v b="$(cpu_ms "$PID")" 'BEGIN { print b - a }')"
	record sched_idle "$D" "$run"
	record wakeups "$D" "$wakeups"
	[[ $gone == - ]] || wifi_step "$D: threads ended while idle: ${gone%,}"
	# Still connected all along: no disconnection signalled.
	if await 1 "$STA_IFACE" "'State': <'disconnected'>"; then
		miss "disconnected during the idle period"
	fi
}

# measure_round LAST: every step of this row, in order; status 1 when the
# daemon was given up.
measure_round() {
	measure_start || return
	case ${ROW_PART[$ROW]} in
	psk)
		measure_connect connect || return
		measure_ap_restart || return
		(($1)) || return 0
		measure_idle
		;;
	*)
		measure_connect pmksa || return
		measure_connect connect flush || return
		[[ $ROW != peap ]] || measure_ap_restart
		;;
	esac
}

# ---- set up ----------------------------------------------------------------------

wifi_step "guest up after ${JOIND_VM_BOOT_SECONDS:-?} s of boot; $ROUNDS rounds, ${IDLE} s idle;" \
	"rows: ${ROWS[*]}; daemons: ${DAEMONS[*]}"
wifi_load_hwsim 2
STA_PHY=$(basename "$(readlink -f /sys/class/net/wlan1/phy80211)")
wifi_start_bus
# iwd's TLS loads private keys into the kernel's keyring as PKCS#8.
modprobe pkcs8_key_parser 2>/dev/null || true
cp -r "$BUILD/bench-wifi-connect-pki" "$PKI"
# joind installed into the guest's root (its tmpfs overlay), as run.sh
# staged it: run from RAM like the other daemons from the cached root.
bench_guest_joind

printf '[General]\nBlacklistInterfaces=wlan0*\n' >"$WORK/main.conf"
printf '[General]\nEnableNetworkConfiguration=false\n[DriverQuirks]\nDefaultInterface=*\n' \
	>/etc/iwd/main.conf

# profile_keys FILE: the keys it holds, on one line.
profile_keys() { { grep -ho '^[A-Za-z0-9-]*=' "$1" 2>/dev/null || true; } | tr '\n' ' '; }

# warm_up: each daemon connects once (rows.sh says what they learn).
warm_up() {
	local learned
	for D in "${DAEMONS[@]}"; do
		"${D}_start"
		if ! await_connected "$TIMEOUT"; then
			wifi_step "$D: $ROW: warm-up: not connected on its own within $TIMEOUT s; connecting on request"
			connect_now || true
		fi
		daemon_stop "$D"
		wifi_step "$D: $ROW: warm-up connection done"
	done
	if [[ $ROW == psk && " ${DAEMONS[*]} " == *" joind "* && -z ${SKIP[$ROW,joind]-} ]]; then
		grep -q "^PreSharedKey=" "$WORK/state/$SSID.psk" || wifi_fail "joind saved no PreSharedKey"
	fi
	learned="joind: $(profile_keys "$WORK/state/$SSID.$NTYPE")"
	learned+="| iwd: $(profile_keys "/var/lib/iwd/$SSID.$NTYPE")"
	LEARNED[$ROW]=$learned
	wifi_step "$ROW: the profiles' keys after the warm-up: $learned"
}

# measure_floor: the floor program (bench/footprint/floor.c: the required
# stack owning a name and exporting one object, nothing more), bare and
# after one PBKDF2 + HMAC, on a bus of its own, measured by the host
# benchmark's probe (name on the bus, settled, /proc/PID/status): what
# joind's (d) is set against, in the same boot.
measure_floor() {
	local addr bus m out
	read -r addr bus < <(dbus-daemon --session --fork --print-address=1 --print-pid=1 |
		paste -sd' ')
	for m in floor floor-crypto; do
		local args=()
		[[ $m == floor ]] || args=(--crypto)
		out=$(DBUS_SESSION_BUS_ADDRESS=$addr "$BUILD/bench/footprint/probe" --libs \
			--name net.joind.Floor -- "$BUILD/bench/footprint/floor" net.joind.Floor \
			"${args[@]}") || wifi_fail "floor: the probe failed"
		grep '^lib ' <<<"$out" >"$LOGDIR/libs-$m.txt" || true
		record cpu_start "$m" "$(awk '$1 == "start_cpu_ms" { printf "%d", $2 }' <<<"$out")"
		record name "$m" "$(awk '$1 == "start_ms" { printf "%d", $2 }' <<<"$out")"
		record rss "$m" "$(awk '$1 == "vmrss_kib" { print $2 }' <<<"$out")"
		record anon "$m" "$(awk '$1 == "rssanon_kib" { print $2 }' <<<"$out")"
	done
	kill "$bus"
}

# ---- rows and rounds ----------------------------------------------------------------

declare -A LEARNED
for ROW in "${ROWS[@]}"; do
	row_setup "$ROW"
	ap_start
	wifi_step "hostapd: $SSID (${ROW_TITLE[$ROW]}) beaconing on wlan0, channel 6"
	warm_up
	for ((r = 1; r <= ROUNDS; r++)); do
		for D in "${DAEMONS[@]}"; do
			[[ -z ${SKIP[$ROW,$D]-} ]] || continue
			if ! measure_round $((r == ROUNDS)); then
				FAILED[$ROW,$D]+="round $r: ${SKIP[$ROW,$D]-?}; "
				unset "SKIP[$ROW,$D]"
			fi
			daemon_stop "$D"
			wifi_step "$ROW: round $r/$ROUNDS: $D done"
		done
		[[ $ROW != psk ]] || measure_floor
	done
	ap_stop
done

# ---- the table -------------------------------------------------------------------
# shellcheck source=SCRIPTDIR/table.sh
source "$JOIND_SOURCE_ROOT/bench/wifi-connect/table.sh"
print_table | tee "$LOGDIR/results.txt"
libs_table | tee -a "$LOGDIR/results.txt"
cp "$WORK"/*.log "$LOGDIR/"
wifi_step "done"
