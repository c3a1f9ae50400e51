# shellcheck shell=bash
# tests/wifi/cases/60-eap.sh - WPA2/WPA3-Enterprise (802.1X) through the
# core's EAP engine, against hostapd's internal EAP server on wlan6
# (tests/wifi/eap-ap.sh): PEAP/MSCHAPv2 from an admin's profile with
# traffic across the air, a wrong password (AuthenticationFailed, nothing
# saved), a wrong CA (refused, the certificate and its pin in the error
# and in joinctl station show, then pinned with joinctl known-networks
# trust and accepted; a pin of another key refused), the password from the caller's agent
# (remembered with EAP-RememberCredentials) and the agent's Cancel
# (Aborted), EAP-TLS over TLS 1.3, EAP-TLS with the key on a PKCS#11
# token (the token missing, then a wrong PIN: each a Connect() error naming
# token and object, then the next Connect() succeeds), and WPA3-Enterprise
# (AKM 5, MFP).

# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
ent_setup
HELPER=$BUILD/tests/wired/wired-helper
agent_call() { # LOG ARGS...: the agent makes Network1.Connect() itself
	local log=$1
	shift
	DBUS_SESSION_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket \
		timeout 120 "$HELPER" agent "$@" --call "$ENT_PATH" Network1.Connect >"$log" 2>&1
}

# ------------------------------------------------------------ PEAP/MSCHAPv2 ---
ent_peap_profile joind-ent peappass
ent_connect joind-ent
ent_link '(.security == "8021x") and (.eap_method == "PEAP") and
	(.eap_identity == "anonymous@auth.test") and (.pmksa_cached == false) and
	(.tls_version | test("^TLSv1\\.[23]$")) and (.tls_cipher | startswith("TLS_")) and
	(.server_subject | contains("CN=auth.test")) and (.server_pin | startswith("sha256/"))' ||
	wifi_fail "PEAP: diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
grep -qE 'authorized:\s*yes' <<<"$(ent_ns iw dev wlan6 station get "$ENT_ADDR")" ||
	wifi_fail "PEAP: AP: station not authorized"
ent_ping wlan6
"$BUILD/client/joinctl" station wlan2 show >"$WORK/ent-show.txt" || wifi_fail "joinctl station show"
for want in 'EAP method *PEAP' 'EAP identity *anonymous@auth.test' 'PMKSA cached *no' \
	'TLS version *TLSv1' 'Server *CN=auth.test'; do
	grep -qE "$want" "$WORK/ent-show.txt" || wifi_fail "joinctl show lacks /$want/: $(cat "$WORK/ent-show.txt")"
done
grep -q peappass "$JOIND_LOG" && wifi_fail "the password reached the log"
check "PEAP/MSCHAPv2 (WPA2-Enterprise): Connect() in ${TOOK} s, authorized on the AP, diagnostics and joinctl show: PEAP as anonymous@auth.test, TLS version, cipher and server; ping AP -> station: $ENT_PING"
wifi_disconnect

# ---------------------------------------------------------- wrong password ---
ent_peap_profile joind-ent nopenope
cp "$WORK/state/joind-ent.8021x" "$WORK/ent-wrong.8021x"
ent_connect_fails joind-ent
grep -q 'net.joind.Error.AuthenticationFailed' <<<"$ENT_ERR" ||
	wifi_fail "wrong password: no AuthenticationFailed: $ENT_ERR"
cmp -s "$WORK/state/joind-ent.8021x" "$WORK/ent-wrong.8021x" || wifi_fail "the profile was rewritten"
check "wrong password: $(sed 's/.*AuthenticationFailed: //' <<<"$ENT_ERR" | head -c 200); profile untouched"

# ---------------------------------------------------------------- wrong CA ---
# pin_of PEM: the sha256/ pin of its public key, as openssl computes it.
pin_of() {
	echo "sha256/$(openssl x509 -pubkey -noout -in "$1" | openssl pkey -pubin -outform der |
		openssl dgst -sha256 -binary | base64)"
}
SERVER_PIN=$(pin_of "$ENT_PKI/server.pem")
# refused_shown WHAT: `joinctl --json station wlan2 show` names the server
# the attempt refused: its certificate, its pin, the network to trust.
refused_shown() {
	wifi_station_json wlan2 --arg pin "$SERVER_PIN" '.refused_server |
		(.network == "joind-ent") and (.subject | contains("CN=auth.test")) and
		(.issuer | length > 0) and (.not_before | length > 0) and
		(.not_after | length > 0) and (.pin == $pin) and
		(.pin_setting == "EAP-PEAP-ServerKeyPin")' >/dev/null ||
		wifi_fail "$1: station show: $("$BUILD/client/joinctl" --json station wlan2 show | jq -c .refused_server)"
}
ent_profile joind-ent '[Security]' EAP-Method=PEAP EAP-Identity=anonymous@auth.test \
	"EAP-PEAP-CACert=$ENT_PKI/other-ca.pem" EAP-PEAP-ServerDomainMask=auth.test \
	EAP-PEAP-Version-Max=1.2 \
	EAP-PEAP-Phase2-Method=MSCHAPV2 EAP-PEAP-Phase2-Identity=peapuser \
	EAP-PEAP-Phase2-Password=peappass '[Settings]' AutoConnect=false
