# shellcheck shell=bash
# 10-start.sh - the package enabled nothing; `systemctl enable --now joind`
# (README "Install as a package"): the packaged unit starts the packaged
# daemon, which owns net.joind on the system bus, finds wlan1 and reaches
# /dev/rfkill; its exposure score is printed and held to the budget (at
# most Debian's 2.4 for joind; iwd.service scores 6.2).
[[ $(systemctl is-enabled joind.service) == disabled ]] ||
	wifi_fail "the package enabled joind.service: $(systemctl is-enabled joind.service)"
sys_prop_is ActiveState inactive || wifi_fail "joind.service is $(sys_prop ActiveState) before it was enabled"
systemctl enable --now joind.service || wifi_fail "systemctl enable --now joind failed"
sys_prop_is ActiveState active || wifi_fail "joind.service is $(sys_prop ActiveState)"
pid=$(sys_prop MainPID)
[[ $pid != 0 && $(cat "/proc/$pid/comm") == joind ]] || wifi_fail "MainPID $pid is not joind"
[[ $(readlink "/proc/$pid/exe") == /usr/sbin/joind ]] ||
	wifi_fail "joind runs from $(readlink "/proc/$pid/exe"), not the package's /usr/sbin/joind"
owner=$(busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
	GetConnectionUnixProcessID s net.joind | cut -d' ' -f2)
[[ $owner == "$pid" ]] || wifi_fail "net.joind is owned by pid $owner, not joind.service's $pid"
wifi_step "joind.service active, pid $pid owns net.joind"

jw -t 20 object net.joind.Device1 Name=wlan1 >/dev/null || wifi_fail "joind did not add wlan1"
jw -t 5 object net.joind.Device1 Name=wlan0 >/dev/null 2>&1 &&
	wifi_fail "joind took wlan0, which main.conf's BlacklistInterfaces names"
wifi_step "wlan1 is joind's, wlan0 (BlacklistInterfaces) is not"

report=$(systemd-analyze security --no-pager joind.service)
grep -E '✗|DeviceAllow|IPAddress|PrivateMounts' <<<"$report" || true
score=$(sed -n 's/.*Overall exposure level for joind.service: \([0-9.]*\).*/\1/p' <<<"$report")
[[ -n $score ]] || wifi_fail "no exposure level in: $report"
wifi_step "systemd-analyze security joind.service: exposure $score"
awk -v s="$score" 'BEGIN { exit !(s <= 2.4) }' || wifi_fail "exposure $score is above 2.4"
