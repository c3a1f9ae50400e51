# shellcheck shell=bash
# tests/wifi/cases/92-eap-matrix.sh - on demand (the wifi-matrix suite):
# every EAP method joind offers on WiFi against both servers of
# tests/wifi/eap-radius.sh, hostapd's internal EAP server (joind-ent) and
# FreeRADIUS 3.2 behind hostapd (joind-radius): PEAP/MSCHAPv2, PEAP/GTC,
# TTLS/PAP, TTLS/MSCHAPv2, TTLS with EAP-MD5 inside, EAP-TLS with a PKCS#12
# bundle over TLS 1.3 and EAP-pwd. Each connects (the method in the
# diagnostics; FreeRADIUS's Access-Accept on its side) and passes traffic
# across the air. hostapd's tunnels run over TLS 1.3 (the PEAP crypto
# binding with hostapd's keys), FreeRADIUS's over TLS 1.2 (its limit for
# PEAP and TTLS).

# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
# shellcheck source=../eap-radius.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-radius.sh"
radius_setup

# tunnel_lines METHOD INNER USER PASSWORD: a PEAP or TTLS profile's
# [Security] lines behind anonymous@auth.test.
tunnel_lines() {
	local m=$1
	printf '%s\n' "EAP-Method=$m" EAP-Identity=anonymous@auth.test \
		"EAP-$m-CACert=$ENT_PKI/ca.pem" "EAP-$m-ServerDomainMask=auth.test" \
		"EAP-$m-Phase2-Method=$2" "EAP-$m-Phase2-Identity=$3" "EAP-$m-Phase2-Password=$4"
}

# method_lines NAME: the [Security] lines of one row of the matrix.
method_lines() {
	case $1 in
	PEAP/MSCHAPv2) tunnel_lines PEAP MSCHAPV2 peapuser peappass ;;
	PEAP/GTC) tunnel_lines PEAP GTC gtcuser gtcpass ;;
	TTLS/PAP) tunnel_lines TTLS Tunneled-PAP ttlsuser ttlspass ;;
	TTLS/MSCHAPv2) tunnel_lines TTLS Tunneled-MSCHAPv2 ttlsuser ttlspass ;;
	TTLS/EAP-MD5) tunnel_lines TTLS MD5 ttlsmd5 ttlsmd5pass ;;
	TLS) printf '%s\n' EAP-Method=TLS EAP-Identity=tlsuser "EAP-TLS-CACert=$ENT_PKI/ca.pem" \
		EAP-TLS-ServerDomainMask=auth.test "EAP-TLS-ClientKeyBundle=$ENT_PKI/client.p12" \
		EAP-TLS-ClientKeyPassphrase=whatever EAP-TLS-Version-Min=1.3 ;;
	PWD) printf '%s\n' EAP-Method=PWD EAP-Identity=pwduser EAP-Password=pwdpass ;;
	*) wifi_fail "no matrix row $1" ;;
	esac
}

# row SSID AP-IFACE METHOD: connect with METHOD, traffic, disconnect.
row() {
	local ssid=$1 iface=$2 name=$3 lines
	mapfile -t lines < <(method_lines "$name")
	radius_mark
	ent_profile "$ssid" '[Security]' "${lines[@]}" '[Settings]' AutoConnect=false
	ent_connect "$ssid"
	ent_link ".eap_method == \"${name%%/*}\"" ||
		wifi_fail "$name on $ssid: diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
	if [[ $ssid == joind-radius ]]; then
		radius_saw 'Sent Access-Accept' ||
			wifi_fail "$name: FreeRADIUS sent no Access-Accept"
	fi
	ent_ping "$iface"
	check "$name on $ssid: Connect() in ${TOOK} s; ping: $ENT_PING"
	wifi_disconnect
	rm "$WORK/state/$ssid.8021x"
}

for name in PEAP/MSCHAPv2 PEAP/GTC TTLS/PAP TTLS/MSCHAPv2 TTLS/EAP-MD5 TLS PWD; do
	row joind-ent wlan6 "$name"
	row joind-radius wlan6-1 "$name"
done

radius_teardown
