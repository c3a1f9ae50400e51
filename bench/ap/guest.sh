#!/bin/bash
# bench/ap/guest.sh - the VM side of bench/ap/run.sh (which boots the VM and
# runs this; do not run it on a host).
#
# Radios: wlan0 is the access point, run by one daemon at a time on the
# same radio, the same WPA2-Personal BSS (SSID bench-ap, CCMP, channel 6,
# the passphrase in a profile, no DHCP): joind (its .ap profile,
# AccessPoint1.StartProfile, the device put in ap mode through
# Device1.Mode), hostapd 2.10 (its configuration file, wpa=2) and Debian's
# iwd 2.3 (its .ap profile, AccessPoint.StartProfile after Device.Mode ap;
# EnableNetworkConfiguration=false). Each runs with its defaults and no
# debug logging. wlan1..wlan8 are clients: Debian's wpa_supplicant 2.10,
# the same configuration on each (WPA-PSK, CCMP, no MFP, scan on 2437 MHz
# only), started afresh for every daemon.
#
# Per daemon, in this order:
#   idle       joind and iwd: VmRSS and RssAnon once the daemon has the
#              radio in station mode, no network known (hostapd has no
#              such state: n/a)
#   (a) start  ROUNDS times: the BSS stopped (joind AccessPoint1.Stop,
#              iwd AccessPoint.Stop, hostapd's DISABLE), a second of
#              silence on the air, then from just before the start request
#              is sent (joind AccessPoint1.StartProfile, iwd
#              AccessPoint.StartProfile, hostapd's ENABLE on its control
#              socket; all three through bench/ap/ap-request, which
#              connects first and takes the time only then, so that no
#              client start-up is counted; round r at r/(ROUNDS+1) of
#              the way into mac80211_hwsim's 102.4 ms beacon interval, so
#              that the wait for the next beacon slot is spread the same
#              way for every daemon) to the first beacon on the air:
#              bench/ap/air-watch on mac80211_hwsim's hwsim0, the
#              monitor every simulated radio's frames go through, dated by
#              the kernel on receipt. One start before these is not
#              counted (the daemon's first; hostapd's is its own start-up,
#              after which its BSS is disabled).
#   (b) keys   ROUNDS times, client 1 (wlan1): wpa_cli disconnect, then
#              reassociate; from its "Associated with" to its "WPA: Key
#              negotiation completed" (the pairwise and group keys
#              installed), both wpa_supplicant's own stamps (-t): the
#              4-way handshake as the AP drives it; beside it, from its
#              "SME: Trying to authenticate" to the same line (open
#              authentication and association as well). Under it, who
#              held the handshake how long, from the frames on the air
#              (bench/ap/air-watch, the kernel's dates): the AP's turns
#              (association response -> message 1, message 2 -> 3), the
#              client's (1 -> 2, 3 -> 4) and its own time from message 4
#              to its keys installed, and the AP's answer to the
#              association request. One connection before these is not
#              counted.
#   (c) memory with client 1 connected: VmRSS and RssAnon (smaps_rollup's
#              Rss and Anonymous, exact); then clients 2..8 join, and the
#              same with 8 connected. Each time, where the VmRSS is (KiB
#              per mapped file) goes to memory-DAEMON1.txt (_idle, 8) in
#              the logs, the floor's to memory-floor.txt.
# Then the floor programs after one PBKDF2 + HMAC, the same way
# bench/wifi-connect measures its floor: bench/footprint/floor.c (what the
# GDBus and OpenSSL stack joind needs costs before it does anything) and
# bench/footprint/floor-ell.c (the same on ELL, iwd's stack).
# A step that does not happen within TIMEOUT seconds gives the daemon up
# (printed under the table); the run goes on with the next.
set -euo pipefail

BENCH_NAME=ap
# shellcheck source=SCRIPTDIR/../common/vm-guest.sh
source "$JOIND_SOURCE_ROOT/bench/common/vm-guest.sh"
ROUNDS=${BENCH_ROUNDS:-5}
TIMEOUT=60
# mac80211_hwsim's beacon interval, 100 TU: its slots fall on multiples of
# it in the real-time clock (ap-request --phase, table.sh's bounds).
BEACON_INTERVAL_US=102400
SSID=bench-ap
CLIENTS=8
HOSTAPD_CTRL=/run/hostapd-bench-ap
WPA_CTRL=/run/wpa-bench-ap
ALL_DAEMONS=(joind hostapd iwd)
DAEMONS=()
for w in ${BENCH_ONLY//,/ }; do
	case $w in
	joind | hostapd | iwd) DAEMONS+=("$w") ;;
	*) wifi_fail "BENCH_ONLY: $w is not a daemon (joind, hostapd, iwd)" ;;
	esac
