# shellcheck shell=bash
# 12-netlink-overrun.sh - nl80211 events lost to a receive buffer overrun:
# joind reads the state again and misses nothing.
#
# joind's event socket asks for a 1 MiB receive buffer, which the kernel
# caps at net.core.rmem_max when the socket is made. With the cap at its
# least and joind stopped (SIGSTOP), the events of two radios added
# meanwhile do not fit: the kernel drops some and says so (ENOBUFS) when
# joind reads again. Two radios, not more: a third would be wlan10, which
# the fixture's BlacklistInterfaces (wlan1*) leaves alone.

ov_rmem=$(sysctl -n net.core.rmem_max)
ov_radios="joindov1 joindov2"
ov_cleanup() {
	local r
	kill -CONT "$(cat "$WORK/joind.pid" 2>/dev/null)" 2>/dev/null || true
	for r in $ov_radios; do "$HWSIM_RADIO" del "$r" 2>/dev/null || true; done
	sysctl -qw net.core.rmem_max="$ov_rmem"
}
trap ov_cleanup EXIT
ov_overruns() {
	wifi_diag '.devices[] | select(.name == "wlan2") | .details.netlink_overruns'
}

sysctl -qw net.core.rmem_max=4096
wifi_restart_joind_same
before=$(ov_overruns) || wifi_fail "no netlink_overruns in the diagnostics"
pid=$(cat "$WORK/joind.pid")
kill -STOP "$pid"
for r in $ov_radios; do
	"$HWSIM_RADIO" add "$r" >/dev/null || wifi_fail "hwsim-radio add $r"
done
kill -CONT "$pid"
new=$(jw -t 30 count 3 net.joind.Device1 Kind=wifi | grep -v "^$DEV$") ||
	wifi_fail "the radios added during the overrun got no device"
n=$(($(ov_overruns) - before))
((n >= 1)) || wifi_fail "the event socket did not overrun (netlink_overruns $before before, as many after): the case tests nothing"
for dev in $new; do
	jw -t 30 object $NET "Device=$dev" Name=joind-open >/dev/null ||
		wifi_fail "$dev (added during the overrun) found no networks"
done
check "$n overrun(s) of a $(sysctl -n net.core.rmem_max)-byte event buffer: both radios added meanwhile got a device that scans"

for r in $ov_radios; do "$HWSIM_RADIO" del "$r" || wifi_fail "hwsim-radio del $r"; done
jw -t 30 count 1 net.joind.Device1 Kind=wifi >/dev/null || wifi_fail "the added radios' devices did not vanish"
sysctl -qw net.core.rmem_max="$ov_rmem"
wifi_restart_joind_same
