# shellcheck shell=bash
# 11-activation.sh - D-Bus activation: with joind stopped, the first call
# (`joinctl daemon info`) makes dbus-daemon ask systemd for
# dbus-net.joind.service, the alias the package enabled, and the answer
# comes from the packaged joind.
systemctl stop joind.service
sys_wait_prop ActiveState inactive 20
cursor=$(sys_cursor)
info=$(timeout 60 joinctl -j daemon info) || wifi_fail "joinctl daemon info failed: $info"
version=$(dpkg-query -W -f='${Version}' joind)
jq -e --arg v "$version" '.version == $v and .bus == "system"' <<<"$info" >/dev/null ||
	wifi_fail "daemon info is not the packaged joind $version on the system bus: $info"
sys_prop_is ActiveState active || wifi_fail "joind.service is $(sys_prop ActiveState) after the call"
sys_journal_has "$cursor" "Successfully activated service 'net.joind'" -u dbus.service ||
	wifi_fail "dbus-daemon did not activate net.joind: $(sys_journal "$cursor" -u dbus.service)"
# systemd started the unit for the bus (the alias's job), not a process of
# dbus-daemon's own.
sys_journal_has "$cursor" "Start(ed|ing) .*joind" _PID=1 ||
	wifi_fail "systemd did not start joind.service: $(sys_journal "$cursor" _PID=1)"
[[ $(sys_prop MainPID) == $(busctl --system call org.freedesktop.DBus /org/freedesktop/DBus \
	org.freedesktop.DBus GetConnectionUnixProcessID s net.joind | cut -d' ' -f2) ]] ||
	wifi_fail "net.joind is not owned by joind.service's process"
wifi_step "joinctl daemon info started joind.service through D-Bus activation (joind $version)"
