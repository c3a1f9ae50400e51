# shellcheck shell=bash
# tests/wifi/cases/62-eap-radius.sh - WPA2-Enterprise with hostapd as the
# RADIUS client of FreeRADIUS 3.2 (tests/wifi/eap-radius.sh), as most real
# networks are: PEAP/MSCHAPv2 with an anonymous outer identity connects and
# passes traffic, FreeRADIUS saw only the anonymous identity outside and
# the real one inside the tunnel; a wrong password fails with
# AuthenticationFailed and nothing saved; a server certificate from another
# CA, and one whose name misses ServerDomainMask, are refused before any
# inner credential left (FreeRADIUS's log shows no inner request), and
# joinctl station show names the certificate (and the mask it missed); EAP-TLS
# with a PKCS#12 bundle over TLS 1.3 connects.

# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
# shellcheck source=../eap-radius.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-radius.sh"
radius_setup

# peap_profile PASSWORD CA DOMAIN-MASK: PEAP/MSCHAPv2 as peapuser behind
# anonymous@auth.test.
peap_profile() {
	ent_profile joind-radius '[Security]' EAP-Method=PEAP EAP-Identity=anonymous@auth.test \
		"EAP-PEAP-CACert=$2" "EAP-PEAP-ServerDomainMask=$3" \
		EAP-PEAP-Phase2-Method=MSCHAPV2 EAP-PEAP-Phase2-Identity=peapuser \
		"EAP-PEAP-Phase2-Password=$1" '[Settings]' AutoConnect=false
}

# refused_early WHAT [JQ]: Connect() failed with AuthenticationFailed,
# FreeRADIUS was reached and saw no inner request; `joinctl station show`
# names the refused server (and satisfies JQ over it).
refused_early() {
	ent_connect_fails joind-radius
	grep -q 'net.joind.Error.AuthenticationFailed' <<<"$ENT_ERR" ||
		wifi_fail "$1: no AuthenticationFailed: $ENT_ERR"
	wifi_station_json wlan2 ".refused_server | (.network == \"joind-radius\") and
		(.subject | contains(\"CN=auth.test\")) and (.pin | startswith(\"sha256/\")) and
		${2:-true}" >/dev/null ||
		wifi_fail "$1: station show: $("$BUILD/client/joinctl" --json station wlan2 show | jq -c .refused_server)"
	[[ $(radius_outer_names) == anonymous@auth.test ]] ||
		wifi_fail "$1: FreeRADIUS saw no request from anonymous@auth.test: $(radius_outer_names)"
	if radius_since | grep -E 'inner-tunnel|peapuser|Sent Access-Accept'; then
		wifi_fail "$1: an inner request reached FreeRADIUS"
	fi
	check "$1 refused before any inner credential (FreeRADIUS: outer requests only): $(sed 's/.*AuthenticationFailed: //' <<<"$ENT_ERR" | head -c 160)"
}

# ------------------------------------------------------------ PEAP/MSCHAPv2 ---
radius_mark
peap_profile peappass "$ENT_PKI/ca.pem" auth.test
ent_connect joind-radius
ent_link '(.security == "8021x") and (.eap_method == "PEAP") and
	(.eap_identity == "anonymous@auth.test")' ||
	wifi_fail "PEAP: diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
ent_ping wlan6-1
[[ $(radius_outer_names) == anonymous@auth.test ]] ||
	wifi_fail "FreeRADIUS saw outer identities other than anonymous@auth.test: $(radius_outer_names)"
radius_saw 'Virtual server inner-tunnel received request' ||
	wifi_fail "FreeRADIUS ran no inner tunnel"
radius_saw 'User-Name = "peapuser"' || wifi_fail "FreeRADIUS did not see peapuser inside"
radius_saw 'Sent Access-Accept' || wifi_fail "FreeRADIUS sent no Access-Accept"
grep -q peappass "$JOIND_LOG" && wifi_fail "the password reached the log"
check "PEAP/MSCHAPv2 via FreeRADIUS: Connect() in ${TOOK} s; FreeRADIUS: outer anonymous@auth.test only, peapuser in the inner tunnel, Access-Accept; ping: $ENT_PING"
wifi_disconnect

# ---------------------------------------------------------- wrong password ---
radius_mark
peap_profile nopenope "$ENT_PKI/ca.pem" auth.test
cp "$WORK/state/joind-radius.8021x" "$WORK/radius-wrong.8021x"
ent_connect_fails joind-radius
grep -q 'net.joind.Error.AuthenticationFailed' <<<"$ENT_ERR" ||
	wifi_fail "wrong password: no AuthenticationFailed: $ENT_ERR"
cmp -s "$WORK/state/joind-radius.8021x" "$WORK/radius-wrong.8021x" ||
	wifi_fail "the profile was rewritten"
radius_saw 'Sent Access-Reject' || wifi_fail "FreeRADIUS sent no Access-Reject"
check "wrong password: FreeRADIUS rejected, AuthenticationFailed: $(sed 's/.*AuthenticationFailed: //' <<<"$ENT_ERR" | head -c 160); profile untouched"

# ------------------------------------------------- wrong CA, wrong domain ---
radius_mark
peap_profile peappass "$ENT_PKI/other-ca.pem" auth.test
refused_early "server certificate from another CA"
radius_mark
peap_profile peappass "$ENT_PKI/ca.pem" radius.other.test
refused_early "server name outside ServerDomainMask" \
	'(.domain_mask_setting == "EAP-PEAP-ServerDomainMask") and (.names | contains("auth.test"))'

# -------------------------------------------- EAP-TLS, PKCS#12, TLS 1.3 ---
radius_mark
radius_tls_profile joind-radius
ent_connect joind-radius
ent_link '(.eap_method == "TLS") and (.eap_identity == "tlsuser")' || wifi_fail "TLS: diagnostics"
radius_saw 'Sent Access-Accept' || wifi_fail "FreeRADIUS sent no Access-Accept"
radius_saw 'TLS 1\.3|TLSv1\.3' || wifi_fail "FreeRADIUS did not negotiate TLS 1.3"
ent_ping wlan6-1
check "EAP-TLS (PKCS#12 ClientKeyBundle, TLS 1.3 only) via FreeRADIUS: Connect() in ${TOOK} s; ping: $ENT_PING"
wifi_disconnect
rm "$WORK/state/joind-radius.8021x"

radius_teardown
