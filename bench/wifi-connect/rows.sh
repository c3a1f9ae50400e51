# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are guest.sh's
# bench/wifi-connect/rows.sh - the rows of the bench, sourced by guest.sh:
# for each, hostapd's configuration (the same access point for the three
# daemons) and the three daemons' profiles, which say the same thing.
#
#   row   part  SSID        access point (wlan0, channel 6, CCMP)
#   psk   psk   bench-wpa2  WPA2-PSK
#   peap  eap   bench-peap  WPA2-Enterprise, hostapd's internal EAP server
#                           (eap_server=1), PEAP/MSCHAPv2, anonymous outer
#                           identity
#   tls   eap   bench-tls   the same, EAP-TLS with a client certificate
#   hnp   sae   bench-sae   WPA3-Personal, SAE hunting and pecking
#                           (sae_pwe=0), group 19, MFP required
#   h2e   sae   bench-h2e   SAE hash-to-element only (sae_pwe=1), group 19
#   owe   owe   bench-owe   OWE, group 19, MFP required
#
# Profiles: joind reads iwd's format, so joind and iwd get the same file
# (<ssid>.psk, .8021x, .open); wpa_supplicant a network block with the same
# keys (WPA-EAP with the same CA, identity, password, phase 2 and server
# name; sae_pwe=2 globally, so that it does H2E where the access point
# offers it, as joind and iwd do; PMKSA caching on, its default). The
# enterprise rows use the PKI of tests/wired/make-pki.sh, made on the host
# by run.sh with its default RSA-2048 keys (iwd 2.3 signs with the
# kernel's keyring, which takes no EC private keys) and hostapd 2.10's
# default TLS versions (1.0 to 1.2; iwd 2.3 has no TLS 1.3).

PASS=correct-horse-battery
PKI=$WORK/pki
ALL_ROWS=(psk peap tls hnp h2e owe)
declare -A ROW_PART=([psk]=psk [peap]=eap [tls]=eap [hnp]=sae [h2e]=sae [owe]=owe)
declare -A ROW_SSID=([psk]=bench-wpa2 [peap]=bench-peap [tls]=bench-tls
	[hnp]=bench-sae [h2e]=bench-h2e [owe]=bench-owe)
# Network1.Type / iwd's Network.Type: the profile's suffix, the path's tail.
declare -A ROW_TYPE=([psk]=psk [peap]=8021x [tls]=8021x [hnp]=psk [h2e]=psk [owe]=open)
declare -A ROW_TITLE=([psk]="WPA2-PSK"
	[peap]="WPA2-Enterprise PEAP/MSCHAPv2 (TLS 1.2, hostapd's EAP server)"
	[tls]="WPA2-Enterprise EAP-TLS (TLS 1.2, RSA-2048 client certificate)"
	[hnp]="WPA3-Personal SAE hunting and pecking (sae_pwe=0), group 19"
	[h2e]="WPA3-Personal SAE hash-to-element (sae_pwe=1), group 19"
	[owe]="OWE (RFC 8110), group 19")

# row_ap ROW: hostapd's lines after the radio's.
row_ap() {
	case $1 in
	psk) printf 'wpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nwpa_passphrase=%s\n' "$PASS" ;;
	peap | tls)
		printf 'wpa=2\nwpa_key_mgmt=WPA-EAP\nrsn_pairwise=CCMP\nieee8021x=1\neap_server=1\n'
		printf 'eap_user_file=%s\nca_cert=%s\nserver_cert=%s\nprivate_key=%s\n' \
			"$WORK/eap-users" "$PKI/ca.pem" "$PKI/server.pem" "$PKI/server.key"
		;;
	hnp | h2e)
		printf 'wpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\nrsn_pairwise=CCMP\nsae_groups=19\n'
		printf 'sae_password=%s\nsae_pwe=%s\n' "$PASS" "$([[ $1 == h2e ]] && echo 1 || echo 0)"
		;;
	owe) printf 'wpa=2\nwpa_key_mgmt=OWE\nieee80211w=2\nrsn_pairwise=CCMP\nowe_groups=19\n' ;;
	esac
}