done
((${#DAEMONS[@]})) || DAEMONS=("${ALL_DAEMONS[@]}")

# VALS[ap:METRIC,DAEMON]: the figures (table.sh's names); NS: why a figure
# cannot be; SKIP and FAILED: why a daemon was given up.
declare -A VALS NS SKIP FAILED
ROW=ap
record() { VALS[$ROW:$1,$2]+="$3 "; }
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
miss() {
	SKIP[$ROW,$D]=$1
	FAILED[$ROW,$D]=$1
	wifi_step "$D: given up: $1"
	return 1
}
# until_within SECONDS COMMAND...: COMMAND polled every 50 ms; status 1
# after SECONDS.
until_within() {
	local end=$((EPOCHSECONDS + $1))
	shift
	until "$@"; do
		((EPOCHSECONDS < end)) || return 1
		sleep 0.05
	done
}
# rollup_kib PID: "Rss Anonymous" from smaps_rollup, KiB.
rollup_kib() {
	awk '$1 == "Rss:" { r = $2 } $1 == "Anonymous:" { a = $2 } END { print r, a }' \
		"/proc/$1/smaps_rollup"
}
record_memory() { # SUFFIX: VmRSS and RssAnon of the daemon
	local rss anon
	sleep 2
	read -r rss anon < <(rollup_kib "$PID")
	record "rss$1" "$D" "$rss"
	record "anon$1" "$D" "$anon"
	rss_by_object "$PID" >"$WORK/memory-$D$1.txt"
}
# rss_by_object PID: where its VmRSS is, KiB per mapped file by its base
# name (anonymous memory, heap and stack as one line each), the largest
# first: read beside the floor's to see which libraries cost the most.
rss_by_object() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { obj = "[anon]"; if (NF >= 6) { n = split($6, p, "/"); obj = p[n] } }
	     $1 == "Rss:" { kib[obj] += $2 }
	     END { for (o in kib) if (kib[o]) printf "%7d %s\n", kib[o], o }' "/proc/$1/smaps" |
		sort -rn
}

# ---- the air --------------------------------------------------------------------

watch_start() {
	ip link set hwsim0 up || wifi_fail "no hwsim0 monitor"
	"$BUILD/bench/ap/air-watch" hwsim0 "$SSID" >"$WORK/air.txt" 2>"$WORK/air-watch.log" &
	WATCH_PID=$!
}
# first_beacon_after T: the first beacon of a starting BSS dated after T.
first_beacon_after() {
	awk -v t="$1" '$2 == "beacon" && $1 + 0 > t { print $1; exit }' "$WORK/air.txt"
}
# beacon_after T: there is one yet (a command for until_within, which
# runs it anew each time).
beacon_after() { [[ -n $(first_beacon_after "$1") ]]; }

# ---- the daemons: start, mode ap, stop the BSS, start it ---------------------------
# Each DAEMON_up starts the daemon and sets PID once it has wlan0 as a
# station; DAEMON_ap puts it in AP mode; DAEMON_bss_stop and
# DAEMON_bss_start stop and start the BSS (the start prints the time the
# request went and returns once it is answered); status 1 (after miss)
# when a step fails.

JDEV=
joind_up() {
	mkdir -p "$WORK/state/ap"
	printf '[General]\nChannel=6\n[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/ap/$SSID.ap"
	chmod 600 "$WORK/state/ap/$SSID.ap"
	printf '[General]\nInterfaces=wlan0\n' >"$WORK/main.conf"
	local args=()
	[[ -z ${BENCH_JOIND_DEBUG-} ]] || args=(--debug)
	G_SLICE=always-malloc "$JOIND_BIN" "${args[@]}" --plugin-dir "$JOIND_PLUGINS" --plugins wifi \
		--config "$WORK/main.conf" --state-dir "$WORK/state" >>"$JOIND_LOG" 2>&1 &
	PID=$!
	JDEV=$(jw -t "$TIMEOUT" object net.joind.Station1) || miss "joind: no station on wlan0" || return
}
joind_ap() {
	busctl set-property net.joind "$JDEV" net.joind.Device1 Mode s ap ||
		miss "joind: Device1.Mode ap refused" || return
	jw -t 20 object net.joind.AccessPoint1 >/dev/null || miss "joind: no AccessPoint1" || return
}
# DAEMON_bss_start [PHASE]: through ap-request, which prints the time just
# before the request goes; PHASE (µs), where in the beacon interval it goes.
joind_bss_start() { "$BUILD/bench/ap/ap-request" ${1:+"--phase=$1"} joind "$JDEV" start "$SSID"; }
joind_bss_stop() { "$BUILD/bench/ap/ap-request" joind "$JDEV" stop >/dev/null; }

IDEV=
iwd_up() {
	local phy
	phy=$(cat /sys/class/net/wlan0/phy80211/name)
	mkdir -p /var/lib/iwd/ap /etc/iwd
	printf '[General]\nChannel=6\n[Security]\nPassphrase=%s\n' "$PASS" >"/var/lib/iwd/ap/$SSID.ap"
	printf '[General]\nEnableNetworkConfiguration=false\nUseDefaultInterface=true\n' >/etc/iwd/main.conf
	printf '[DriverQuirks]\nDefaultInterface=*\n' >>/etc/iwd/main.conf
	/usr/libexec/iwd -p "$phy" -i wlan0 >>"$WORK/iwd.log" 2>&1 &
	PID=$!
	IDEV=/net/connman/iwd/$(cat /sys/class/net/wlan0/phy80211/index)/$(cat /sys/class/net/wlan0/ifindex)
	until_within "$TIMEOUT" iwd_has Station || miss "iwd: no station on wlan0" || return
}
# iwd_has INTERFACE: iwd's wlan0 object has it.
iwd_has() {
	busctl --system introspect net.connman.iwd "$IDEV" 2>/dev/null | grep -q "^net.connman.iwd.$1 "
}
iwd_ap() {
	busctl set-property net.connman.iwd "$IDEV" net.connman.iwd.Device Mode s ap ||
		miss "iwd: Device.Mode ap refused" || return
	until_within 20 iwd_has AccessPoint || miss "iwd: no AccessPoint" || return
}
iwd_bss_start() { "$BUILD/bench/ap/ap-request" ${1:+"--phase=$1"} iwd "$IDEV" start "$SSID"; }
iwd_bss_stop() { "$BUILD/bench/ap/ap-request" iwd "$IDEV" stop >/dev/null; }

hostapd_up() {
	printf 'interface=wlan0\ndriver=nl80211\nctrl_interface=%s\nhw_mode=g\nchannel=6\n' \
		"$HOSTAPD_CTRL" >"$WORK/hostapd.conf"
	printf 'ssid=%s\nwpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nwpa_passphrase=%s\n' \
		"$SSID" "$PASS" >>"$WORK/hostapd.conf"
	hostapd -B -P "$WORK/hostapd.pid" -f "$WORK/hostapd.log" "$WORK/hostapd.conf" ||
		miss "hostapd did not start" || return
	PID=$(cat "$WORK/hostapd.pid")
	NS[$ROW:rss_idle,hostapd]="no idle state: hostapd is an access point or nothing"
	NS[$ROW:anon_idle,hostapd]=${NS[$ROW:rss_idle,hostapd]}
}
# The BSS hostapd started with, disabled: from here on it starts and
# stops as joind's and iwd's do. Then the silence air-watch needs to
# see the next beacon as a new BSS's (on a quiet host the first ENABLE
# came 0.2 s after the DISABLE, and its BSS was taken for the old one).
hostapd_ap() {
	hostapd_bss_stop || miss "hostapd's DISABLE failed" || return
	sleep 1.5
}
hostapd_bss_start() { "$BUILD/bench/ap/ap-request" ${1:+"--phase=$1"} hostapd "$HOSTAPD_CTRL/wlan0" start; }
hostapd_bss_stop() { "$BUILD/bench/ap/ap-request" hostapd "$HOSTAPD_CTRL/wlan0" stop >/dev/null; }

daemon_stop() {
	kill "$PID" 2>/dev/null || true
	while kill -0 "$PID" 2>/dev/null; do sleep 0.05; done
	wait "$PID" 2>/dev/null || true
	clients_stop
	[[ -e /sys/class/net/wlan0 ]] ||
		iw phy "$AP_PHY" interface add wlan0 type managed || wifi_fail "cannot re-create wlan0"
	ip link set wlan0 down
	iw dev wlan0 set type managed || true
}

# ---- the clients ---------------------------------------------------------------------

client_conf() {
	printf 'ctrl_interface=%s\np2p_disabled=1\nnetwork={\n\tssid="%s"\n\tkey_mgmt=WPA-PSK\n' \
		"$WPA_CTRL" "$SSID"
	printf '\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tieee80211w=0\n\tpsk="%s"\n' "$PASS"
	printf '\tscan_freq=2437\n}\n'
}
wpa() { wpa_cli -p "$WPA_CTRL" -i "wlan$1" "${@:2}"; }
client_log() { echo "$WORK/wpa-$1.log"; }
connected_count() { grep -c 'CTRL-EVENT-CONNECTED' "$(client_log "$1")" 2>/dev/null || true; }
client_start() {
	wpa_supplicant -B -t -D nl80211 -i "wlan$1" -c "$WORK/client.conf" -P "$WORK/wpa-$1.pid" \
		-f "$(client_log "$1")" || wifi_fail "wpa_supplicant on wlan$1 did not start"
}
clients_stop() {
	local i
	for ((i = 1; i <= CLIENTS; i++)); do
		[[ -s $WORK/wpa-$i.pid ]] || continue
		kill "$(cat "$WORK/wpa-$i.pid")" 2>/dev/null || true
		rm -f "$WORK/wpa-$i.pid"
		cat "$(client_log "$i")" >>"$LOGDIR/wpa_supplicant-$D-$i.log" 2>/dev/null || true
		rm -f "$(client_log "$i")"
	done
	sleep 0.5
}
# client_connected I C0: client I has more than C0 connections.
client_connected() { (($(connected_count "$1") > $2)); }
# air_turns T0 MAC KEYS: who held the handshake how long, from the first
# of each frame to or from MAC on the air after T0 (air-watch's dates), ms:
# "ASSOC AP CLIENT INSTALL": the AP's answer to the association request,
# the AP's turns in the 4-way handshake (association response -> message
# 1, 2 -> 3), the client's (1 -> 2, 3 -> 4), and the client's own time
# from its message 4 to KEYS, its stamp of the keys installed; nothing
# when a frame is missing.
air_turns() {
	awk -v t0="$1" -v mac="$2" -v keys="$3" '
		$1 + 0 > t0 && ($3 == mac || $4 == mac) && !($2 in at) { at[$2] = $1 }
		END {
			req = ("reassoc-req" in at) ? "reassoc-req" : "assoc-req"
			resp = ("reassoc-resp" in at) ? "reassoc-resp" : "assoc-resp"
			if (!(req in at) || !(resp in at) || !("m1" in at) || !("m2" in at) ||
			    !("m3" in at) || !("m4" in at))
				exit
			printf "%.0f %.0f %.0f %.0f\n", (at[resp] - at[req]) * 1000,
				(at["m1"] - at[resp] + at["m3"] - at["m2"]) * 1000,
				(at["m2"] - at["m1"] + at["m4"] - at["m3"]) * 1000, (keys - at["m4"]) * 1000
		}' "$WORK/air.txt"
}
# stamp_after LOG L0 TEXT: wpa_supplicant's stamp of the last line holding
# TEXT after line L0.
stamp_after() { tail -n "+$(($2 + 1))" "$1" | grep -F "$3" | tail -n 1 | cut -d: -f1; }

# ---- one daemon --------------------------------------------------------------------

measure_start() {
	local r t0 t1
	t0=$("${D}_bss_start") || miss "the first start failed" || return
	until_within 20 beacon_after "$t0" || miss "no beacon after the first start" || return
	for ((r = 0; r <= ROUNDS; r++)); do
		"${D}_bss_stop" || miss "stopping the BSS failed" || return
		sleep 1.5
		t0=$("${D}_bss_start" $((r * BEACON_INTERVAL_US / (ROUNDS + 1)))) ||
			miss "starting the BSS failed (round $r)" || return
		until_within 20 beacon_after "$t0" ||
			miss "no beacon within 20 s of the start (round $r)" || return
		t1=$(first_beacon_after "$t0")
		((r == 0)) || record start "$D" "$(ms_between "$t0" "$t1")"
		((r == 0)) || wifi_step "$D: start -> first beacon $(ms_between "$t0" "$t1") ms"
	done
}

measure_keys() {
	local r c0 l0 log assoc auth keys t0 turns mac
	log=$(client_log 1)
	mac=$(cat /sys/class/net/wlan1/address)
	client_start 1
	until_within "$TIMEOUT" client_connected 1 0 || miss "client 1 did not connect" || return
	for ((r = 1; r <= ROUNDS; r++)); do
		wpa 1 disconnect >/dev/null
		sleep 1
		c0=$(connected_count 1)
		l0=$(wc -l <"$log")
		t0=$EPOCHREALTIME
		wpa 1 reassociate >/dev/null
		until_within "$TIMEOUT" client_connected 1 "$c0" ||
			miss "client 1 did not reconnect (round $r)" || return
		auth=$(stamp_after "$log" "$l0" "SME: Trying to authenticate")
		assoc=$(stamp_after "$log" "$l0" "Associated with")
		keys=$(stamp_after "$log" "$l0" "WPA: Key negotiation completed")
		[[ -n $assoc && -n $keys ]] || miss "client 1's log lacks its stamps (round $r)" || return
		record keys "$D" "$(ms_between "$assoc" "$keys")"
		[[ -z $auth ]] || record join "$D" "$(ms_between "$auth" "$keys")"
		read -r -a turns < <(air_turns "$t0" "$mac" "$keys")
		if ((${#turns[@]} == 4)); then
			record assoc_turn "$D" "${turns[0]}"
			record ap_turns "$D" "${turns[1]}"
			record client_turns "$D" "${turns[2]}"
			record client_install "$D" "${turns[3]}"
		fi
		wifi_step "$D: association -> keys $(ms_between "$assoc" "$keys") ms"
	done
}

measure_clients() {
	local i
	record_memory 1
	for ((i = 2; i <= CLIENTS; i++)); do client_start "$i"; done
	for ((i = 2; i <= CLIENTS; i++)); do
		until_within "$TIMEOUT" client_connected "$i" 0 || miss "client $i did not connect" || return
	done
	record_memory 8
	wifi_step "$D: $CLIENTS clients connected"
}

measure_daemon() {
	"${D}_up" || return
	[[ $D == hostapd ]] || record_memory _idle
	"${D}_ap" || return
	measure_start || return
	measure_keys || return
	measure_clients
}

# measure_floor FLOOR NAME: a floor program after one PBKDF2 + HMAC,
# measured by bench/footprint's probe on a bus of its own (as
# bench/wifi-connect does): floor (joind's stack) or floor-ell (iwd's).
measure_floor() {
	local addr bus out
	read -r addr bus < <(dbus-daemon --session --fork --print-address=1 --print-pid=1 |
		paste -sd' ')
	out=$(DBUS_SESSION_BUS_ADDRESS=$addr "$BUILD/bench/footprint/probe" --name "$2" \
		--libs -- "$BUILD/bench/footprint/$1" "$2" --crypto) || wifi_fail "$1: the probe failed"
	kill "$bus"
	awk '$1 == "lib" { printf "%7d %s\n", $3, $2 }' <<<"$out" | sort -rn >"$WORK/memory-$1.txt"
	record rss_idle "$1" "$(awk '$1 == "vmrss_kib" { print $2 }' <<<"$out")"
	record anon_idle "$1" "$(awk '$1 == "rssanon_kib" { print $2 }' <<<"$out")"
}

# ---- the run ---------------------------------------------------------------------------

wifi_step "guest up after ${JOIND_VM_BOOT_SECONDS:-?} s of boot; $ROUNDS rounds; daemons: ${DAEMONS[*]}"
PASS=bench-ap-passphrase
wifi_load_hwsim $((CLIENTS + 1))
AP_PHY=$(basename "$(readlink -f /sys/class/net/wlan0/phy80211)")
wifi_start_bus
bench_guest_joind
client_conf >"$WORK/client.conf"
watch_start
for D in "${DAEMONS[@]}"; do
	measure_daemon || true
	daemon_stop
	wifi_step "$D done"
done
measure_floor floor net.joind.Floor
measure_floor floor-ell net.joind.FloorEll
kill "$WATCH_PID" 2>/dev/null || true

# shellcheck source=SCRIPTDIR/table.sh
source "$JOIND_SOURCE_ROOT/bench/ap/table.sh"
print_ap_table | tee "$LOGDIR/results.txt"
cp "$WORK"/*.log "$WORK"/*.txt "$LOGDIR/" 2>/dev/null || true
wifi_step "done"
