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
# GetDiagnostics says the link came "FT over the air"; the station never
# reports disconnected (roam-lib.sh's watch).
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"

ft_ap() { # NAME IFACE CHANNEL R1KH
	wifi_start_hostapd "$1" <<EOF2
interface=$2
driver=nl80211
hw_mode=g
channel=$3
ssid=joind-ft
wpa=2
wpa_key_mgmt=FT-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS
mobility_domain=a1b2
ft_psk_generate_local=1
ft_over_ds=0
nas_identifier=$1.joind.test
r1_key_holder=$4
EOF2
}
# AKMSuiteSelector of the station in hostapd's table ("00-0f-ac-4").
ft_sta_akm() { roam_cli "$1" "$2" sta "$ROAM_STA" | sed -n 's/^AKMSuiteSelector=//p'; }
# The 4-way handshakes an access point completed, from its log.
ft_4way_count() { grep -c 'pairwise key handshake completed' "$LOGDIR/hostapd-$1.log" || true; }
ft_conn() { wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.connection | $1"; }

mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
ft_ap ft1 wlan4 6 02000000f001
ft_ap ft2 wlan5 11 02000000f002
wifi_step "joind-ft (FT-PSK only, mobility domain a1b2) beaconing on wlan4 and wlan5"
# Found before it is known, so that autoconnect does not race the scan.
jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
jw -t 40 count 1 $NET "Device=$DEV" Name=joind-ft Type=psk >/dev/null ||
	wifi_fail "joind-ft not listed as a psk network"
printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/joind-ft.psk"
FT_NET=$(jw -t 40 count 1 $NET "Device=$DEV" Name=joind-ft Type=psk 'KnownNetwork!=/') ||
	wifi_fail "joind-ft not listed as a known psk network"
wifi_connect "$FT_NET" joind-ft
ROAM_NET=$FT_NET
ROAM_STA=$(cat /sys/class/net/wlan2/address)
roam_find_sta ft1 wlan4 ft2 wlan5
akm=$(ft_sta_akm "${ROAM_FROM[@]}")
[[ $akm == 00-0f-ac-4 ]] || wifi_fail "${ROAM_FROM[0]} lists the station with AKM '$akm', not FT-PSK"
ft_conn '.security == "ft-psk" and .mobility_domain == "a1b2"' >/dev/null ||
	wifi_fail "GetDiagnostics does not say ft-psk in mobility domain a1b2: $(ft_conn .)"
check "FT-only joind-ft joined through ${ROAM_FROM[1]} in $TOOK s: hostapd sees FT-PSK, diagnostics ft-psk, a1b2"

# The count can tell: the initial association's handshake is in the log.
(($(ft_4way_count "${ROAM_FROM[0]}") >= 1)) ||
	wifi_fail "${ROAM_FROM[0]}'s log shows no 4-way handshake for the initial association"
four_way_before=$(ft_4way_count "${ROAM_TO[0]}")
roam_watch_start
"$BUILD/client/joinctl" station wlan2 roam "$ROAM_TO_BSSID" >/dev/null ||
	wifi_fail "joinctl station wlan2 roam $ROAM_TO_BSSID"
roam_watch_check
akm=$(ft_sta_akm "${ROAM_TO[@]}")
[[ $akm == 00-0f-ac-4 ]] || wifi_fail "${ROAM_TO[0]} lists the station with AKM '$akm', not FT-PSK"
roam_cli "${ROAM_TO[@]}" sta "$ROAM_STA" | grep -q '^flags=.*\[AUTHORIZED\]' ||
	wifi_fail "${ROAM_TO[0]} does not list the station authorized"
four_way_after=$(ft_4way_count "${ROAM_TO[0]}")
((four_way_after == four_way_before)) ||
	wifi_fail "${ROAM_TO[0]} ran a 4-way handshake with the station: the roam was no fast transition"
ft_conn '.transition == "FT over the air" and .security == "ft-psk"' >/dev/null ||
	wifi_fail "GetDiagnostics does not say FT over the air: $(ft_conn .)"
check "roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s with FT over the air (no 4-way handshake on ${ROAM_TO[0]}), never disconnected"

jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null || wifi_fail "Disconnect()"
wifi_stop_hostapd ft1
wifi_stop_hostapd ft2
rm -f "$WORK/state/joind-ft.psk"