# row_profile ROW: the profile joind and iwd read.
row_profile() {
	case $1 in
	psk | hnp | h2e) printf '[Security]\nPassphrase=%s\n' "$PASS" ;;
	peap)
		printf '%s\n' '[Security]' EAP-Method=PEAP EAP-Identity=anonymous@auth.test \
			"EAP-PEAP-CACert=$PKI/ca.pem" EAP-PEAP-ServerDomainMask=auth.test \
			EAP-PEAP-Phase2-Method=MSCHAPV2 EAP-PEAP-Phase2-Identity=peapuser \
			EAP-PEAP-Phase2-Password=peappass
		;;
	tls)
		printf '%s\n' '[Security]' EAP-Method=TLS EAP-Identity=tlsuser \
			"EAP-TLS-CACert=$PKI/ca.pem" EAP-TLS-ServerDomainMask=auth.test \
			"EAP-TLS-ClientCert=$PKI/client.pem" "EAP-TLS-ClientKey=$PKI/client.key"
		;;
	owe) printf '[Settings]\nAutoConnect=true\n' ;;
	esac
}

# row_wpa_network ROW: wpa_supplicant's network block, inside.
row_wpa_network() {
	printf '\tssid="%s"\n' "${ROW_SSID[$1]}"
	case $1 in
	psk)
		printf '\tkey_mgmt=WPA-PSK\n\tpsk=%s\n' \
			"$(wpa_passphrase "${ROW_SSID[$1]}" "$PASS" |
				sed -n 's/^[[:space:]]*psk=\([0-9a-f]\{64\}\)$/\1/p')"
		;;
	peap)
		printf '\tkey_mgmt=WPA-EAP\n\teap=PEAP\n\tanonymous_identity="anonymous@auth.test"\n'
		printf '\tidentity="peapuser"\n\tpassword="peappass"\n\tphase2="auth=MSCHAPV2"\n'
		printf '\tca_cert="%s"\n\tdomain_match="auth.test"\n' "$PKI/ca.pem"
		;;
	tls)
		printf '\tkey_mgmt=WPA-EAP\n\teap=TLS\n\tidentity="tlsuser"\n'
		printf '\tca_cert="%s"\n\tdomain_match="auth.test"\n' "$PKI/ca.pem"
		printf '\tclient_cert="%s"\n\tprivate_key="%s"\n' "$PKI/client.pem" "$PKI/client.key"
		;;
	hnp | h2e) printf '\tkey_mgmt=SAE\n\tieee80211w=2\n\tsae_password="%s"\n' "$PASS" ;;
	owe) printf '\tkey_mgmt=OWE\n\tieee80211w=2\n' ;;
	esac
}

# row_setup ROW: the access point's configuration and every profile; the
# previous row's profiles removed. Sets ROW, SSID, SSID_HEX, NTYPE.
row_setup() {
	ROW=$1 SSID=${ROW_SSID[$1]} NTYPE=${ROW_TYPE[$1]}
	SSID_HEX=$(printf %s "$SSID" | od -An -tx1 | tr -d ' \n')
	rm -f "$WORK"/state/bench-* /var/lib/iwd/bench-*
	{
		printf 'ctrl_interface=/run/hostapd-bench\ninterface=wlan0\ndriver=nl80211\n'
		printf 'hw_mode=g\nchannel=6\nssid=%s\n' "$SSID"
		row_ap "$ROW"
	} >"$WORK/hostapd.conf"
	(
		umask 077
		row_profile "$ROW" >"$WORK/state/$SSID.$NTYPE"
		row_profile "$ROW" >"/var/lib/iwd/$SSID.$NTYPE"
		printf 'ctrl_interface=/run/wpa_supplicant\np2p_disabled=1\nsae_pwe=2\nnetwork={\n'
		row_wpa_network "$ROW"
		printf '}\n'
	) >"$WORK/wpa_supplicant.conf"
}

# The users of hostapd's EAP server: any outer identity for PEAP or TLS,
# tlsuser's certificate, peapuser's MSCHAPv2 password inside PEAP.
printf '%s\n' '"tlsuser" TLS' '* PEAP,TLS' '"peapuser" MSCHAPV2 "peappass" [2]' >"$WORK/eap-users"
