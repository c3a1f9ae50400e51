# shellcheck shell=bash
# 35-suspend.sh - `systemctl suspend` through logind, with the suspend
# itself replaced by `sleep 2` (a drop-in for systemd-suspend.service):
# logind still sends PrepareForSleep(true) and then (false); joind hears
# both, in order, without restarting, and is connected to joind-sys
# afterwards.
sys_start
jw -t 60 object net.joind.Station1 State=connected >/dev/null ||
	wifi_fail "wlan1 is not connected before the suspend"
mkdir -p /etc/systemd/system/systemd-suspend.service.d
printf '[Service]\nExecStart=\nExecStart=/bin/sleep 2\n' \
	>/etc/systemd/system/systemd-suspend.service.d/sleep.conf
systemctl daemon-reload
pid=$(sys_prop MainPID)
cursor=$(sys_cursor)
systemctl suspend || wifi_fail "systemctl suspend: logind refused"
# By joind's pid as journald shows it ("joind[PID]: "): a line logged as
# the machine goes to sleep may reach the journal without the unit's name
# or the trusted _PID field, which journald reads from /proc.
sys_wait_journal 60 "$cursor" "the system resumed from sleep" _PID="$pid"
sys_journal "$cursor" -o short | grep -F "joind[$pid]: " >"$WORK/suspend.log" || true
line_of() { grep -n -m 1 "$1" "$WORK/suspend.log" | cut -d: -f1 || true; }
sleep_at=$(line_of "the system is going to sleep")
resume_at=$(line_of "the system resumed from sleep")
[[ -n $sleep_at && -n $resume_at ]] && ((sleep_at < resume_at)) ||
	wifi_fail "joind did not hear PrepareForSleep(true) before (false): $(cat "$WORK/suspend.log")"
[[ $(sys_prop MainPID) == "$pid" ]] || wifi_fail "joind restarted across the suspend"
jw -t 60 object net.joind.Station1 State=connected >/dev/null ||
	wifi_fail "wlan1 is not connected after the resume"
wifi_step "suspend: joind heard sleep, then resume; wlan1 connected after it"
rm -r /etc/systemd/system/systemd-suspend.service.d
systemctl daemon-reload
