#!/bin/bash
# bench/scan/run.sh - what processing scan results costs joind, beside iwd.
#
# Run from the build directory (it boots the test VM itself):
#     [BEFORE=OTHER-BUILD-DIR] [SIZES="1 10 120 500"] [PERF=1] ../bench/scan/run.sh [ROUNDS]
#
# In the VM, hostapd runs 1, 10, 120 and 500 open BSSes (SIZES) on one
# mac80211_hwsim radio (channel 6; hwsim carries any number of AP
# interfaces per radio, hostapd one bss= section each). joind (wifi plugin,
# periodic scans off) owns a second radio and Debian's iwd a third
# (periodic scans off too). BEFORE adds another build's joind on a fourth
# radio, on a bus of its own (a second dbus-daemon, joind --session: two
# joinds cannot both own net.joind), measured in the same rounds, so that a
# change's before and after come from one run. For each size, each daemon
# scans until it lists every network (they are new to it: objects are
# created, signals sent), then ROUNDS more times (default 8, alternating
# between the daemons); the CPU time of the
# daemon's process (every thread, from /proc/PID/task/*/schedstat, in
# nanoseconds) is measured around each. Both daemons do the same full
# active scan of every channel; the kernel's work on the radio is not in
# either figure, only the daemon's own: events, reading and parsing the
# results, networks, D-Bus. RSS is VmRSS after the rounds. PERF=1 samples
# each daemon with perf (cpu-clock; the figures are then not comparable
# with a run without it) and leaves perf-DAEMON.txt, its profile by
# symbol, beside the results.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
if [[ -z ${JOIND_VM-} ]]; then
	[[ -x core/joind && -d plugins ]] || { echo "run from the build directory" >&2; exit 2; }
	before=()
	if [[ -n ${BEFORE-} ]]; then
		BEFORE=$(realpath -e -- "$BEFORE")
		[[ -x $BEFORE/core/joind ]] || { echo "BEFORE: no core/joind in $BEFORE" >&2; exit 2; }
		before=(-s "$BEFORE" -e "JOIND_BEFORE_ROOT=$BEFORE")
	fi
	"$src/tests/vm/run-in-vm.sh" -t 2400 -m 2048 -s "$src" "${before[@]}" \
		-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" \
		-e "SIZES=${SIZES:-1 10 120 500}" -e "PERF=${PERF-}" -- "$here/run.sh" "$@" >&2
	cat meson-logs/bench-scan/results.txt
	exit 0
fi

ROUNDS=${1:-8}
read -r -a SIZES <<<"${SIZES:-1 10 120 500}"
export BUILD=$JOIND_BUILD_ROOT
export LOGDIR=$BUILD/meson-logs/bench-scan
export WORK=/tmp/joind-bench
export JOIND_ARGS="" # no debug logging: iwd runs without it too
export G_SLICE=always-malloc # as joind.service runs it (iwd does not use GLib)
rm -rf "$LOGDIR"
source "$JOIND_SOURCE_ROOT/tests/wifi/lib.sh"
# Daemon logs on the guest's tmpfs (a write to the 9p share is a round trip
# to the host, billed to the writer), copied out at the end; TZ set so that
# timestamping a log line does not stat /etc/localtime over 9p either.
JOIND_LOG=$WORK/joind.log
export TZ=UTC

