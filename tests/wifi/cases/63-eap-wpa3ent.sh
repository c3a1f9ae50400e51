# shellcheck shell=bash
# tests/wifi/cases/63-eap-wpa3ent.sh - WPA3-Enterprise against hostapd's
# internal EAP server (one hostapd, the namespace of tests/wifi/eap-ap.sh,
# wlan5 borrowed from the security cases), EAP-TLS with a P-384 PKI of its
# own:
#   wlan6    joind-ent-wpa3  AKM 00-0F-AC:5 (802.1X-SHA256), MFP required,
#                            okc=1 (channel 4)
#   wlan5    joind-ent-wpa3  its second BSS, okc=1 (channel 9)
#   wlan6-1  joind-ent-192   AKM :12, the 192-bit mode: GCMP-256,
#                            BIP-GMAC-256, the TLS suite
#                            ECDHE-ECDSA-AES256-GCM-SHA384 (SUITEB192,
#                            TLS 1.2)
# The 192-bit network connects (PMK of 48 octets, SHA-384 KDFs: a wrong
# key fails the handshake's MIC) and passes traffic; an admin's profile
# (OKC=true) dropped into the state directory -> autoconnect joins the
# WPA3-Enterprise network; the BSS it joined turns it away -> autoconnect
# roams to the other one on the PMK the first gave (opportunistic key caching:
# hostapd begins no EAP conversation); joind restarted -> autoconnect
# rejoins from the profile. mac80211_hwsim has no hardware
# crypto, so mac80211's software ciphers (GCMP-256 and BIP-GMAC-256 among
# them) are always there.

# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
P384=$WORK/pki-p384
OKC_PHY=$(cat /sys/class/net/wlan5/phy80211/name)

