#!/bin/bash
# tests/system/run-cases.sh NAME... - runs inside the system suite's VM as
# a systemd service (guest-init.sh): loads two hwsim radios (wlan0 for the
# access points, wlan1 for joind), gives the packaged main.conf the line an
# admin would add so that joind leaves the access point's radio alone, then
# runs each case of cases/ in order, in a subshell, keeping its log and
# "STATUS SECONDS" in $JOIND_SYSTEM_OUT/cases/, and powers the VM off.
# The cases share the machine: later ones build on what earlier ones left
# (a running joind, a connection).
: "${JOIND_SOURCE_ROOT:?}" "${JOIND_SYSTEM_OUT:?}"
BUILD=${JOIND_BUILD_ROOT:-$PWD}
LOGDIR=$JOIND_SYSTEM_OUT
WORK=/run/joind-system
SYS=$JOIND_SOURCE_ROOT/tests/system
export BUILD LOGDIR WORK
# shellcheck source=../wifi/lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/lib.sh"
# shellcheck source=lib.sh
source "$SYS/lib.sh"

finish() {
	journalctl -b --no-pager -o short-monotonic >"$LOGDIR/journal.txt" 2>&1
	echo "$1" >/run/joind-vm/status
	sync
	echo o >/proc/sysrq-trigger
	sleep 30
}

read -r up _ </proc/uptime
echo "system: systemd $(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')" \
	"up after ${up} s; $(systemctl is-system-running) (failed units:" \
	"$(systemctl list-units --failed --plain --no-legend | cut -d' ' -f1 | xargs))"
wifi_load_hwsim 2
sed -i 's/^\[General\]$/[General]\nBlacklistInterfaces=wlan0/' /etc/joind/main.conf
grep -qx BlacklistInterfaces=wlan0 /etc/joind/main.conf || {
	echo "system: /etc/joind/main.conf has no [General] group"
	finish 1
}

for name in "$@"; do
	t=$(wifi_now)
	(
		set -euo pipefail
		WIFI_T0=$t
		# shellcheck source=/dev/null
		source "$SYS/cases/$name.sh"
	) >"$LOGDIR/cases/$name.log" 2>&1
	rc=$?
	secs=$(wifi_since "$t")
	echo "$rc $secs" >"$LOGDIR/cases/$name.result"
	printf 'system: %-14s %s in %s s\n' "$name" "$( ((rc == 0)) && echo ok || echo FAILED)" "$secs"
done
finish 0
