# shellcheck shell=bash
# 60-ft-psk.sh - fast transition with FT-PSK: joind-ft is FT-PSK only
# (wpa_key_mgmt=FT-PSK, mobility domain a1b2, two hostapd processes on
# wlan4 and wlan5 that derive each other's PMK-R1 themselves,
# ft_psk_generate_local=1). joind joins it with an initial mobility domain
# association (hostapd lists the station with AKM 00-0f-ac-4; GetDiagnostics
# says ft-psk in mobility domain a1b2 while the network's Type stays psk),
# then a manual roam moves the link to the other access point with fast
# transition over the air: the target lists the station authorized with
# FT-PSK while its log has no 4-way handshake with it (hostapd logs
# "pairwise key handshake completed" for each one, none for FT), and
# GetDiagnostics says the link came "FT over the air" (the connection and
# the roam's record); the station never reports disconnected (roam-lib.sh's
# watch). ft-lib.sh has the access points and the join.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../ft-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-lib.sh"

mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
ft_ap ft1 wlan4 6 02000000f001
ft_ap ft2 wlan5 11 02000000f002
ft_join

ft_roam
ft_roamed 00-0f-ac-4 ft-psk
ft_roams '.last[0] | .result == "ok" and .method == "FT over the air"' >/dev/null ||
	wifi_fail "GetDiagnostics' last roam is not FT over the air: $(ft_roams .)"
check "roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s with FT over the air (no 4-way handshake on ${ROAM_TO[0]}), never disconnected"

ft_teardown