# The CA, auth.test's server certificate and tlsuser's client certificate
# on P-384 keys, signed with SHA-384 throughout (the 192-bit mode's TLS
# accepts nothing weaker).
pki_p384() {
	local d=$P384.tmp name
	[[ -s $P384/client.pem ]] && return 0
	mkdir -p "$d"
	for name in ca server client; do
		openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out "$d/$name.key"
	done
	openssl req -new -x509 -sha384 -days 30 -key "$d/ca.key" -out "$d/ca.pem" \
		-subj "/O=joind test/CN=joind Test CA P-384" \
		-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
	p384_leaf server /CN=auth.test "extendedKeyUsage=serverAuth
subjectAltName=DNS:auth.test"
	p384_leaf client /CN=tlsuser "extendedKeyUsage=clientAuth"
	chmod 600 "$d"/*.key
	openssl verify -CAfile "$d/ca.pem" "$d/server.pem" "$d/client.pem" >/dev/null ||
		wifi_fail "the P-384 PKI does not verify"
	mv "$d" "$P384"
}

p384_leaf() { # NAME SUBJECT EXTENSIONS
	local d=$P384.tmp
	openssl req -new -sha384 -key "$d/$1.key" -subj "$2" -out "$d/$1.csr"
	printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n%s\n' "$3" \
		>"$d/$1.ext"
	openssl x509 -req -sha384 -days 30 -in "$d/$1.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" \
		-CAcreateserial -extfile "$d/$1.ext" -out "$d/$1.pem" 2>/dev/null ||
		wifi_fail "cannot sign the P-384 $1 certificate"
}

# What every BSS shares (the 192-bit BSS overrides AKM and ciphers after).
wpa3_bss_lines() {
	printf 'wpa=2\nwpa_key_mgmt=WPA-EAP-SHA256\nrsn_pairwise=CCMP\nieee80211w=2\nokc=1\n'
	printf 'tls_flags=[ENABLE-TLSv1.3]\nieee8021x=1\neap_server=1\neap_user_file=%s\n' \
		"$WORK/ent-users"
	printf 'ca_cert=%s\nserver_cert=%s\nprivate_key=%s\n' "$P384/ca.pem" "$P384/server.pem" \
		"$P384/server.key"
}

wpa3_setup() {
	local phy info
	# The cipher suites' selectors: GCMP-256 (9), BIP-GMAC-256 (12).
	for phy in "$ENT_PHY" "$(cat /sys/class/net/wlan2/phy80211/name)"; do
		info=$(iw phy "$phy" info)
		grep -q '(00-0f-ac:9)' <<<"$info" || wifi_fail "$phy offers no GCMP-256"
		grep -q '(00-0f-ac:12)' <<<"$info" || wifi_fail "$phy offers no BIP-GMAC-256"
	done
	pki_p384
	printf '%s\n' '"tlsuser" TLS' >"$WORK/ent-users"
	ip netns add "$ENT_NS"
	for phy in "$ENT_PHY" "$OKC_PHY"; do
		iw phy "$phy" set netns name "$ENT_NS" || wifi_fail "cannot move $phy into $ENT_NS"
	done
	{
		printf 'ctrl_interface=/run/hostapd-ent\ninterface=wlan6\ndriver=nl80211\n'
		printf 'hw_mode=g\nchannel=4\nssid=joind-ent-wpa3\n'
		wpa3_bss_lines
		printf '\nbss=wlan6-1\nbssid=02:00:00:00:06:11\nssid=joind-ent-192\n'
		wpa3_bss_lines
		# Later lines win.
		printf 'wpa_key_mgmt=WPA-EAP-SUITE-B-192\nrsn_pairwise=GCMP-256\n'
		printf 'group_mgmt_cipher=BIP-GMAC-256\nopenssl_ciphers=SUITEB192\n'
		printf 'tls_flags=[DISABLE-TLSv1.3]\n'
	} >"$WORK/hostapd-ent.conf"
	{
		printf 'ctrl_interface=/run/hostapd-ent\ninterface=wlan5\ndriver=nl80211\n'
		printf 'hw_mode=g\nchannel=9\nssid=joind-ent-wpa3\n'
		wpa3_bss_lines
	} >"$WORK/hostapd-ent-b.conf"
	# One process: hostapd's opportunistic key caching spans the BSSes of
	# the process.
	ent_ns hostapd -B -P "$WORK/hostapd-ent.pid" -f "$ENT_HOSTAPD_LOG" \
		"$WORK/hostapd-ent.conf" "$WORK/hostapd-ent-b.conf" || wifi_fail "hostapd ent did not start"
	wifi_poll 30 "hostapd ent beaconing" wpa3_ap_up
	wifi_step "WPA3-Enterprise APs up on $ENT_PHY (wlan6, channel 4), $OKC_PHY (wlan5, channel 9)"
}

wpa3_ap_up() { ent_ap_up && ent_ns iw dev wlan5 info | grep -q ssid; }

wpa3_teardown() {
	wifi_stop_hostapd ent
	ent_ns iw phy "$OKC_PHY" set netns 1 || wifi_fail "cannot move $OKC_PHY back"
	ent_teardown
}

# okc_bss_of_station: the AP interface our station is associated with.
okc_bss_of_station() {
	local i
	for i in wlan6 wlan5; do
		if ent_ns iw dev "$i" station get "$ENT_ADDR" >/dev/null 2>&1; then
			echo "$i"
			return 0
		fi
	done
	return 1
}

# okc_on IFACE: joind connected, through IFACE.
okc_on() {
	[[ $(okc_bss_of_station) == "$1" ]] &&
		jw -t 1 object net.joind.Station1 State=connected "ConnectedNetwork=$ENT_PATH" >/dev/null
}

# tls_profile SSID LINE...: EAP-TLS as tlsuser on the P-384 PKI.
tls_profile() {
	local ssid=$1
	shift
	ent_profile "$ssid" '[Security]' EAP-Method=TLS EAP-Identity=tlsuser \
		"EAP-TLS-CACert=$P384/ca.pem" EAP-TLS-ServerDomainMask=auth.test \
		"EAP-TLS-ClientCert=$P384/client.pem" "EAP-TLS-ClientKey=$P384/client.key" "$@"
}

wpa3_setup
jw -t 40 object $NET "Device=$DEV" Name=joind-ent-wpa3 'KnownNetwork=/' >/dev/null ||
	wifi_fail "joind-ent-wpa3 not listed"

# --------------------------------------------------------- 192-bit mode ---
tls_profile joind-ent-192 '[Settings]' AutoConnect=false
suites=$(log_count 'handshake done, cipher ECDHE-ECDSA-AES256-GCM-SHA384')
ent_connect joind-ent-192
ent_link '(.security == "8021x-suite-b-192") and .mfp and (.pairwise_cipher == "GCMP-256")
	and (.group_cipher == "GCMP-256") and (.group_mgmt_cipher == "BIP-GMAC-256")' ||
	wifi_fail "192-bit: diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
# Nothing but joind's debug log names the TLS suite.
(($(log_count 'handshake done, cipher ECDHE-ECDSA-AES256-GCM-SHA384') > suites)) ||
	wifi_fail "192-bit: the TLS suite was not ECDHE-ECDSA-AES256-GCM-SHA384"
ent_ping wlan6-1
check "WPA3-Enterprise 192-bit (AKM 12, GCMP-256, BIP-GMAC-256, EAP-TLS on P-384): Connect() in ${TOOK} s; ping: $ENT_PING"
# Its profile's removal takes the link and leaves autoconnect on (a
# Disconnect() would turn it off until the next Connect()).
rm "$WORK/state/joind-ent-192.8021x"
jw -t 20 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "the removal of joind-ent-192's profile did not take the link"

# ------------------------------------------ admin's profile, autoconnect ---
t=$(wifi_now)
tls_profile joind-ent-wpa3 '[Settings]' OKC=true
ent_path joind-ent-wpa3
jw -t 60 object net.joind.Station1 State=connected "ConnectedNetwork=$ENT_PATH" >/dev/null ||
	wifi_fail "autoconnect did not join joind-ent-wpa3 from the dropped-in profile"
ent_link '(.security == "8021x-sha256") and .mfp and (.eap_method == "TLS")' ||
	wifi_fail "WPA3-Enterprise: diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
from=$(okc_bss_of_station) || wifi_fail "no AP interface has our station"
grep -qE 'MFP:\s*yes' <<<"$(ent_ns iw dev "$from" station get "$ENT_ADDR")" ||
	wifi_fail "WPA3: AP: station without MFP"
check "admin's profile dropped in: autoconnect joined joind-ent-wpa3 (802.1X-SHA256, MFP on the AP) in $(wifi_since "$t") s"

# ------------------------------------------ opportunistic key caching ---
to=wlan5
[[ $from == wlan6 ]] || to=wlan6
eap_before=$(ent_eap_started_count)
t=$(wifi_now)
# The BSS turns us away (its deny list) but stays up: its PMKSA cache,
# which hostapd's OKC looks into, lives as long as the BSS.
ent_ns hostapd_cli -p /run/hostapd-ent -i "$from" deny_acl ADD_MAC "$ENT_ADDR" >/dev/null ||
	wifi_fail "hostapd_cli deny_acl on $from"
wifi_poll 60 "autoconnect to roam to $to" okc_on "$to"
ent_link '.pmksa_cached == true' ||
	wifi_fail "OKC: pmksa_cached is not true: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
(($(ent_eap_started_count) == eap_before)) || wifi_fail "OKC: hostapd began EAP on $to"
check "$from turned us away: autoconnect joined joind-ent-wpa3 via $to in $(wifi_since "$t") s on the PMK $from gave (OKC: no EAP in hostapd's log, pmksa_cached)"
ent_ns hostapd_cli -p /run/hostapd-ent -i "$from" deny_acl CLEAR >/dev/null ||
	wifi_fail "hostapd_cli deny_acl CLEAR on $from"

t=$(wifi_now)
wifi_restart_joind_same
ent_path joind-ent-wpa3
jw -t 60 object net.joind.Station1 State=connected "ConnectedNetwork=$ENT_PATH" >/dev/null ||
	wifi_fail "joind restarted: autoconnect did not rejoin joind-ent-wpa3"
ent_ping "$(okc_bss_of_station)"
check "joind restarted: autoconnect rejoined joind-ent-wpa3 in $(wifi_since "$t") s; ping: $ENT_PING"
rm "$WORK/state/joind-ent-wpa3.8021x"
jw -t 20 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "the profile's removal did not take the link"

wpa3_teardown
