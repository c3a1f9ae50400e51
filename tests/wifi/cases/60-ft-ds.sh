# shellcheck shell=bash
# 60-ft-ds.sh - fast transition over the DS with FT-PSK: joind-ftds from
# one hostapd process that runs both access points (wlan4 and wlan5, each
# with its own control socket), whose MDE says "FT over the DS"
# (ft_over_ds=1); hostapd passes RRB between the two inside the process,
# so the access point the station is on forwards its FT Request to the
# target and the target's FT Response back (each derives the PMK-R1
# itself, ft_psk_generate_local=1). (A bridge between two processes does
# not carry it: the bridge sends a frame for a port's own address out of
# that port, not up to the other process.) After a manual roam the target
# lists the station authorized with FT-PSK while the log has no 4-way
# handshake with it there, the access point left received the FT Action
# frame, and GetDiagnostics says the link came "FT over the DS"
# (connection and the roam's record); the station never reports
# disconnected.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../ft-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-lib.sh"

# Its own SSID: 60-ft-psk's access points had the same BSSIDs without
# "FT over the DS".
FT_SSID=joind-ftds FT_OVER_DS=1 FT_LOG=ftds
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
ft_conf ft1 wlan4 6 02000000f001 ctrl_interface=/run/hostapd-ft1 >"$WORK/hostapd-ft1.conf"
ft_conf ft2 wlan5 11 02000000f002 ctrl_interface=/run/hostapd-ft2 >"$WORK/hostapd-ft2.conf"
# hostapd logs the FT Action frames it receives at debug level only (-d).
hostapd -B -d -P "$WORK/hostapd-ftds.pid" -f "$LOGDIR/hostapd-ftds.log" \
	"$WORK/hostapd-ft1.conf" "$WORK/hostapd-ft2.conf" ||
	wifi_fail "hostapd for wlan4 and wlan5 did not start"
wifi_poll 30 "hostapd beaconing on wlan4" hostapd_all_enabled "$WORK/hostapd-ft1.conf"
wifi_poll 30 "hostapd beaconing on wlan5" hostapd_all_enabled "$WORK/hostapd-ft2.conf"
ft_join

ft_roam
ft_check_akm "${ROAM_TO[@]}" 00-0f-ac-4
((FT_4WAY == 0)) ||
	wifi_fail "${ROAM_TO[0]} ran a 4-way handshake with the station: the roam was no fast transition"
# The access point left received the station's FT Action frame.
grep -q 'FT: Received FT Action frame' "$LOGDIR/hostapd-ftds.log" ||
	wifi_fail "no FT Action frame reached ${ROAM_FROM[0]}: the roam did not go over the DS"
ft_conn '.transition == "FT over the DS" and .security == "ft-psk"' >/dev/null ||
	wifi_fail "GetDiagnostics does not say FT over the DS: $(ft_conn .)"
ft_roams '.last[0] | .result == "ok" and .method == "FT over the DS"' >/dev/null ||
	wifi_fail "GetDiagnostics' last roam is not FT over the DS: $(ft_roams .)"
check "roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s with FT over the DS through ${ROAM_FROM[0]} (no 4-way handshake on ${ROAM_TO[0]}), never disconnected"

ft_teardown
wifi_stop_hostapd ftds