ent_connect_fails joind-ent
grep -q 'net.joind.Error.AuthenticationFailed' <<<"$ENT_ERR" ||
	wifi_fail "wrong CA: no AuthenticationFailed: $ENT_ERR"
for want in 'CN=auth.test' 'issued by' 'valid from' "$SERVER_PIN" 'joinctl known-networks trust joind-ent'; do
	grep -qF "$want" <<<"$ENT_ERR" || wifi_fail "wrong CA: the error lacks '$want': $ENT_ERR"
done
refused_shown "wrong CA"
check "server certificate from another CA refused: $(sed 's/.*AuthenticationFailed: //' <<<"$ENT_ERR" | head -c 200); joinctl station show: the certificate and its pin"
# The way through: the certificate shown, its pin written over D-Bus once
# confirmed (--yes), and the next Connect() accepts exactly that key.
"$BUILD/client/joinctl" --yes known-networks trust joind-ent >"$WORK/ent-trust.txt" ||
	wifi_fail "joinctl known-networks trust: $(cat "$WORK/ent-trust.txt")"
grep -q 'CN=auth.test' "$WORK/ent-trust.txt" || wifi_fail "trust: no certificate shown"
wifi_poll 10 "the pin written" grep -q '^EAP-PEAP-ServerKeyPin=sha256/' "$WORK/state/joind-ent.8021x"
ent_connect joind-ent
wifi_station_json wlan2 '.refused_server == null' >/dev/null ||
	wifi_fail "pinned: station show still shows a refused server"
check "joinctl known-networks trust: pin written ($(grep -o 'sha256/[^ ]*' "$WORK/ent-trust.txt" | head -1)), Connect() in ${TOOK} s"
wifi_disconnect

# A pin of another key: the server, though it is the same as before, is
# refused, and the error and station show name the key it has.
"$BUILD/client/joinctl" profile set joind-ent \
	"Security.EAP-PEAP-ServerKeyPin=$(pin_of "$ENT_PKI/other-ca.pem")" >/dev/null ||
	wifi_fail "joinctl profile set: the other pin"
ent_connect_fails joind-ent
grep -qF "$SERVER_PIN" <<<"$ENT_ERR" || wifi_fail "other pin: the error lacks the server's pin: $ENT_ERR"
refused_shown "other pin"
check "a pin of another key: the server refused, its real pin in the error and in station show"

# ---------------------------------------------------- the caller's agent ---
ent_peap_profile joind-ent '' EAP-RememberCredentials=true
agent_call "$WORK/ent-agent.log" --password peappass || wifi_fail "agent: $(cat "$WORK/ent-agent.log")"
jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$ENT_PATH" >/dev/null ||
	wifi_fail "agent: not connected"
grep -q '^RequestUserPassword ' "$WORK/ent-agent.log" ||
	wifi_fail "agent: not asked for the password: $(cat "$WORK/ent-agent.log")"
wifi_poll 10 "the password remembered" grep -qx 'EAP-PEAP-Phase2-Password=peappass' \
	"$WORK/state/joind-ent.8021x"
[[ $(stat -c %a "$WORK/state/joind-ent.8021x") == 600 ]] || wifi_fail "profile mode is not 0600"
check "password from the calling client's agent (RequestUserPassword), remembered in the profile (0600)"
wifi_disconnect

ent_peap_profile joind-ent ''
agent_call "$WORK/ent-cancel.log" --cancel && wifi_fail "Connect() succeeded although the agent cancelled"
grep -q 'net.joind.Error.Aborted' "$WORK/ent-cancel.log" ||
	wifi_fail "agent cancel: no Aborted: $(cat "$WORK/ent-cancel.log")"
jw -t 10 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "agent cancel: not disconnected"
grep -q 'Phase2-Password' "$WORK/state/joind-ent.8021x" && wifi_fail "agent cancel: a password was saved"
check "agent cancels: Connect() fails with Aborted, nothing saved"

# -------------------------------------------------------- EAP-TLS, TLS 1.3 ---
ent_profile joind-ent '[Security]' EAP-Method=TLS EAP-Identity=tlsuser \
	"EAP-TLS-CACert=$ENT_PKI/ca.pem" EAP-TLS-ServerDomainMask=auth.test \
	"EAP-TLS-ClientCert=$ENT_PKI/client.pem" "EAP-TLS-ClientKey=$ENT_PKI/client.key" \
	EAP-TLS-Version-Min=1.3 '[Settings]' AutoConnect=false
ent_connect joind-ent
ent_link '(.eap_method == "TLS") and (.eap_identity == "tlsuser") and (.tls_version == "TLSv1.3")' ||
	wifi_fail "TLS: diagnostics"
