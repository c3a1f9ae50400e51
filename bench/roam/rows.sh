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
#   ftds roam-ftds  the same with FT over the DS advertised (ft_over_ds=1):
#                   the FT Request and Response go through the access
#                   point left, passed on to the target over RRB
#   ftsae roam-ftsae  FT-SAE only, MFP required: the first association
#                   runs SAE, a roam FT over the air
#   ft8021x roam-ft8021x  FT-802.1X only, EAP-TLS against FreeRADIUS: the
#                   first association runs full EAP, a roam FT over the air
#                   with the PMK-R1 pushed over RRB (no EAP, no RADIUS)
# Both access points advertise neighbour reports and BSS transition (as
# deployed networks do) and each lists the other as its neighbour
# (hostapd_cli set_neighbor). Each has a bridge of its own, br-ft1 and
# br-ft2, joined by a veth pair (tests/wifi/ft-lib.sh's RRB path: two
# hostapd processes on one bridge do not hear each other's RRB frames),
# with the host behind both on br-ft1 (guest.sh). wpa_supplicant gets
# NetworkManager's background scan setting (bgscan "simple:30:-70:86400"):
# without a bgscan module it asks for no signal events and never roams on
# a signal drop.

# shellcheck source=SCRIPTDIR/../wifi-connect/rows.sh
source "$JOIND_SOURCE_ROOT/bench/wifi-connect/rows.sh"
# shellcheck source=SCRIPTDIR/../../tests/wifi/ft-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-lib.sh"
ALL_ROWS=(psk tls ft ftds ftsae ft8021x)
ROW_SSID[psk]=roam-psk ROW_SSID[tls]=roam-tls ROW_SSID[ft]=roam-ft ROW_SSID[ftds]=roam-ftds
ROW_SSID[ftsae]=roam-ftsae ROW_SSID[ft8021x]=roam-ft8021x
ROW_TYPE[ft]=psk ROW_TYPE[ftds]=psk ROW_TYPE[ftsae]=psk ROW_TYPE[ft8021x]=8021x
ROW_TITLE[psk]="PSK reassociation (WPA2-PSK, 4-way handshake)"
ROW_TITLE[tls]="802.1X + PMKSA (EAP-TLS against FreeRADIUS, the PMKSA cached at the target offered)"
ROW_TITLE[ft]="FT-PSK over the air (mobility domain a1b2)"
ROW_TITLE[ftds]="FT-PSK over the DS (mobility domain a1b2, ft_over_ds=1)"
ROW_TITLE[ftsae]="FT-SAE over the air (mobility domain a1b2, MFP required)"
ROW_TITLE[ft8021x]="FT-802.1X over the air (EAP-TLS against FreeRADIUS at the first association)"
AP_CTRL=/run/hostapd-bench-roam

# row_uses_radius ROW: its access points are FreeRADIUS's clients.
row_uses_radius() { [[ $1 == tls || $1 == ft8021x ]]; }

# roam_row_radius: hostapd's lines for FreeRADIUS behind it;
# RADIUS_SECRET is tests/wifi/eap-radius.sh's (guest.sh sources it).
roam_row_radius() {
	printf 'ieee8021x=1\neap_server=0\nown_ip_addr=127.0.0.1\n'
	printf 'auth_server_addr=127.0.0.1\nauth_server_port=1812\n'
	printf 'auth_server_shared_secret=%s\n' "$RADIUS_SECRET"
}

# roam_row_ap ROW N: hostapd's configuration of access point N (0 or 1).
# The FT rows over RRB take ft-lib.sh's key holders (ft_ap_lines: the
# radio's lines, mobility domain a1b2, R0KH-ID apN.joind.test, r0kh and
# r1kh naming the other, the PMK-R1 pushed).
roam_row_ap() {
	local iface=wlan$2 ch=$((1 + 10 * $2))
	case $1 in
	ftds | ftsae | ft8021x) ft_ap_lines $(($2 + 1)) "$iface" "$ch" "wlan$((1 - $2))" "${ROW_SSID[$1]}" ;;
	*)
		printf 'interface=%s\ndriver=nl80211\nbridge=br-ft%s\n' "$iface" $(($2 + 1))
		printf 'hw_mode=g\nchannel=%s\nssid=%s\n' "$ch" "${ROW_SSID[$1]}"
		;;
	esac
	printf 'ctrl_interface=%s\n' "$AP_CTRL"
	# Every hostapd_logger line (authentication included) into the log,
	# stamped (-t): the bench's clock for the air.
	printf 'logger_stdout=-1\nlogger_stdout_level=0\nrrm_neighbor_report=1\nbss_transition=1\n'
	case $1 in
	psk) row_ap psk ;;
	tls)
		printf 'wpa=2\nwpa_key_mgmt=WPA-EAP\nrsn_pairwise=CCMP\nnas_identifier=ap%s.bench.test\n' "$2"
		roam_row_radius
		;;
	ft)
		printf 'wpa=2\nwpa_key_mgmt=FT-PSK\nrsn_pairwise=CCMP\nwpa_passphrase=%s\n' "$PASS"
		printf 'mobility_domain=a1b2\nft_psk_generate_local=1\nft_over_ds=0\n'
		printf 'nas_identifier=ap%s.bench.test\nr1_key_holder=02000000f00%s\n' "$2" "$2"
		;;
	ftds)
		printf 'wpa_key_mgmt=FT-PSK\nwpa_passphrase=%s\nft_psk_generate_local=1\n' "$PASS"
		printf 'ft_over_ds=1\n'
		;;
	ftsae) printf 'wpa_key_mgmt=FT-SAE\nieee80211w=2\nsae_groups=19\nsae_password=%s\n' "$PASS" ;;
	ft8021x)
		printf 'wpa_key_mgmt=FT-EAP\n'
		roam_row_radius
		;;
	esac
}

# roam_row_profile ROW: the profile joind and iwd read.
roam_row_profile() {
	case $1 in
	psk | ft | ftds | ftsae) row_profile psk ;;
	tls | ft8021x) row_profile tls ;;
	esac
}

# roam_row_wpa_network ROW: wpa_supplicant's network block, inside.
roam_row_wpa_network() {
	case $1 in
	psk | tls) row_wpa_network "$1" ;;
	ft | ftds) printf '\tssid="%s"\n\tkey_mgmt=FT-PSK\n\tpsk="%s"\n' "${ROW_SSID[$1]}" "$PASS" ;;
	ftsae)
		printf '\tssid="%s"\n\tkey_mgmt=FT-SAE\n\tieee80211w=2\n' "${ROW_SSID[$1]}"
		printf '\tsae_password="%s"\n' "$PASS"
		;;
	ft8021x)
		row_wpa_network tls | sed -e "s/roam-tls/${ROW_SSID[$1]}/" -e 's/key_mgmt=WPA-EAP/key_mgmt=FT-EAP/'
		;;
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
