#!/bin/bash
# bench/roam/guest.sh - the VM side of bench/roam/run.sh (which boots the
# VM and runs this; do not run it on a host).
#
# Radios: wlan0 (channel 1) and wlan1 (channel 11) are two hostapd access
# points of one network, row by row (rows.sh: WPA2-PSK, EAP-TLS against
# FreeRADIUS with PMKSA, FT-PSK over the air and over the DS, FT-SAE,
# FT-802.1X), each in a bridge of its own (br-ft1, br-ft2: ft-lib.sh's RRB
# path), br-ft1 with one end of a veth pair whose other end is in the
# namespace "behind", holding 10.77.9.1: the host behind both access
# points. wlan2 is the station
# (10.77.9.2), driven by one daemon at a time: joind, Debian's iwd, Debian's
# wpa_supplicant, each with its defaults and no debug logging (iwd:
# EnableNetworkConfiguration=false; wpa_supplicant: -u, p2p_disabled=1 and
# NetworkManager's bgscan, see rows.sh). All three roam at -70 dBm (joind's
# and iwd's RoamThreshold default, bgscan's threshold).
#
# Per row and daemon: the daemon starts with the network known and
# connects on its own (the time to the first AP-STA-CONNECTED is recorded,
# a fresh connect to compare a roam with); on the 802.1X row a first roam
# to the other access point runs full EAP and is recorded apart, so that
# every measured roam has a PMKSA at its target. Then ROUNDS roams, back
# and forth: the access point in use steps from its normal signal to -80
# dBm as the station hears it (its radio's hwsim rx_rssi to -100; the
# sender's 20 dBm are added), the station roams to the other one, the
# step is undone. Every figure comes from the same sources for the three
# daemons, none from the daemons:
#   detection  the step (the write to rx_rssi, $EPOCHREALTIME) -> the first
#              scan the kernel starts on wlan2 afterwards (`iw event -t`:
#              nl80211's TRIGGER_SCAN event), which is where each daemon's
#              search begins (joind and iwd ask the access point for a
#              neighbour report first: inside this figure);
#              Split in two: the kernel's part (the step -> mac80211's CQM
#              "RSSI went below threshold" event, the beacons' average
#              crossing the threshold each daemon set) and the daemon's
#              (that event -> the scan);
#   search     that scan -> the target access point authenticates the
#              station (hostapd -t, logger level 0: "authentication OK");
#   roam time  the target's "authentication OK" -> its AP-STA-CONNECTED
#              (the port authorised: after message 4 of the 4-way handshake,
#              or at the FT reassociation, when the station has its keys
#              installed as well);
#   total      the step -> AP-STA-CONNECTED;
#   data gap   the longest interval between two replies to the pings that
#              run every 10 ms from the station to 10.77.9.1 all along
#              (ping -D stamps each reply), within the step - 0.5 s ..
#              AP-STA-CONNECTED + 1.5 s;
#   EAP        (802.1X) the Access-Requests FreeRADIUS received during the
#              roam: 0 when the PMKSA was used.
# joind's own account of each roam (its log line "roamed A -> B (...; N
# ms)", from the move's start to the port's opening) is listed beside the
# table. In the last round of the WPA2-PSK row, once roamed, IDLE seconds of
# idle: voluntary context switches of every thread (bench/common/idle.sh,
# as bench/wifi-connect counts them).
# A roam that does not happen within TIMEOUT seconds gives the daemon up
# for that row (printed under the table); the run goes on.
set -euo pipefail

BENCH_NAME=roam
# shellcheck source=SCRIPTDIR/../common/vm-guest.sh
source "$JOIND_SOURCE_ROOT/bench/common/vm-guest.sh"
ROUNDS=${BENCH_ROUNDS:-3}
IDLE=${BENCH_IDLE:-30}
TIMEOUT=60
mkdir -p "$WORK/state" /etc/iwd /var/lib/iwd
# shellcheck source=SCRIPTDIR/../common/idle.sh
source "$JOIND_SOURCE_ROOT/bench/common/idle.sh"
# shellcheck source=SCRIPTDIR/rows.sh
source "$JOIND_SOURCE_ROOT/bench/roam/rows.sh"
ALL_DAEMONS=(joind iwd wpa_supplicant)
DAEMONS=() ROWS=()
for w in ${BENCH_ONLY//,/ }; do
	case $w in
	joind | iwd | wpa_supplicant) DAEMONS+=("$w") ;;
	psk | tls | ft | ftds | ftsae | ft8021x) ROWS+=("$w") ;;
	*) wifi_fail "BENCH_ONLY: $w is neither a row nor a daemon" ;;
	esac
