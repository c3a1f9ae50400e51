# shellcheck shell=bash
# 60-ft-fallback.sh - fast transitions that cannot happen, on joind-ftfb
# (FT-PSK only, two hostapd processes that may not derive a PMK-R1
# themselves, ft_psk_generate_local=0, and know no R0KH to ask):
#   - the target refuses the FT authentication (it cannot get the
#     PMK-R1): joind reassociates to it in full instead: hostapd logs a
#     4-way handshake with the station there, lists it authorized with
#     FT-PSK (a new initial mobility domain association), and the roam's
#     record in GetDiagnostics says "reassociation";
#   - the target does not answer at all (its hostapd stopped, SIGSTOP,
#     while the kernel still beacons for it): the roam gives up on it and
#     goes back to the access point it left, as the next candidate;
#     GetDiagnostics records the failed move to the silent one.
# The station never reports disconnected (roam-lib.sh's watch).
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../ft-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-lib.sh"

mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
# Its own SSID: the silent access point's BSS is gone from the kernel's
# scan table afterwards (mac80211 drops a BSS whose authentication timed
# out), which a later case on the same SSID would find.
FT_SSID=joind-ftfb
FT_GENERATE_LOCAL=0 ft_ap ft1 wlan4 6 02000000f001
FT_GENERATE_LOCAL=0 ft_ap ft2 wlan5 11 02000000f002
ft_join

ft_roam
ft_check_akm "${ROAM_TO[@]}" 00-0f-ac-4
# At least one: on a loaded VM mac80211 may send the reassociation request
# twice, and hostapd then runs a second handshake.
((FT_4WAY >= 1)) ||
	wifi_fail "${ROAM_TO[0]} ran no 4-way handshake with the station: no full reassociation"
ft_roams '.last[0] | .result == "ok" and .method == "reassociation"' >/dev/null ||
	wifi_fail "GetDiagnostics' last roam is no reassociation: $(ft_roams .)"
ft_conn '.security == "ft-psk" and .transition == null' >/dev/null ||
	wifi_fail "GetDiagnostics does not say ft-psk without a transition: $(ft_conn .)"
check "FT refused by ${ROAM_TO[0]} (no PMK-R1): reassociated to ${ROAM_TO[1]} in full in $ROAM_TOOK s (its 4-way handshake), never disconnected"

# The other way now, to a target that does not answer: the station comes
# back to where it is.
SILENT=("${ROAM_FROM[@]}")
SILENT_BSSID=$(cat "/sys/class/net/${SILENT[1]}/address")
ROAM_FROM=("${ROAM_TO[@]}")
roams=$(ft_roams .roams) failures=$(ft_roams .failures)
# Heard just now, so that the roam goes to it at once: a target last heard
# long ago is scanned for first, and a stopped hostapd answers no probe.
jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
jw -t 30 object net.joind.Station1 Scanning=false >/dev/null || wifi_fail "still scanning"
silent_pid=$(cat "$WORK/hostapd-${SILENT[0]}.pid")
kill -STOP "$silent_pid"
# Woken even when a check below fails (its teardown waits for it to end).
(sleep 40 && kill -CONT "$silent_pid") >/dev/null 2>&1 &
wake=$!
roam_watch_start
"$BUILD/client/joinctl" station wlan2 roam "$SILENT_BSSID" >/dev/null ||
	wifi_fail "joinctl station wlan2 roam $SILENT_BSSID"
# Over when the roamer recorded the failed move and the one back.
wifi_poll 30 "the roam to the silent ${SILENT[0]} and back over" \
	ft_roams ".roams > $roams and .failures > $failures and (.last[0].to | ascii_downcase) == \"$ROAM_TO_BSSID\" and .last[0].result == \"ok\""
roam_watch_check
kill -CONT "$silent_pid"
kill "$wake" 2>/dev/null || true
ft_roams ".last[1] | (.to | ascii_downcase) == \"$SILENT_BSSID\" and .result == \"failed\"" >/dev/null ||
	wifi_fail "GetDiagnostics records no failed move to the silent ${SILENT[0]}: $(ft_roams .)"
check "${SILENT[0]} silent: the roam came back to ${ROAM_TO[1]} in $ROAM_TOOK s, never disconnected"

ft_teardown
