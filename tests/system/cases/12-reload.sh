# shellcheck shell=bash
# 12-reload.sh - `systemctl reload joind` makes the running joind (same
# pid) read main.conf again: a group no plugin declares, added now, is
# reported with the file's name and line; taken out again, it is not.
sys_start
pid=$(sys_prop MainPID)
conf=/etc/joind/main.conf
cp "$conf" "$WORK/main.conf.orig"
printf '\n[SystemSuiteGroup]\nKey=1\n' >>"$conf"
line=$(grep -n '^\[SystemSuiteGroup\]' "$conf" | cut -d: -f1)
cursor=$(sys_cursor)
systemctl reload joind.service || wifi_fail "systemctl reload joind failed"
sys_wait_journal 20 "$cursor" "$conf:$line: \[SystemSuiteGroup\]" -u joind.service
[[ $(sys_prop MainPID) == "$pid" ]] || wifi_fail "reload restarted joind ($pid -> $(sys_prop MainPID))"
wifi_step "reload: joind $pid reported $conf:$line"

cp "$WORK/main.conf.orig" "$conf"
cursor=$(sys_cursor)
systemctl reload joind.service || wifi_fail "systemctl reload joind failed"
sys_wait_journal 20 "$cursor" "reloading $conf" -u joind.service
sleep 1
sys_journal_has "$cursor" "SystemSuiteGroup" -u joind.service &&
	wifi_fail "the group is still reported after it was taken out"
sys_prop_is ActiveState active || wifi_fail "joind.service is $(sys_prop ActiveState)"
wifi_step "reload of the restored file: no report"
