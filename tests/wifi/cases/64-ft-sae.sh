# shellcheck shell=bash
# 64-ft-sae.sh - fast transition with FT-SAE: joind-ftsae offers SAE and
# FT-SAE (mobility domain a1b2, MFP required) from two hostapd processes
# on wlan4 and wlan5 that pass the station's PMK-R1 over RRB (ft-lib.sh:
# a bridge each, joined by a veth pair; r0kh/r1kh name each other). joind
# joins it with FT-SAE beside SAE (hostapd lists the station with AKM
# 00-0f-ac-9 and the SAE group it accepted; GetDiagnostics says ft-sae
# in a1b2 while the network stays Type psk, Security wpa3-sae), then a
# manual roam moves the link to the other access point with fast
# transition over the air: the target lists the station authorized with
# FT-SAE, with no SAE group (it ran no SAE with it) and no 4-way
# handshake in its log; GetDiagnostics says "FT over the air"; the
# station never reports disconnected (roam-lib.sh's watch).
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../ft-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-lib.sh"

ftsae_ap() { # N IFACE CHANNEL OTHER-IFACE
	wifi_start_hostapd "ftsae$1" <<EOF2
$(ft_ap_lines "$1" "$2" "$3" "$4" joind-ftsae)
wpa_key_mgmt=SAE FT-SAE
ieee80211w=2
sae_password=$PASS
EOF2
}

trap 'ft_rrb_down' EXIT
ft_rrb_up
ftsae_ap 1 wlan4 6 wlan5
ftsae_ap 2 wlan5 11 wlan4
wifi_step "joind-ftsae (SAE and FT-SAE, mobility domain a1b2) on wlan4 and wlan5, RRB over br-ft1/br-ft2"
jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
jw -t 40 count 1 $NET "Device=$DEV" Name=joind-ftsae Type=psk Security=wpa3-sae >/dev/null ||
	wifi_fail "joind-ftsae not listed as a psk network with Security wpa3-sae"
printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$PASS" >"$WORK/state/joind-ftsae.psk"
FT_NET=$(jw -t 40 count 1 $NET "Device=$DEV" Name=joind-ftsae 'KnownNetwork!=/') ||
	wifi_fail "joind-ftsae not listed as known"
wifi_connect "$FT_NET" joind-ftsae
ROAM_NET=$FT_NET
ROAM_STA=$(cat /sys/class/net/wlan2/address)
roam_find_sta ftsae1 wlan4 ftsae2 wlan5
ft_joined 00-0f-ac-9 ft-sae
group=$(ft_sta_line "${ROAM_FROM[@]}" sae_group)
[[ -n $group ]] || wifi_fail "${ROAM_FROM[0]} shows no SAE group for the station: $(roam_cli "${ROAM_FROM[@]}" sta "$ROAM_STA")"
check "joind-ftsae joined through ${ROAM_FROM[1]} in $TOOK s: hostapd sees FT-SAE after SAE (group $group), diagnostics ft-sae, a1b2"

ft_roam
ft_roamed 00-0f-ac-9 ft-sae
group=$(ft_sta_line "${ROAM_TO[@]}" sae_group)
[[ -z $group ]] || wifi_fail "${ROAM_TO[0]} ran SAE with the station (group $group): the roam was no fast transition"
check "roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s with FT over the air (no SAE, no 4-way handshake on ${ROAM_TO[0]}), never disconnected"

jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null || wifi_fail "Disconnect()"
wifi_stop_hostapd ftsae1
wifi_stop_hostapd ftsae2
ft_rrb_down
rm -f "$WORK/state/joind-ftsae.psk"
