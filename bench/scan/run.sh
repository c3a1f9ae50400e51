#!/bin/bash
# bench/scan/run.sh - what processing scan results costs joind, beside iwd.
#
# Run from the build directory (it boots the test VM itself):
#     ../bench/scan/run.sh [ROUNDS]
#
# In the VM, hostapd runs 1, 10 and 120 open BSSes on one mac80211_hwsim
# radio (channel 6). joind (wifi plugin, periodic scans off) owns a second
# radio and Debian's iwd a third (periodic scans off too). For each size,
# each daemon scans until it lists every network (they are new to it:
# objects are created, signals sent), then ROUNDS more times (default 8,
# alternating between the daemons); the CPU time of the
# daemon's process (every thread, from /proc/PID/task/*/schedstat, in
# nanoseconds) is measured around each. Both daemons do the same full
# active scan of every channel; the kernel's work on the radio is not in
# either figure, only the daemon's own: events, reading and parsing the
# results, networks, D-Bus. RSS is VmRSS after the rounds.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
if [[ -z ${JOIND_VM-} ]]; then
	[[ -x core/joind && -d plugins ]] || { echo "run from the build directory" >&2; exit 2; }
	"$src/tests/vm/run-in-vm.sh" -t 1500 -m 1536 -s "$src" \
		-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" -- "$here/run.sh" "$@" >&2
	cat meson-logs/bench-scan/results.txt
	exit 0
fi

ROUNDS=${1:-8}
SIZES=(1 10 120)
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

start_aps() {
	local n=$1
	wifi_stop_hostapd bench
	{
		printf 'interface=wlan0\ndriver=nl80211\nhw_mode=g\nchannel=6\nssid=bench-000\n'
		for ((i = 1; i < n; i++)); do
			printf '\nbss=wlan0-%d\nbssid=02:00:00:00:%02x:%02x\nssid=bench-%03d\n' \
				"$i" $((i / 256 + 0xc0)) $((i % 256)) "$i"
		done
	} | wifi_start_hostapd bench
}

# ---- the daemons --------------------------------------------------------------
wifi_load_hwsim 3
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
wifi_poll 60 "iwd station on wlan2" iwd_station_path
IDEV=$(iwd_station_path)
iwd_scanning() {
	iwd_call "$IDEV" org.freedesktop.DBus.Properties.Get net.connman.iwd.Station Scanning |
		grep -q true
}
iwd_idle() { ! iwd_scanning; }
wifi_poll 60 "iwd's first scan to end" iwd_idle

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

# Scans of the two daemons alternate, so that the host's load (this is an
# emulated VM on shared cores) falls on both alike; medians resist spikes.
measure() {
	local n=$1 jfirst ifirst js=() is=()
	jfirst=$(warm_up "$JOIND_PID" joind_scan joind_networks "$n")
	ifirst=$(warm_up "$IWD_PID" iwd_scan iwd_networks "$n")
	for ((r = 0; r < ROUNDS; r++)); do
		js+=("$(scan_cost "$JOIND_PID" joind_scan)")
		is+=("$(scan_cost "$IWD_PID" iwd_scan)")
	done
	echo "$jfirst $ifirst $(printf '%s\n' "${js[@]}" | stats)" \
		"$(printf '%s\n' "${is[@]}" | stats)"
}

results=()
for n in "${SIZES[@]}"; do
	start_aps "$n"
	wifi_step "hostapd: $n BSSes on channel 6"
	read -r jf if jmed jmean imed imean <<<"$(measure "$n")"
	jn=$(joind_networks)
	in=$(iwd_networks)
	jr=$(rss_kib "$JOIND_PID")
	ir=$(rss_kib "$IWD_PID")
	results+=("$(printf '%5d  %5s %5s  %7s %7s  %7s %7s  %7s %7s  %7s %7s' "$n" "$jn" "$in" \
		"$jf" "$if" "$jmed" "$imed" "$jmean" "$imean" "$jr" "$ir")")
	wifi_step "$n BSSes: median joind ${jmed} ms/scan, iwd ${imed} ms/scan"
done

{
	echo "CPU time of the daemon process for full scans, ms. learn: the scans until it"
	echo "lists every network, new to it (ms/scans); then $ROUNDS scans each, alternating:"
	echo "median and mean per scan. RSS in KiB afterwards."
	echo " BSSes  listed by        learn         steady median    steady mean       RSS"
	echo "        joind  iwd   joind     iwd   joind     iwd    joind     iwd   joind     iwd"
	printf '%s\n' "${results[@]}"
} | tee "$LOGDIR/results.txt"
kill "$IWD_PID" 2>/dev/null || true
wifi_stop_joind
cp "$WORK/joind.log" "$WORK/iwd.log" "$LOGDIR/"