ent_ping wlan6
check "EAP-TLS with TLS 1.3 only: Connect() in ${TOOK} s; ping: $ENT_PING"
wifi_disconnect
rm "$WORK/state/joind-ent.8021x"

# ------------------------------- EAP-TLS, the client key on a PKCS#11 token ---
# SoftHSM2's default token directory lies on the VM's overlay (the host's
# stays untouched); joind reaches the module through p11-kit's proxy and
# the libp11 engine, as for a smart card.
softhsm2-util --init-token --free --label joind-wifi --pin wifi-pin-7 --so-pin so-pin-7 >/dev/null ||
	wifi_fail "PKCS#11: no SoftHSM2 token"
softhsm2-util --import "$ENT_PKI/client.key" --token joind-wifi --label tlsuser --id 01 \
	--pin wifi-pin-7 >/dev/null || wifi_fail "PKCS#11: the key was not imported"
token_profile() { # PIN
	ent_profile joind-ent '[Security]' EAP-Method=TLS EAP-Identity=tlsuser \
		"EAP-TLS-CACert=$ENT_PKI/ca.pem" EAP-TLS-ServerDomainMask=auth.test \
		"EAP-TLS-ClientCert=$ENT_PKI/client.pem" \
		"EAP-TLS-ClientKey=pkcs11:token=joind-wifi;object=tlsuser;type=private" \
		"EAP-TLS-ClientKeyPassphrase=$1" '[Settings]' AutoConnect=false
}
# Token errors fail Connect() with a sentence naming token and object
# (net.joind.Error.Failed, not AuthenticationFailed: the network did not
# refuse us), and leave the network usable: once the card is back and the
# PIN right, the next Connect() of the same joind succeeds.
tokens=$(sed -n 's/^directories.tokendir *= *//p' /etc/softhsm/softhsm2.conf)
tokens=${tokens%/}
joind_pid=$(pgrep -x joind)
token_profile wifi-pin-7
mv "$tokens" "$tokens.away" && mkdir "$tokens" || wifi_fail "PKCS#11: cannot take the token away"
ent_connect_fails joind-ent
grep -q 'net.joind.Error.Failed' <<<"$ENT_ERR" &&
	grep -q 'token “joind-wifi”, object “tlsuser” is not available' <<<"$ENT_ERR" ||
	wifi_fail "PKCS#11, token missing: Connect() error: $ENT_ERR"
rmdir "$tokens" && mv "$tokens.away" "$tokens"
check "PKCS#11 token missing: Connect() fails: $(sed 's/.*Error.Failed: //' <<<"$ENT_ERR" | head -c 160)"
token_profile wrong-Pn7
ent_connect_fails joind-ent
grep -q 'net.joind.Error.Failed' <<<"$ENT_ERR" &&
	grep -q 'token “joind-wifi”, object “tlsuser” refused the PIN' <<<"$ENT_ERR" ||
	wifi_fail "PKCS#11, wrong PIN: Connect() error: $ENT_ERR"
grep -q 'wrong-Pn7' "$JOIND_LOG" && wifi_fail "PKCS#11: the wrong PIN is in joind's log"
check "PKCS#11 wrong PIN: Connect() fails: $(sed 's/.*Error.Failed: //' <<<"$ENT_ERR" | head -c 160)"
token_profile wifi-pin-7
ent_connect joind-ent
[[ $(pgrep -x joind) == "$joind_pid" ]] || wifi_fail "PKCS#11: joind restarted meanwhile"
ent_link '(.eap_method == "TLS") and (.eap_identity == "tlsuser")' || wifi_fail "PKCS#11: diagnostics"
grep -q 'client key is on the PKCS#11 token “joind-wifi”, object “tlsuser”' "$JOIND_LOG" ||
	wifi_fail "PKCS#11: no log line names the token"
grep -q 'wifi-pin-7' "$JOIND_LOG" && wifi_fail "PKCS#11: the PIN is in joind's log"
ent_ping wlan6
check "WPA2-Enterprise EAP-TLS with the key on a PKCS#11 token (SoftHSM2), after the token errors, same joind: Connect() in ${TOOK} s; ping: $ENT_PING"
wifi_disconnect
rm "$WORK/state/joind-ent.8021x"

# --------------------------------------------------------- WPA3-Enterprise ---
ent_peap_profile joind-ent-wpa3 peappass
ent_connect joind-ent-wpa3
ent_link '(.security == "8021x-sha256") and .mfp and (.eap_method == "PEAP")' ||
	wifi_fail "WPA3-Enterprise: diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
ap_sta=$(ent_ns iw dev wlan6-1 station get "$ENT_ADDR") || wifi_fail "WPA3: AP has no station"
grep -qE 'MFP:\s*yes' <<<"$ap_sta" || wifi_fail "WPA3: AP: station without MFP"
ent_ping wlan6-1
check "WPA3-Enterprise (802.1X-SHA256, MFP required): Connect() in ${TOOK} s, MFP on the AP; ping: $ENT_PING"
wifi_disconnect
rm "$WORK/state/joind-ent-wpa3.8021x"

ent_teardown
