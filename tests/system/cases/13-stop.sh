# shellcheck shell=bash
# 13-stop.sh - `systemctl stop joind` leaves no process: the unit is
# inactive, its cgroup gone, and no joind runs anywhere.
sys_start
cgroup=$(sys_prop ControlGroup)
[[ -n $cgroup ]] || wifi_fail "a running joind.service has no cgroup"
systemctl stop joind.service || wifi_fail "systemctl stop joind failed"
sys_prop_is ActiveState inactive || wifi_fail "joind.service is $(sys_prop ActiveState)"
[[ $(sys_prop MainPID) == 0 ]] || wifi_fail "MainPID is $(sys_prop MainPID) after stop"
procs=$(cat "/sys/fs/cgroup$cgroup/cgroup.procs" 2>/dev/null || true)
[[ -z $procs ]] || wifi_fail "processes left in $cgroup: $procs"
left=$(pgrep -x joind || true)
[[ -z $left ]] || wifi_fail "joind processes left: $left"
wifi_step "stopped: inactive, $cgroup empty, no joind process"
