# shellcheck shell=bash
# 47-roam-btm.sh - the access point joind joined sends a BSS transition
# request with disassociation imminent naming the other one, at equal
# signal: joind answers it (hostapd logs the BTM response: accept, the
# target named) and moves before the timer runs out, without ever
# reporting disconnected (roam-lib.sh).
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"

roam_setup
ch=$( [[ ${ROAM_TO[1]} == wlan4 ]] && echo 6 || echo 11)
roam_watch_start
roam_cli "${ROAM_FROM[@]}" bss_tm_req "$ROAM_STA" disassoc_imminent=1 disassoc_timer=100 \
	valid_int=255 pref=1 "neighbor=$ROAM_TO_BSSID,0x0000008f,81,$ch,7,0301ff" | grep -q OK ||
	wifi_fail "hostapd_cli bss_tm_req"
roam_watch_check
wifi_poll 5 "hostapd ${ROAM_FROM[0]} logged the BTM response" \
	grep -qiE "BSS-TM-RESP $ROAM_STA .*status_code=0 .*target_bssid=$ROAM_TO_BSSID" \
	"$LOGDIR/hostapd-${ROAM_FROM[0]}.log"
check "BTM request (disassociation imminent): accepted naming ${ROAM_TO[1]}, roamed in $ROAM_TOOK s, never disconnected"
roam_teardown