# CPU nanoseconds of every thread of a process.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f\n", s }'
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# Every interface of hostapd's is beaconing: as many AP interfaces with an
# SSID in one `iw dev` as BSSes (lib.sh's check runs `iw` once per
# interface, which takes minutes for 500 of them under emulation).
aps_enabled() {
	(($(iw dev | awk '/^[[:space:]]*Interface/ { n += s && a; s = a = 0 }
		/^[[:space:]]*ssid/ { s = 1 } /^[[:space:]]*type AP/ { a = 1 }
		END { print n + (s && a) }') >= $1))
}

start_aps() {
	local n=$1 conf=$WORK/hostapd-bench.conf
	wifi_stop_hostapd bench
	{
		printf 'ctrl_interface=/run/hostapd-bench\n'
		printf 'interface=wlan0\ndriver=nl80211\nhw_mode=g\nchannel=6\nssid=bench-000\n'
		for ((i = 1; i < n; i++)); do
			printf '\nbss=wlan0-%d\nbssid=02:00:00:00:%02x:%02x\nssid=bench-%03d\n' \
				"$i" $((i / 256 + 0xc0)) $((i % 256)) "$i"
		done
	} >"$conf"
	# A socket or two per BSS: 500 of them need more than 1024 descriptors.
	ulimit -n 65536
	hostapd -B -P "$WORK/hostapd-bench.pid" -f "$LOGDIR/hostapd-bench.log" "$conf" ||
		wifi_fail "hostapd did not start"
	wifi_poll $((30 + n)) "hostapd: $n BSSes beaconing" aps_enabled "$n"
}

# ---- the daemons --------------------------------------------------------------
wifi_load_hwsim 4
wifi_start_bus
wifi_start_joind <<EOF
[General]
Interfaces=wlan1
[Scan]
DisablePeriodicScan=true
EOF
JDEV=$(wifi_device_path wlan1)

mkdir -p /etc/iwd /var/lib/iwd
cat >/etc/iwd/main.conf <<EOF
[General]
EnableNetworkConfiguration=false
[Scan]
DisablePeriodicScan=true
[DriverQuirks]
DefaultInterface=*
EOF
phy2=$(basename "$(readlink -f /sys/class/net/wlan2/phy80211)")
/usr/libexec/iwd -p "$phy2" >"$WORK/iwd.log" 2>&1 &
IWD_PID=$!
# iwd's station object: /net/connman/iwd/<wiphy>/<ifindex>.
iwd_call() {
	gdbus call --system --dest net.connman.iwd --object-path "$1" --method "$2" "${@:3}"
}
iwd_station_path() {
	local p
	for p in $(iwd_call / org.freedesktop.DBus.ObjectManager.GetManagedObjects 2>/dev/null |
		grep -oE "'/net/connman/iwd/[0-9]+/[0-9]+'" | tr -d "'"); do
		gdbus introspect --system --dest net.connman.iwd --object-path "$p" |
			grep -q 'interface net.connman.iwd.Station ' && { echo "$p"; return 0; }
	done
	return 1
}
wifi_poll 300 "iwd station on wlan2" iwd_station_path
IDEV=$(iwd_station_path)
iwd_scanning() {
	iwd_call "$IDEV" org.freedesktop.DBus.Properties.Get net.connman.iwd.Station Scanning |
		grep -q true
}
iwd_idle() { ! iwd_scanning; }
wifi_poll 300 "iwd's first scan to end" iwd_idle

joind_scan() {
	jcall --object-path "$JDEV" --method net.joind.Station1.Scan >/dev/null
}
# iwd answers Scan() once the scan is triggered; it is over when Scanning
# drops, which a signal tells (polling would cost iwd CPU time).
iwd_scan() {
	local line mon fifo=$WORK/iwd-monitor
	rm -f "$fifo"
	mkfifo "$fifo"
	gdbus monitor --system --dest net.connman.iwd --object-path "$IDEV" >"$fifo" 2>&1 &
	mon=$!
	exec 5<"$fifo"
	read -r line <&5 # "Monitoring signals ...": subscribed
	iwd_call "$IDEV" net.connman.iwd.Station.Scan >/dev/null
	while read -r line <&5; do
		[[ $line == *"'Scanning': <false>"* ]] && break
	done
	kill "$mon"
	exec 5<&-
}
joind_networks() {
	jcall --object-path "$JDEV" --method net.joind.Station1.GetOrderedNetworks |
		grep -o "'/net/joind" | wc -l
}
iwd_networks() {
	iwd_call "$IDEV" net.connman.iwd.Station.GetOrderedNetworks | grep -o "'/net/connman" | wc -l
}

# The joind of BEFORE= on wlan3, on a bus of its own.
DAEMONS=(joind iwd)
declare -A PIDS=([joind]=$JOIND_PID [iwd]=$IWD_PID) LOGS=([joind]=$JOIND_LOG)
if [[ -n ${JOIND_BEFORE_ROOT-} ]]; then
	BEFORE_BUS=unix:path=/run/joind-before-bus
	dbus-daemon --session --fork --nopidfile --address="$BEFORE_BUS" ||
		wifi_fail "the before joind's bus"
	mkdir -p "$WORK/before-state"
	printf '[General]\nInterfaces=wlan3\n[Scan]\nDisablePeriodicScan=true\n' >"$WORK/before.conf"
	DBUS_SESSION_BUS_ADDRESS=$BEFORE_BUS "$JOIND_BEFORE_ROOT/core/joind" --session \
		--plugin-dir "$JOIND_BEFORE_ROOT/plugins" --plugins "wifi,eap-*" \
		--config "$WORK/before.conf" --state-dir "$WORK/before-state" >"$WORK/before.log" 2>&1 &
	BEFORE_PID=$!
	bcall() { gdbus call --address "$BEFORE_BUS" --dest net.joind "$@"; }
	BDEV=/net/joind/device/$(cat /sys/class/net/wlan3/ifindex)
	before_networks() {
		bcall --object-path "$BDEV" --method net.joind.Station1.GetOrderedNetworks |
			grep -o "'/net/joind" | wc -l
	}
	before_ready() {
		bcall --object-path "$BDEV" --method org.freedesktop.DBus.Properties.Get \
			net.joind.Station1 State
	}
	wifi_poll 300 "the before joind's station" before_ready
	before_scan() {
		bcall --object-path "$BDEV" --method net.joind.Station1.Scan >/dev/null
	}
	DAEMONS+=(before)
	PIDS[before]=$BEFORE_PID
	LOGS[before]=$WORK/before.log
fi

# PERF=1: each daemon sampled from here to the end, at the same rate.
declare -A PERF_PIDS=()
if [[ -n ${PERF-} ]]; then
	for d in "${DAEMONS[@]}"; do
		perf record -q -e cpu-clock -F 1000 -g -p "${PIDS[$d]}" -o "$WORK/perf-$d.data" \
			2>"$WORK/perf-$d.log" &
		PERF_PIDS[$d]=$!
	done
fi

# CPU nanoseconds a scan cost the daemon with PID, running SCANFUNC.
scan_cost() {
	local a b
	a=$(cpu_ns "$1")
	$2
	b=$(cpu_ns "$1")
	echo $((b - a))
}
# median and mean of numbers (ns) on stdin, in ms
stats() {
	sort -n | awk '{ v[NR] = $1; s += $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.1f %.1f", m / 1e6, s / NR / 1e6 }'
}

# Scans until the daemon lists all N networks (at most 5): what it costs to
# learn them. Prints "milliseconds/scans". The count is read between scans,
# outside the measured windows.
warm_up() {
	local pid=$1 scan=$2 count=$3 n=$4 total=0 k=0
	while ((k < 5)); do
		total=$((total + $(scan_cost "$pid" "$scan")))
		k=$((k + 1))
		(($($count) >= n)) && break
	done
	echo "$((total / 1000000))/$k"
}

# Networks a joind dropped (all its BSSes missed by two of its scans in a
# row) after line FROM of its log LOG: each comes back as a new object when
# it is seen again, so this counts the objects re-created. "-" for iwd.
gone_since() {
	[[ -n $1 ]] || { echo -; return; }
	tail -n +"$(($2 + 1))" "$1" | sed -n 's/.* networks (.* new, \([0-9]*\) gone)$/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}

# Scans of the daemons alternate, so that the host's load (this is an
# emulated VM on shared cores) falls on all alike; medians resist spikes.
# Prints one line per daemon: name, learn, median, mean, networks gone
# during the steady rounds.
measure() {
	local n=$1 d r
	declare -A first costs lines
	for d in "${DAEMONS[@]}"; do
		first[$d]=$(warm_up "${PIDS[$d]}" "${d}_scan" "${d}_networks" "$n")
		lines[$d]=$(wc -l <"${LOGS[$d]:-/dev/null}")
	done
	for ((r = 0; r < ROUNDS; r++)); do
		for d in "${DAEMONS[@]}"; do
			costs[$d]+="$(scan_cost "${PIDS[$d]}" "${d}_scan") "
		done
	done
	for d in "${DAEMONS[@]}"; do
		# shellcheck disable=SC2086 # one number per word
		echo "$d ${first[$d]} $(printf '%s\n' ${costs[$d]} | stats)" \
			"$(gone_since "${LOGS[$d]-}" "${lines[$d]}")"
	done
}

# The table so far (rewritten after each size, so that a run cut short
# keeps what it measured).
print_table() {
	{
		echo "CPU time of the daemon process for full scans, ms. learn: the scans until it"
		echo "lists every network, new to it (ms/scans); then $ROUNDS scans each, alternating:"
		echo "median and mean per scan, and the median's ratio to iwd's. RSS in KiB afterwards."
		echo "gone: networks a joind dropped during the steady rounds (its BSSes missed by two"
		echo "of its scans in a row; iwd keeps what the kernel's cache still holds, 30 s), each"
		echo "re-created when seen again. before: the joind of BEFORE=, on a bus of its own."
		echo " BSSes  daemon   listed      learn   median    mean    gone      RSS  /iwd"
		printf '%s\n' "${results[@]}"
	} >"$LOGDIR/results.txt"
}

results=()
for n in "${SIZES[@]}"; do
	start_aps "$n"
	wifi_step "hostapd: $n BSSes on channel 6"
	iwd_med=""
	while read -r d learn med mean gone; do
		[[ $d == iwd ]] && iwd_med=$med
		results+=("$(printf '%6d  %-7s %7s  %9s  %7s %7s  %6s  %7s' "$n" "$d" \
			"$("${d}_networks")" "$learn" "$med" "$mean" "$gone" "$(rss_kib "${PIDS[$d]}")")")
		wifi_step "$n BSSes: $d median $med ms/scan"
	done < <(measure "$n")
	# The ratio to iwd's median, for each joind.
	for ((i = ${#results[@]} - ${#DAEMONS[@]}; i < ${#results[@]}; i++)); do
		read -r _ _ _ _ med _ <<<"${results[i]}"
		results[i]+=$(awk -v a="$med" -v b="$iwd_med" 'BEGIN { printf "  %5.2f", (b > 0 ? a / b : 0) }')
	done
	print_table
done
cat "$LOGDIR/results.txt"


for d in "${!PERF_PIDS[@]}"; do
	kill -INT "${PERF_PIDS[$d]}"
	wait "${PERF_PIDS[$d]}" || true
	perf report -i "$WORK/perf-$d.data" --stdio --no-children --sort dso,sym -g none \
		>"$LOGDIR/perf-$d.txt" 2>&1 || true
	perf report -i "$WORK/perf-$d.data" --stdio --children --sort sym -g none \
		>"$LOGDIR/perf-$d-children.txt" 2>&1 || true
done
kill "$IWD_PID" 2>/dev/null || true
[[ -z ${BEFORE_PID-} ]] || kill "$BEFORE_PID" 2>/dev/null || true
wifi_stop_joind
cp "$WORK/joind.log" "$WORK/iwd.log" "$LOGDIR/"
[[ -z ${BEFORE_PID-} ]] || cp "$WORK/before.log" "$LOGDIR/"
