# shellcheck shell=bash
# 60-ft-ds.sh - fast transition over the DS with FT-PSK: joind-ftds from
# two hostapd processes whose MDE says "FT over the DS" (ft_over_ds=1);
# both access point interfaces sit on a bridge (bridge=brft, made here and
# removed after) that carries hostapd's RRB between them: the access point
# the station is on forwards its FT Request to the target and the target's
# FT Response back (each derives the PMK-R1 itself,
# ft_psk_generate_local=1). After a manual roam the target lists the
# station authorized with FT-PSK while its log has no 4-way handshake with
# it, the access point left logged the FT Action frames it forwarded, and
# GetDiagnostics says the link came "FT over the DS" (connection and the
# roam's record); the station never reports disconnected.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../ft-roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-roam-lib.sh"

# Its own SSID: 60-ft-psk's access points had the same BSSIDs without
# "FT over the DS".
FT_SSID=joind-ftds
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
ip link add brft type bridge || wifi_fail "ip link add brft type bridge"
ip link set brft up
FT_OVER_DS=1 ft_ap ft1 wlan4 6 02000000f001 bridge=brft
FT_OVER_DS=1 ft_ap ft2 wlan5 11 02000000f002 bridge=brft
# hostapd logs the FT Action frames it receives at debug level only.
roam_cli ft1 wlan4 log_level DEBUG >/dev/null || wifi_fail "hostapd_cli log_level on wlan4"
roam_cli ft2 wlan5 log_level DEBUG >/dev/null || wifi_fail "hostapd_cli log_level on wlan5"
ft_join

ft_roam_to_target
((FT_4WAY == 0)) ||
	wifi_fail "${ROAM_TO[0]} ran a 4-way handshake with the station: the roam was no fast transition"
# The access point left received the station's FT Action frame (and
# forwarded it over RRB).
grep -q 'FT: Received FT Action frame' "$LOGDIR/hostapd-${ROAM_FROM[0]}.log" ||
	wifi_fail "${ROAM_FROM[0]} forwarded no FT Request over RRB: the roam did not go over the DS"
ft_conn '.transition == "FT over the DS" and .security == "ft-psk"' >/dev/null ||
	wifi_fail "GetDiagnostics does not say FT over the DS: $(ft_conn .)"
ft_roams '.last[0] | .result == "ok" and .method == "FT over the DS"' >/dev/null ||
	wifi_fail "GetDiagnostics' last roam is not FT over the DS: $(ft_roams .)"
check "roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s with FT over the DS through ${ROAM_FROM[0]} (no 4-way handshake on ${ROAM_TO[0]}), never disconnected"

ft_teardown
ip link del brft 2>/dev/null || true
