#!/bin/bash
# bench/scan/run.sh - what processing scan results costs joind, beside iwd.
#
# Run from the build directory (it boots the test VM itself):
#     ../bench/scan/run.sh [ROUNDS]
#
# In the VM, hostapd runs 1, 10 and 120 open BSSes on one mac80211_hwsim
# radio (channel 6). joind (wifi plugin, periodic scans off) owns a second
# radio and Debian's iwd a third (periodic scans off too). For each size,
# each daemon first scans once (the networks are new: objects are created,
# signals sent), then ROUNDS more times (default 5); the CPU time of the
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
	exec "$src/tests/vm/run-in-vm.sh" -t 1500 -m 1536 \
		-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" -- "$here/run.sh" "$@"
fi

ROUNDS=${1:-5}
SIZES=(1 10 120)
export BUILD=$JOIND_BUILD_ROOT
export LOGDIR=$BUILD/meson-logs/bench-scan
export WORK=/tmp/joind-bench
export JOIND_ARGS="" # no debug logging: iwd runs without it too
rm -rf "$LOGDIR"
source "$JOIND_SOURCE_ROOT/tests/wifi/lib.sh"

# CPU nanoseconds of every thread of a process.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%d\n", s }'
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
/usr/libexec/iwd -p "$phy2" >"$LOGDIR/iwd.log" 2>&1 &
IWD_PID=$!
# iwd's station object: /net/connman/iwd/<wiphy>/<ifindex>.
iwd_station_path() {
	local p
	for p in $(busctl --system tree net.connman.iwd --list 2>/dev/null |
		grep -E '^/net/connman/iwd/[0-9]+/[0-9]+$'); do
		busctl --system introspect net.connman.iwd "$p" 2>/dev/null |
			grep -q '^net.connman.iwd.Station ' && { echo "$p"; return 0; }
	done
	return 1
}
wifi_poll 60 "iwd station on wlan2" iwd_station_path
IDEV=$(iwd_station_path)
iwd_prop() {
	busctl --system get-property net.connman.iwd "$IDEV" net.connman.iwd.Station "$1"
}
wifi_poll 60 "iwd's first scan to end" bash -c "[[ \$(busctl --system get-property \
	net.connman.iwd $IDEV net.connman.iwd.Station Scanning) == 'b false' ]]"

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
	busctl --system call net.connman.iwd "$IDEV" net.connman.iwd.Station Scan
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
	busctl --system call net.connman.iwd "$IDEV" net.connman.iwd.Station \
		GetOrderedNetworks | awk '{ print $2 }'
}

# measure NAME PID SCANFUNC: prints "first_ms steady_ms"
measure() {
	local pid=$2 fn=$3 a b first total=0
	a=$(cpu_ns "$pid")
	$fn
	b=$(cpu_ns "$pid")
	first=$((b - a))
	for ((r = 0; r < ROUNDS; r++)); do
		a=$(cpu_ns "$pid")
		$fn
		b=$(cpu_ns "$pid")
		total=$((total + b - a))
	done
	awk -v f="$first" -v t="$total" -v r="$ROUNDS" 'BEGIN { printf "%.2f %.2f", f / 1e6, t / r / 1e6 }'
}

results=()
for n in "${SIZES[@]}"; do
	start_aps "$n"
	wifi_step "hostapd: $n BSSes on channel 6"
	read -r jf js <<<"$(measure joind "$JOIND_PID" joind_scan)"
	jn=$(joind_networks)
	jr=$(rss_kib "$JOIND_PID")
	read -r if is <<<"$(measure iwd "$IWD_PID" iwd_scan)"
	in=$(iwd_networks)
	ir=$(rss_kib "$IWD_PID")
	results+=("$(printf '%5d  %5s %5s  %8s %8s  %9s %9s  %7s %7s' "$n" "$jn" "$in" \
		"$jf" "$if" "$js" "$is" "$jr" "$ir")")
	wifi_step "$n BSSes: joind ${js} ms/scan, iwd ${is} ms/scan"
done

echo
echo "Scan result processing, CPU time of the daemon process per full scan (ms)"
echo "(first = networks new to the daemon; steady = mean of $ROUNDS more scans), RSS in KiB"
echo " BSSes  seen by        first scan          steady scan          RSS"
echo "        joind  iwd    joind      iwd     joind       iwd      joind    iwd"
printf '%s\n' "${results[@]}"
kill "$IWD_PID" 2>/dev/null || true
wifi_stop_joind
