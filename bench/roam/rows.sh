# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are guest.sh's and table.sh's
# bench/roam/rows.sh - the rows of the roaming bench, sourced by guest.sh:
# for each, the two access points' configuration (two hostapd processes,
# the same for the three daemons) and the three daemons' profiles, which
# say the same thing. The WPA2-PSK and EAP-TLS profiles are
# bench/wifi-connect's (its rows.sh, sourced here), under other SSIDs.
#
#   row  SSID       access points (wlan0 channel 1, wlan1 channel 11, CCMP)
#   psk  roam-psk   WPA2-PSK: a roam is a reassociation and a 4-way handshake
#   tls  roam-tls   WPA2-Enterprise, EAP-TLS against FreeRADIUS (hostapd
#                   its RADIUS client; no OKC): the first roam to each
#                   access point runs full EAP (the warm-up), every later
#                   one offers the PMKSA cached there
#   ft   roam-ft    FT-PSK only, mobility domain a1b2, the PMK-R1 derived
#                   by each access point itself (ft_psk_generate_local):
#                   a roam is FT over the air, no 4-way handshake
# Both access points advertise neighbour reports and BSS transition (as
# deployed networks do) and each lists the other as its neighbour
# (hostapd_cli set_neighbor), bridged to br0 (guest.sh: the host behind
# both). wpa_supplicant gets NetworkManager's background scan setting
# (bgscan "simple:30:-70:86400"): without a bgscan module it asks for no
# signal events and never roams on a signal drop.

# shellcheck source=SCRIPTDIR/../wifi-connect/rows.sh
source "$JOIND_SOURCE_ROOT/bench/wifi-connect/rows.sh"
ALL_ROWS=(psk tls ft)
ROW_SSID[psk]=roam-psk ROW_SSID[tls]=roam-tls ROW_SSID[ft]=roam-ft
ROW_TYPE[ft]=psk ROW_PART[ft]=psk
ROW_TITLE[psk]="PSK reassociation (WPA2-PSK, 4-way handshake)"
ROW_TITLE[tls]="802.1X + PMKSA (EAP-TLS against FreeRADIUS, the PMKSA cached at the target offered)"
ROW_TITLE[ft]="FT-PSK over the air (mobility domain a1b2)"
AP_CTRL=/run/hostapd-bench-roam

# roam_row_ap ROW N: hostapd's configuration of access point N (0 or 1);
# RADIUS_SECRET is tests/wifi/eap-radius.sh's (guest.sh sources it).
roam_row_ap() {
	local iface=wlan$2 ch=$((1 + 10 * $2))
	printf 'interface=%s\ndriver=nl80211\nbridge=br0\nctrl_interface=%s\n' "$iface" "$AP_CTRL"
	printf 'hw_mode=g\nchannel=%s\nssid=%s\n' "$ch" "${ROW_SSID[$1]}"
	# Every hostapd_logger line (authentication included) into the log,
	# stamped (-t): the bench's clock for the air.
	printf 'logger_stdout=-1\nlogger_stdout_level=0\nrrm_neighbor_report=1\nbss_transition=1\n'
	case $1 in
	psk) row_ap psk ;;
	tls)
		printf 'wpa=2\nwpa_key_mgmt=WPA-EAP\nrsn_pairwise=CCMP\nieee8021x=1\neap_server=0\n'
		printf 'own_ip_addr=127.0.0.1\nnas_identifier=ap%s.bench.test\n' "$2"
		printf 'auth_server_addr=127.0.0.1\nauth_server_port=1812\n'
		printf 'auth_server_shared_secret=%s\n' "$RADIUS_SECRET"
		;;
	ft)
		printf 'wpa=2\nwpa_key_mgmt=FT-PSK\nrsn_pairwise=CCMP\nwpa_passphrase=%s\n' "$PASS"
		printf 'mobility_domain=a1b2\nft_psk_generate_local=1\nft_over_ds=0\n'
		printf 'nas_identifier=ap%s.bench.test\nr1_key_holder=02000000f00%s\n' "$2" "$2"
		;;
	esac
}

# roam_row_profile ROW: the profile joind and iwd read.
roam_row_profile() {
	case $1 in
	psk | ft) row_profile psk ;;
	tls) row_profile tls ;;
	esac
}

# roam_row_wpa_network ROW: wpa_supplicant's network block, inside.
roam_row_wpa_network() {
	case $1 in
	psk | tls) row_wpa_network "$1" ;;
	ft) printf '\tssid="%s"\n\tkey_mgmt=FT-PSK\n\tpsk="%s"\n' "${ROW_SSID[$1]}" "$PASS" ;;
	esac
	printf '\tbgscan="simple:30:-70:86400"\n'
}

# roam_row_setup ROW: both access points' configurations and every
# profile; the previous row's profiles removed. Sets ROW, SSID, NTYPE.
roam_row_setup() {
	ROW=$1 SSID=${ROW_SSID[$1]} NTYPE=${ROW_TYPE[$1]}
	rm -f "$WORK"/state/roam-* /var/lib/iwd/roam-*
	roam_row_ap "$ROW" 0 >"$WORK/hostapd-0.conf"
	roam_row_ap "$ROW" 1 >"$WORK/hostapd-1.conf"
	(
		umask 077
		roam_row_profile "$ROW" >"$WORK/state/$SSID.$NTYPE"
		roam_row_profile "$ROW" >"/var/lib/iwd/$SSID.$NTYPE"
		printf 'ctrl_interface=/run/wpa_supplicant\np2p_disabled=1\nnetwork={\n'
		roam_row_wpa_network "$ROW"
		printf '}\n'
	) >"$WORK/wpa_supplicant.conf"
}
