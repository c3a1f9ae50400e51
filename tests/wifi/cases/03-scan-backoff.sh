# shellcheck shell=bash
# 03-scan-backoff.sh - periodic scans back off from 1 s to the maximum of
# 4 s (the fixture's main.conf). The sequence is only in the log; the
# interval reached is also in the diagnostics.

wifi_poll 40 "back-off to the maximum" grep -q 'wlan2: next periodic scan in 4 s' "$JOIND_LOG"
seq=$(grep -oE 'wlan2: next periodic scan in [0-9]+ s' "$JOIND_LOG" | grep -oE '[0-9]+ s' |
	head -n 4 | tr '\n' ' ')
[[ $seq == "1 s 2 s 4 s "* ]] || wifi_fail "back-off sequence: $seq"
interval=$(wifi_diag '.devices[] | select(.name == "wlan2") | .details.periodic_scan_interval') ||
	wifi_fail "GetDiagnostics: no periodic_scan_interval for wlan2"
((interval == 4)) || wifi_fail "periodic_scan_interval is $interval, want 4 (the maximum)"
check "periodic scans back off: $seq(max 4 s; diagnostics: periodic_scan_interval=$interval)"
