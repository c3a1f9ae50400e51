# shellcheck shell=bash
# 35-suspend.sh - `systemctl suspend` through logind, with the suspend
# itself replaced by `sleep 2` (a drop-in for systemd-suspend.service):
# logind still sends PrepareForSleep(true) and then (false). What joind(8)
# (SLEEP) promises: it hears both, in order, and leaves the link alone,
# so the same joind (no restart) is still connected to the same network
# after the resume, without a new authentication.
sys_start
jw -t 60 object net.joind.Station1 State=connected >/dev/null ||
	wifi_fail "wlan1 is not connected before the suspend"
mkdir -p /etc/systemd/system/systemd-suspend.service.d
printf '[Service]\nExecStart=\nExecStart=/bin/sleep 2\n' \
	>/etc/systemd/system/systemd-suspend.service.d/sleep.conf
systemctl daemon-reload
pid=$(sys_prop MainPID)
network=$(joinctl -j station wlan1 show | jq -r '.connected_network // empty')
[[ -n $network ]] || wifi_fail "no connected network before the suspend: $(joinctl -j station wlan1 show)"
cursor=$(sys_cursor)
systemctl suspend || wifi_fail "systemctl suspend: logind refused"
# By the log domain joind itself sends (GLIB_DOMAIN): a line logged as the
# machine goes to sleep may reach the journal without the metadata
# journald adds from /proc (_PID, the unit). The pid is checked below.
sys_wait_journal 60 "$cursor" "the system resumed from sleep" GLIB_DOMAIN=joind-wifi
sys_journal "$cursor" GLIB_DOMAIN=joind-wifi -o cat >"$WORK/suspend.log" || true
line_of() { grep -n -m 1 "$1" "$WORK/suspend.log" | cut -d: -f1 || true; }
sleep_at=$(line_of "the system is going to sleep")
resume_at=$(line_of "the system resumed from sleep")
[[ -n $sleep_at && -n $resume_at ]] && ((sleep_at < resume_at)) ||
	wifi_fail "joind did not hear PrepareForSleep(true) before (false): $(cat "$WORK/suspend.log")"
[[ $(sys_prop MainPID) == "$pid" ]] || wifi_fail "joind restarted across the suspend"
jw -t 60 object net.joind.Station1 State=connected >/dev/null ||
	wifi_fail "wlan1 is not connected after the resume"
after=$(joinctl -j station wlan1 show | jq -r '.connected_network // empty')
[[ $after == "$network" ]] || wifi_fail "connected to '$after' after the resume, '$network' before"
# The connector's transitions carry JOIND_DEVICE and JOIND_STATE: none
# of leaving or making a connection since the cursor.
left=$(sys_journal "$cursor" JOIND_DEVICE=wlan1 JOIND_STATE=deauthenticating \
	JOIND_STATE=disconnecting JOIND_STATE=authenticating JOIND_STATE=associating JOIND_STATE=keying)
[[ -z $left ]] || wifi_fail "wlan1 left its connection across the suspend: $left"
wifi_step "suspend: joind (pid $pid) heard sleep, then resume; still connected to $network"

rm -r /etc/systemd/system/systemd-suspend.service.d
systemctl daemon-reload
