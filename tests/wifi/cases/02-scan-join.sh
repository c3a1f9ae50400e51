# shellcheck shell=bash
# 02-scan-join.sh - a Scan() while Scanning=true joins the running scan.

joins_before=$(log_count 'scan request \(D-Bus\) joins scan')
t=$(wifi_now)
jw -t 60 scan-join "$DEV" || wifi_fail "Scan() twice: a call failed"
took=$(wifi_since "$t")
# Joined rather than queued: D-Bus shows both answered; only the log says how.
(($(log_count 'scan request \(D-Bus\) joins scan') > joins_before)) ||
	wifi_fail "the second Scan() did not join the running scan"
check "Scan() while Scanning=true joined the running scan (both answered after ${took} s)"
