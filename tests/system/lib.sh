# shellcheck shell=bash
# tests/system/lib.sh - helpers for the system suite's cases (sourced by
# run-cases.sh after tests/wifi/lib.sh, whose wifi_fail, wifi_poll,
# wifi_start_hostapd and jw the cases use too).
#
#   sys_prop PROP                  joind.service's PROP (systemctl show)
#   sys_wait_prop PROP VALUE SECS  until PROP is VALUE
#   sys_start                      starts joind.service unless it runs
#   sys_cursor                     the journal's cursor now
#   sys_journal CURSOR ARGS...     journalctl after CURSOR (short output)
#   sys_wait_journal SECS CURSOR REGEX ARGS...  until a line after CURSOR
#                                  (of the journal ARGS select) matches

sys_prop() { systemctl show -P "$1" joind.service; }

sys_prop_is() { [[ $(sys_prop "$1") == "$2" ]]; }

sys_wait_prop() { wifi_poll "$3" "joind.service $1=$2" sys_prop_is "$1" "$2"; }

sys_start() {
	sys_prop_is ActiveState active || systemctl start joind.service ||
		wifi_fail "systemctl start joind: $(systemctl status --no-pager joind.service)"
}

sys_cursor() { journalctl -n 0 --show-cursor --no-pager | sed -n 's/^-- cursor: //p'; }

sys_journal() {
	local cursor=$1
	shift
	journalctl --no-pager -q --after-cursor="$cursor" "$@"
}

sys_journal_has() {
	local cursor=$1 regex=$2
	shift 2
	grep -qE -- "$regex" <<<"$(sys_journal "$cursor" "$@")"
}

sys_wait_journal() {
	local secs=$1 cursor=$2 regex=$3
	shift 3
	wifi_poll "$secs" "a journal line matching '$regex'" sys_journal_has "$cursor" "$regex" "$@"
}