done
((${#DAEMONS[@]})) || DAEMONS=("${ALL_DAEMONS[@]}")
((${#ROWS[@]})) || ROWS=("${ALL_ROWS[@]}")

# VALS[ROW:METRIC,DAEMON]: the figures; NS: why a figure was not there;
# SKIP[ROW,DAEMON]: why a daemon was given up on a row; FAILED: the same,
# kept for the notes (table.sh's names).
declare -A VALS NS SKIP FAILED
PING_PID='' EVENTS_PID='' LINKS_PID=''
record() { VALS[$ROW:$1,$2]+="$3 "; }
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
miss() {
	SKIP[$ROW,$D]=$1
	FAILED[$ROW,$D]+="$1; "
	wifi_step "$D: $ROW: given up: $1"
	return 1
}

# ---- the scene -------------------------------------------------------------------

rssi_file() { echo "/sys/kernel/debug/ieee80211/$(cat "/sys/class/net/wlan$1/phy80211/name")/hwsim/rx_rssi"; }
ap_log() { echo "$WORK/hostapd-$1.log"; }
ap_cli() { hostapd_cli -p "$AP_CTRL" -i "wlan$1" "${@:2}"; }

# The host behind both access points, on the first one's bridge; the
# bridges of the two are joined (ft-lib.sh's RRB path).
scene_setup() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	ft_rrb_up
	ip netns add behind
	ip link add vb0 type veth peer name vb1
	ip link set vb1 netns behind
	ip link set vb0 master br-ft1 up
	ip -n behind link set lo up
	ip -n behind addr add 10.77.9.1/24 dev vb1
	ip -n behind link set vb1 up
	RSSI_SAVED=("$(cat "$(rssi_file 0)")" "$(cat "$(rssi_file 1)")")
}

# Both access points of ROW up, each naming the other as its neighbour.
# Over the DS no frame reaches the target before the reassociation: the
# FT Request's arrival at the access point left is in hostapd's debug
# output only (-d, that row alone).
# A row whose access points do not come up is given up for every daemon
# (printed under the table); the run goes on.
aps_start() {
	local n other bssid nr debug=() end=$((EPOCHSECONDS + 30))
	[[ $ROW != ftds ]] || debug=(-d)
	for n in 0 1; do
		hostapd -B -t "${debug[@]}" -P "$WORK/hostapd-$n.pid" -f "$(ap_log $n)" "$WORK/hostapd-$n.conf" ||
			{ row_lost "hostapd $n did not start"; return 1; }
	done
	for n in 0 1; do
		until grep -q AP-ENABLED "$(ap_log $n)"; do
			((EPOCHSECONDS < end)) || { row_lost "hostapd $n not beaconing within 30 s"; return 1; }
			sleep 0.2
		done
	done
	for n in 0 1; do
		other=$((1 - n))
		bssid=$(cat /sys/class/net/wlan$other/address)
		# BSSID, BSSID information 0x8f (reachable, security, key scope,
		# capabilities), operating class 81, channel, PHY type 7.
		nr=$(printf '%s8f000000%02x%02x07' "${bssid//:/}" 81 $((1 + 10 * other)))
		ap_cli "$n" set_neighbor "$bssid" "ssid=\"$SSID\"" "nr=$nr" | grep -qx OK ||
			{ row_lost "hostapd $n: set_neighbor"; return 1; }
	done
}
row_lost() {
	local d
	for d in "${DAEMONS[@]}"; do FAILED[$ROW,$d]+="$1; "; done
	wifi_step "$ROW: given up: $1"
}

aps_stop() {
	local n pid
	for n in 0 1; do
		pid=$(cat "$WORK/hostapd-$n.pid" 2>/dev/null) || continue
		rm -f "$WORK/hostapd-$n.pid"
		kill "$pid" 2>/dev/null || true
		while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
		cat "$(ap_log $n)" >>"$LOGDIR/hostapd-$ROW-$n.log" 2>/dev/null || true
		rm -f "$(ap_log $n)"
	done
}

# connected_count N: the AP-STA-CONNECTED lines of access point N for the
# station so far.
connected_count() { grep -c "AP-STA-CONNECTED $STA" "$(ap_log "$1")" || true; }
radius_requests() { grep -c 'Received Access-Request' "$RADIUS_LOG" 2>/dev/null || true; }

# ---- the daemons -----------------------------------------------------------------

joind_start() {
	local plugins=wifi args=()
	! row_uses_radius "$ROW" || plugins='wifi,eap-*'
	[[ -z ${BENCH_JOIND_DEBUG-} ]] || args=(--debug)
	G_SLICE=always-malloc "$JOIND_BIN" "${args[@]}" --plugin-dir "$JOIND_PLUGINS" --plugins "$plugins" \
		--config "$WORK/main.conf" --state-dir "$WORK/state" >>"$JOIND_LOG" 2>&1 &
	PID=$!
}
iwd_start() {
	/usr/libexec/iwd -p "$STA_PHY" -i wlan2 >>"$WORK/iwd.log" 2>&1 &
	PID=$!
}
wpa_supplicant_start() {
	wpa_supplicant -u -t -D nl80211 -i wlan2 -c "$WORK/wpa_supplicant.conf" \
		-f "$WORK/wpa_supplicant.log" &
	PID=$!
}
daemon_stop() {
	kill "$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
	kill "$PING_PID" "$EVENTS_PID" "$LINKS_PID" 2>/dev/null || true
	wait "$PING_PID" "$EVENTS_PID" "$LINKS_PID" 2>/dev/null || true
	PING_PID='' EVENTS_PID='' LINKS_PID=''
	[[ -e /sys/class/net/wlan2 ]] ||
		iw phy "$STA_PHY" interface add wlan2 type managed || wifi_fail "cannot re-create wlan2"
}

# on_ap N: the station connected through access point N, since C0[N].
on_ap() { (($(connected_count "$1") > C0[$1])); }
# The station's first connection after the start: CUR (its access point),
# the kernel's events and the pings running from then on.
daemon_connect() {
	local t0 n end=$((EPOCHSECONDS + TIMEOUT))
	C0=("$(connected_count 0)" "$(connected_count 1)")
	iw event -t >"$WORK/events-$ROW-$D.txt" 2>&1 &
	EVENTS_PID=$!
	# The link's and the neighbours' changes beside them, for reading where
	# a data gap goes (not a figure).
	ip -ts monitor link neigh >"$WORK/links-$ROW-$D.txt" 2>&1 &
	LINKS_PID=$!
	t0=$EPOCHREALTIME
	"${D}_start"
	until on_ap 0 || on_ap 1; do
		((EPOCHSECONDS < end)) || { miss "not connected within $TIMEOUT s of the start"; return; }
		sleep 0.2
	done
	CUR=0
	on_ap 0 || CUR=1
	record connect "$D" "$(ms_between "$t0" "$(stamp_of "$CUR" "AP-STA-CONNECTED $STA" "${C0[$CUR]}")")"
	ip addr replace 10.77.9.2/24 dev wlan2
	ping -n -D -i 0.01 -W 1 10.77.9.1 >"$WORK/ping-$ROW-$D.txt" 2>&1 &
	PING_PID=$!
	end=$((EPOCHSECONDS + 20))
	until grep -q 'bytes from' "$WORK/ping-$ROW-$D.txt"; do
		((EPOCHSECONDS < end)) || { miss "no answer from 10.77.9.1 within 20 s"; return; }
		sleep 0.2
	done
}

# stamp_of N TEXT SKIP: hostapd N's own time of its (SKIP+1)th line
# holding TEXT.
stamp_of() {
	grep -F "$2" "$(ap_log "$1")" | sed -n "$(($3 + 1))p" | cut -d: -f1
}

# ---- one roam --------------------------------------------------------------------

# gap_ms FROM TO: the longest interval between ping replies stamped in
# FROM..TO (epoch seconds), counted from FROM and to TO as well.
gap_ms() {
	awk -v a="$1" -v b="$2" '/bytes from/ { t = substr($1, 2, length($1) - 2) + 0
			if (t < a || t > b) next
			if (last == "") last = a
			if (t - last > g) g = t - last
			last = t }
		END { if (last == "") last = a; if (b - last > g) g = b - last; printf "%.0f", g * 1000 }' \
		"$WORK/ping-$ROW-$D.txt"
}

# first_event_after T EVENT: the kernel's time of the first EVENT (text
# of `iw event`) on wlan2 after T.
first_event_after() {
	awk -v t="$1" -v e="$2" 'index($0, "wlan2") && index($0, e) {
			s = $1; sub(":$", "", s); if (s + 0 >= t) { print s; exit } }' \
		"$WORK/events-$ROW-$D.txt"
}

# roam [LABEL]: from CUR to the other access point; the figures recorded
# under LABEL's names (default: the row's own), CUR swapped.
roam() {
	local p=${1-} to=$((1 - CUR)) c0 e0 t_step t_auth t_keys t_scan t_cqm end=$((EPOCHSECONDS + TIMEOUT))
	c0=$(connected_count $to)
	local a0 d0 auth_ok="STA $STA IEEE 802.11: authentication OK" ft_req="FT: Received FT Action frame (STA=$STA"
	a0=$(grep -cF "$auth_ok" "$(ap_log $to)" || true)
	d0=$(grep -cF "$ft_req" "$(ap_log "$CUR")" || true)
	e0=$(radius_requests)
	C0[to]=$c0
	t_step=$EPOCHREALTIME
	printf '%u' -100 >"$(rssi_file "$CUR")"
	until on_ap $to; do
		((EPOCHSECONDS < end)) || {
			printf '%u' "${RSSI_SAVED[$CUR]}" >"$(rssi_file "$CUR")"
			miss "no roam to wlan$to within $TIMEOUT s of the step"
			return
		}
		sleep 0.2
	done
	t_keys=$(stamp_of $to "AP-STA-CONNECTED $STA" "$c0")
	t_auth=$(stamp_of $to "$auth_ok" "$a0")
	# Over the DS: from the FT Request at the access point left, where
	# the roam began (a daemon that went over the air has the target's
	# authentication instead, and is counted apart).
	if [[ $ROW == ftds ]]; then
		local t_req
		t_req=$(stamp_of "$CUR" "$ft_req" "$d0")
		if [[ -n $t_req ]]; then
			record "${p}overds" "$D" 1
			t_auth=$t_req
		else
			record "${p}overds" "$D" 0
		fi
	fi
	sleep 2
	printf '%u' "${RSSI_SAVED[$CUR]}" >"$(rssi_file "$CUR")"
	t_scan=$(first_event_after "$t_step" "scan started")
	t_cqm=$(first_event_after "$t_step" "went below threshold")
	record "${p}total" "$D" "$(ms_between "$t_step" "$t_keys")"
	record "${p}roam" "$D" "$(ms_between "$t_auth" "$t_keys")"
	if [[ -n $t_scan ]] && awk -v s="$t_scan" -v a="$t_auth" 'BEGIN { exit !(s <= a) }'; then
		record "${p}detect" "$D" "$(ms_between "$t_step" "$t_scan")"
		record "${p}search" "$D" "$(ms_between "$t_scan" "$t_auth")"
		[[ -z $t_cqm ]] || record "${p}cqm" "$D" "$(ms_between "$t_step" "$t_cqm")"
		[[ -z $t_cqm ]] || record "${p}react" "$D" "$(ms_between "$t_cqm" "$t_scan")"
	else
		NS[$ROW:${p}detect,$D]="no scan before the authentication"
	fi
	record "${p}gap" "$D" "$(gap_ms "$(awk -v t="$t_step" 'BEGIN { printf "%.6f", t - 0.5 }')" \
		"$(awk -v t="$t_keys" 'BEGIN { printf "%.6f", t + 1.5 }')")"
	! row_uses_radius "$ROW" || record "${p}eap" "$D" $(($(radius_requests) - e0))
	wifi_step "$D: $ROW: roamed wlan$CUR -> wlan$to: step -> keys $(ms_between "$t_step" "$t_keys") ms"
	CUR=$to
	# The old access point heard at its normal level again before the next
	# step (a scan hears it directly; mac80211's average needs beacons).
	sleep 1
}

measure_idle() {
	local wakeups run gone
	kill "$PING_PID"
	wait "$PING_PID" 2>/dev/null || true
	PING_PID=
	sleep 2
	thread_counts "$PID" >"$WORK/threads-before"
	sleep "$IDLE"
	thread_counts "$PID" >"$WORK/threads-after"
	read -r wakeups run gone < <(idle_deltas "$WORK/threads-before" "$WORK/threads-after")
	record sched_idle "$D" "$run"
	record wakeups "$D" "$wakeups"
	[[ $gone == - ]] || wifi_step "$D: threads ended while idle: ${gone%,}"
}

# One daemon on ROW: connect, the 802.1X warm-up roam, ROUNDS roams, idle.
measure_daemon() {
	local r
	daemon_connect || return
	[[ $ROW != tls ]] || roam first_ || return
	for ((r = 1; r <= ROUNDS; r++)); do
		roam || return
	done
	[[ $ROW != psk ]] || measure_idle
}

# ---- set up ----------------------------------------------------------------------

wifi_step "guest up after ${JOIND_VM_BOOT_SECONDS:-?} s of boot; $ROUNDS roams per row and daemon," \
	"${IDLE} s idle; rows: ${ROWS[*]}; daemons: ${DAEMONS[*]}"
wifi_load_hwsim 3
STA_PHY=$(basename "$(readlink -f /sys/class/net/wlan2/phy80211)")
STA=$(cat /sys/class/net/wlan2/address)
wifi_start_bus
modprobe pkcs8_key_parser 2>/dev/null || true
scene_setup
cp -r "$BUILD/bench-roam-pki" "$PKI"
bench_guest_joind
printf '[General]\nInterfaces=wlan2\n' >"$WORK/main.conf"
printf '[General]\nEnableNetworkConfiguration=false\nUseDefaultInterface=true\n[DriverQuirks]\nDefaultInterface=*\n' \
	>/etc/iwd/main.conf

# FreeRADIUS for the 802.1X row: tests/wifi/eap-radius.sh's, in this
# namespace, on the bench's PKI.
ent_ns() { "$@"; }
ENT_PKI=$PKI
# shellcheck source=SCRIPTDIR/../../tests/wifi/eap-radius.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-radius.sh"

for ROW in "${ROWS[@]}"; do
	roam_row_setup "$ROW"
	! row_uses_radius "$ROW" || radius_start
	if ! aps_start; then
		aps_stop
		! row_uses_radius "$ROW" || radius_stop
		continue
	fi
	wifi_step "$SSID (${ROW_TITLE[$ROW]}) on wlan0 (channel 1) and wlan1 (channel 11)"
	for D in "${DAEMONS[@]}"; do
		measure_daemon || true
		daemon_stop
		wifi_step "$ROW: $D done"
	done
	aps_stop
	! row_uses_radius "$ROW" || radius_stop
done
for n in 0 1; do printf '%u' "${RSSI_SAVED[$n]}" >"$(rssi_file $n)"; done

# shellcheck source=SCRIPTDIR/table.sh
source "$JOIND_SOURCE_ROOT/bench/roam/table.sh"
print_roam_table | tee "$LOGDIR/results.txt"
cp "$WORK"/*.log "$WORK"/*.txt "$LOGDIR/" 2>/dev/null || true
wifi_step "done"
