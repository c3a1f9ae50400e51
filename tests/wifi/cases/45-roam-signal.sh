# shellcheck shell=bash
# 45-roam-signal.sh - a WPA2-PSK roam on a signal drop: the access point
# joind joined fades to about -80 dBm (its radio's hwsim rx_rssi, heard
# plus the sender's 20 dBm), below RoamThreshold (-70); joind reassociates
# to the other one without ever reporting disconnected (roam-lib.sh). Both
# access points see BSS Transition and radio measurement advertised, in
# the association and in the reassociation request.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"

roam_setup
roam_check_caps "${ROAM_FROM[@]}"
rssi_file=$(roam_rssi_file "${ROAM_FROM[1]}")
rssi_saved=$(cat "$rssi_file")
roam_watch_start
printf '%u' -100 >"$rssi_file"
roam_watch_check
printf '%u' "$rssi_saved" >"$rssi_file"
roam_check_caps "${ROAM_TO[@]}"
check "signal -80 dBm on ${ROAM_FROM[1]}: roamed to ${ROAM_TO[1]} in $ROAM_TOOK s, State roaming -> connected, never disconnected; BSS Transition and RRM advertised to both"
roam_teardown
