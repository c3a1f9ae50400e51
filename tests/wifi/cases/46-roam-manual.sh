# shellcheck shell=bash
# 46-roam-manual.sh - joinctl station wlan2 roam BSSID moves the link to
# the other access point of joind-roam at equal signal (no margin for a
# manual roam), without ever reporting disconnected; a BSSID joind has not
# seen is refused with a sentence (roam-lib.sh).
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"

roam_setup
if out=$("$BUILD/client/joinctl" station wlan2 roam 02:00:00:00:99:99 2>&1); then
	wifi_fail "a roam to an unknown BSSID was accepted: $out"
fi
grep -q "02:00:00:00:99:99" <<<"$out" || wifi_fail "the refusal does not name the BSSID: $out"
roam_watch_start
"$BUILD/client/joinctl" station wlan2 roam "$ROAM_TO_BSSID" >/dev/null ||
	wifi_fail "joinctl station wlan2 roam $ROAM_TO_BSSID"
roam_watch_check
check "joinctl roam: ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s, never disconnected; an unknown BSSID refused"
roam_teardown
