#!/usr/bin/env bash
# run-methods.sh CASE - joind end to end with the password and tunnel
# methods (PEAP, TTLS, PWD, MSCHAPv2) against hostapd's internal EAP server,
# on the wired test bed (lib.sh). Suite 'wired' runs every case; by hand, as
# root from the source tree: JOIND_SOURCE_ROOT=. JOIND_BUILD_ROOT=build \
#   tests/wired/run-methods.sh peap-mschapv2
# Cases: peap-mschapv2[-wrong], import-peap, import-peap-suffix, peap-gtc, peap-agent, peap-agent-cancel,
# peap-resume, ttls-resume, peap-resume-after-failure,
# peap-agent-remember, peap-wrong-pin,
# peap-no-agent,
# ttls-{pap,chap,mschap,mschapv2,eap-md5}, ttls-pap-wrong,
# ttls-mschapv2-wrong, pwd[-wrong], mschapv2[-wrong]; through FreeRADIUS:
# radius-peap-mschapv2[-wrong], radius-ttls-pap.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/lib.sh"

w_hostapd_users() {
	cat <<-'EOF2'
		"pwduser"    PWD       "pwdpass"
		"mschapuser" MSCHAPV2  "mschappass"
		*            PEAP,TTLS
		"peapuser"   MSCHAPV2  "peappass"  [2]
		"gtcuser"    GTC       "gtcpass"   [2]
		"ttlsuser"   TTLS-PAP,TTLS-CHAP,TTLS-MSCHAP,TTLS-MSCHAPV2  "ttlspass"  [2]
		"ttlsmd5"    MD5       "ttlsmd5pass" [2]
	EOF2
}

bed() { w_require; w_pki; w_init; w_netns --supp-down; w_hostapd "$@"; w_bus; }
# hostapd forwarding to FreeRADIUS (most real networks sit behind RADIUS).
rbed() { w_require; w_pki; w_init; w_netns --supp-down; w_radius; w_hostapd --radius; w_bus; }

profile() { # KEY=VALUE...
	local kv
	{
		echo "[Match]"; echo "Interface=$W_IF_S"; echo "[Security]"
		for kv in "$@"; do echo "$kv"; done
	} | w_profile port
}

tunnel() { # METHOD PHASE2-METHOD USER [PASSWORD]
	local p=$1
	profile EAP-Method="$1" EAP-Identity=anonymous@auth.test \
		"EAP-$p-CACert=$W_PKI/ca.pem" "EAP-$p-ServerDomainMask=auth.test" \
		"EAP-$p-Phase2-Method=$2" "EAP-$p-Phase2-Identity=$3" \
		${4:+"EAP-$p-Phase2-Password=$4"}
}

ok() { # METHOD IDENTITY LABEL SECRET
	local ms
	w_joind
	ms=$(w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated)
	echo "MEASURE $3: link-up -> authenticated in $ms ms"
	w_expect_eq EapMethod "$(w_prop EapMethod)" "$1"
	w_expect_eq Identity "$(w_prop Identity)" "$2"
	w_expect_eq LastError "$(w_prop LastError)" ""
	w_expect_no_secrets "$4"
}

bad() { # SECRET
	w_config StartPeriod=1 MaxStart=10 HeldPeriod=30
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed,held >/dev/null
	echo "LastError: $(w_prop LastError)"
	w_expect_match LastError "$(w_prop LastError)" "[Rr]eject|[Ff]ail|refused|wrong"
	w_expect_no_secrets "$1"
}

case_peap_mschapv2() {
	bed; tunnel PEAP MSCHAPV2 peapuser peappass; ok PEAP anonymous@auth.test "PEAP/MSCHAPv2" peappass
	grep -q "Valid cryptobinding TLV received" "$W_DIR/hostapd.log" || w_fail "no crypto binding"
	grep -a -A1 "Peer identity" "$W_DIR/hostapd.log" | grep -q "anonymous@auth.t" || w_fail "outer identity"
}
# joinctl import of an eduroam CAT-style file makes the wired profile.
case_import_peap() {
	bed
	w_eap_config 25 "<ClientSideCredential><OuterIdentity>anonymous@auth.test</OuterIdentity>
		</ClientSideCredential><InnerAuthenticationMethod><EAPMethod><Type>26</Type>
		</EAPMethod></InnerAuthenticationMethod>" >"$W_DIR/campus.eap-config"
	w_joind
	W_PASS=peappass "$W_BUILD/client/joinctl" --session import "$W_DIR/campus.eap-config" \
		"Match.Interface=$W_IF_S" --username peapuser --passphrase-from-env W_PASS ||
		w_fail "joinctl import failed"
	w_joind_stop
	ok PEAP anonymous@auth.test "imported PEAP/MSCHAPv2" peappass
	grep -q "^EAP-PEAP-CACert=embed:" "$W_DIR/state/wired/port.8021x" || w_fail "no embedded CA"
}
# A ServerID is a domain suffix (eduroam CAT, geteduroam, NetworkManager,
# wpa_supplicant): "test" vouches for the server's certificate auth.test,
# one label below it.
case_import_peap_suffix() {
	W_SERVER_ID=test case_import_peap
	grep -qx "EAP-PEAP-ServerDomainMask=test;\*\.test" "$W_DIR/state/wired/port.8021x" ||
		w_fail "the ServerID was not written as a suffix: $(grep DomainMask "$W_DIR/state/wired/port.8021x")"
}
case_peap_mschapv2_wrong() { bed; tunnel PEAP MSCHAPV2 peapuser nopenope; bad nopenope; }
case_peap_gtc() { bed; tunnel PEAP GTC gtcuser gtcpass; ok PEAP anonymous@auth.test "PEAP/GTC" gtcpass; }
case_peap_agent() {
	bed; tunnel PEAP MSCHAPV2 peapuser
	w_joind; w_agent --password peappass
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	cat "$W_DIR/agent.log"
	grep -q "^RequestUserPassword" "$W_DIR/agent.log" || w_fail "agent not asked"
	w_expect_no_secrets peappass
}
case_peap_no_agent() {
	bed; tunnel PEAP MSCHAPV2 peapuser
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	echo "LastError: $(w_prop LastError)"
	w_expect_match LastError "$(w_prop LastError)" "no agent"
}
# The agent cancels the password request: failed (not held) with a LastError
# that says so, the agent is asked once, and joind stays quiet afterwards
# (short start/held periods, so retries would show within the wait).
case_peap_agent_cancel() {
	local starts
	bed; tunnel PEAP MSCHAPV2 peapuser
	w_config StartPeriod=1 MaxStart=10 HeldPeriod=1
	w_joind; w_agent --cancel
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	echo "LastError: $(w_prop LastError)"
	w_expect_match LastError "$(w_prop LastError)" "agent request was cancelled"
	starts=$(w_hostapd_count "received EAPOL-Start")
	sleep 3
	w_expect_eq State "$(w_prop State)" failed
	w_expect_eq "EAPOL-Starts after the failure" "$(w_hostapd_count "received EAPOL-Start")" "$starts"
	w_expect_eq "agent requests" "$(grep -c '^Request' "$W_DIR/agent.log")" 1
	grep -q "^RequestUserPassword $W_PATH" "$W_DIR/agent.log" || w_fail "agent not asked"
}
# EAP-RememberCredentials=true in a tunnel: the inner user name and
# password the agent gave are written back (Phase2 keys), and a new joind
# without any agent authenticates from the file.
case_peap_agent_remember() {
	local f
	bed
	f=$W_DIR/state/wired/port.8021x
	profile EAP-Method=PEAP EAP-Identity=anonymous@auth.test "EAP-PEAP-CACert=$W_PKI/ca.pem" \
		EAP-PEAP-ServerDomainMask=auth.test EAP-PEAP-Phase2-Method=MSCHAPV2 \
		EAP-RememberCredentials=true
	w_joind; w_agent --user peapuser --password peappass
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	grep -q "^RequestUserNameAndPassword" "$W_DIR/agent.log" || w_fail "agent not asked"
	for _ in $(seq 100); do
		grep -q "^EAP-PEAP-Phase2-Password=peappass$" "$f" && break
		sleep 0.02
	done
	grep -q "^EAP-PEAP-Phase2-Identity=peapuser$" "$f" || w_fail "identity not remembered"
	grep -q "^EAP-PEAP-Phase2-Password=peappass$" "$f" || w_fail "password not remembered"
	w_expect_eq "mode of $f" "$(stat -c %a "$f")" 600
	w_stop_pid "$W_AGENT_PID" wired-helper
	W_AGENT_PID=
	w_joind_stop
	w_hostapd_stop
	w_hostapd
	w_joind
	w_wait --timeout 10 State authenticated >/dev/null
	w_expect_eq "agent requests" "$(grep -c '^Request' "$W_DIR/agent.log")" 1
	w_expect_no_secrets peappass
}
# TLS session resumption: hostapd keeps sessions (tls_session_lifetime);
# the re-authentication Reauthenticate() starts offers the first one's
# session, hostapd resumes it and skips phase 2.
resume() { # LABEL
	local ms1 ms2
	w_joind
	ms1=$(w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated)
	ms2=$(w_wait --run sh -c "gdbus call --session --dest net.joind --object-path $W_PATH \
		--method net.joind.Port8021x1.Reauthenticate >/dev/null" -- State authenticating,authenticated)
	# joind's own figure: EAPOL-Start (or Request/Identity) to EAP-Success.
	echo "MEASURE $1 (EAPOL-Start -> EAP-Success): full handshake" \
		"$(grep -o '[0-9.]* ms)$' "$W_DIR/joind.log" | sed -n 1p | tr -d ')')," \
		"resumed $(grep -o '[0-9.]* ms)$' "$W_DIR/joind.log" | sed -n 2p | tr -d ')')" \
		"(D-Bus to D-Bus: $ms1 ms, $ms2 ms)"
	w_expect_eq "resumed sessions" "$(w_hostapd_count "Resuming previous session")" 1
	w_expect_eq "hostapd authorizations" "$(w_hostapd_count ": authorizing port")" 2
	grep -q "TLS session resumed" "$W_DIR/joind.log" || w_fail "joind did not resume"
	w_expect_eq LastError "$(w_prop LastError)" ""
}
case_peap_resume() {
	bed tls_session_lifetime=3600; tunnel PEAP MSCHAPV2 peapuser peappass
	resume "PEAP/MSCHAPv2"
	# The fast reconnect's crypto binding (IPMK and CMK from TK) checks out.
	w_expect_eq "valid crypto bindings" "$(w_hostapd_count "Valid cryptobinding TLV")" 2
}
case_ttls_resume() {
	bed tls_session_lifetime=3600; tunnel TTLS Tunneled-MSCHAPv2 ttlsuser ttlspass
	resume "TTLS/MSCHAPv2"
}
# A failed authentication's session is never offered again: hostapd first
# knows another password for peapuser (failure), then, restarted with the
# right one, sees a full handshake (joind retries after its held period in
# the same EAP session, which would otherwise offer the failed session).
case_peap_resume_after_failure() {
	w_hostapd_users() { printf '%s\n' '* PEAP' '"peapuser" MSCHAPV2 "otherpass" [2]'; }
	bed tls_session_lifetime=3600; tunnel PEAP MSCHAPV2 peapuser peappass
	w_config StartPeriod=1 MaxStart=10 HeldPeriod=1
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	w_hostapd_users() { printf '%s\n' '* PEAP' '"peapuser" MSCHAPV2 "peappass" [2]'; }
	w_hostapd_stop; w_hostapd tls_session_lifetime=3600 # it would ignore the MAC for 5 s
	w_wait --timeout 15 State authenticated >/dev/null
	w_expect_eq "sessions offered" "$(grep -c "offering the TLS session" "$W_DIR/joind.log")" 0
	w_expect_eq "resumed sessions" "$(w_hostapd_count "Resuming previous session")" 0
}
# A pinned key that is not the server's, though the CA vouches for it:
# refused as the certificate arrives, before the inner identity and
# password go out (hostapd never sees a phase 2 response); LastError names
# the server's certificate and its real pin.
case_peap_wrong_pin() {
	local pin
	pin=sha256/$(openssl x509 -pubkey -noout -in "$W_PKI/server.pem" |
		openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)
	bed
	tunnel PEAP MSCHAPV2 peapuser peappass
	printf 'EAP-PEAP-ServerKeyPin=%s\n' \
		"sha256/$(openssl x509 -pubkey -noout -in "$W_PKI/other-ca.pem" |
			openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)" \
		>>"$W_DIR/state/wired/port.8021x"
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed,held >/dev/null
	echo "LastError: $(w_prop LastError)"
	w_expect_match LastError "$(w_prop LastError)" "server key not trusted"
	w_expect_match LastError "$(w_prop LastError)" "CN=auth\.test"
	[[ $(w_prop LastError) == *"$pin"* ]] || w_fail "LastError lacks the server's pin $pin"
	grep -q "Phase 2" "$W_DIR/hostapd.log" && w_fail "hostapd got as far as phase 2"
	grep -q "peapuser" "$W_DIR/hostapd.log" && w_fail "the inner identity went out"
	[[ $(w_hostapd_count ": authorizing port") == 0 ]] || w_fail "hostapd authorized the port"
	w_expect_no_secrets peappass
}
case_ttls_pap() { bed; tunnel TTLS Tunneled-PAP ttlsuser ttlspass; ok TTLS anonymous@auth.test "TTLS/PAP" ttlspass; }
case_ttls_chap() { bed; tunnel TTLS Tunneled-CHAP ttlsuser ttlspass; ok TTLS anonymous@auth.test "TTLS/CHAP" ttlspass; }
case_ttls_mschap() { bed; tunnel TTLS Tunneled-MSCHAP ttlsuser ttlspass; ok TTLS anonymous@auth.test "TTLS/MSCHAP" ttlspass; }
case_ttls_mschapv2() { bed; tunnel TTLS Tunneled-MSCHAPv2 ttlsuser ttlspass; ok TTLS anonymous@auth.test "TTLS/MSCHAPv2" ttlspass; }
case_ttls_eap_md5() { bed; tunnel TTLS MD5 ttlsmd5 ttlsmd5pass; ok TTLS anonymous@auth.test "TTLS/EAP-MD5" ttlsmd5pass; }
case_ttls_pap_wrong() { bed; tunnel TTLS Tunneled-PAP ttlsuser nopenope; bad nopenope; }
case_ttls_mschapv2_wrong() { bed; tunnel TTLS Tunneled-MSCHAPv2 ttlsuser nopenope; bad nopenope; }
case_peap_gtc_wrong() { bed; tunnel PEAP GTC gtcuser nopenope; bad nopenope; }
case_ttls_chap_wrong() { bed; tunnel TTLS Tunneled-CHAP ttlsuser nopenope; bad nopenope; }
case_ttls_mschap_wrong() { bed; tunnel TTLS Tunneled-MSCHAP ttlsuser nopenope; bad nopenope; }
case_ttls_eap_md5_wrong() { bed; tunnel TTLS MD5 ttlsmd5 nopenope; bad nopenope; }
# Through RADIUS: FreeRADIUS saw the anonymous outer identity, the inner one
# only inside the tunnel, and answered with Access-Accept/Reject.
radius_saw() { # OUTCOME INNER-USER
	[[ $(w_radius_count "Sent $1") -ge 1 ]] || w_fail "FreeRADIUS sent no $1"
	grep -q 'User-Name = "anonymous@auth.test"' "$W_DIR/radiusd.log" ||
		w_fail "FreeRADIUS did not see the outer identity"
	grep -q "Virtual server inner-tunnel" "$W_DIR/radiusd.log" || w_fail "no inner tunnel"
	grep -q "User-Name = \"$2\"" "$W_DIR/radiusd.log" || w_fail "FreeRADIUS did not see $2"
}
case_radius_peap_mschapv2() {
	rbed; tunnel PEAP MSCHAPV2 peapuser peappass
	ok PEAP anonymous@auth.test "RADIUS PEAP/MSCHAPv2" peappass
	radius_saw Access-Accept peapuser
}
case_radius_ttls_pap() {
	rbed; tunnel TTLS Tunneled-PAP ttlsuser ttlspass
	ok TTLS anonymous@auth.test "RADIUS TTLS/PAP" ttlspass
	radius_saw Access-Accept ttlsuser
}
case_radius_peap_mschapv2_wrong() {
	rbed; tunnel PEAP MSCHAPV2 peapuser nopenope
	bad nopenope
	radius_saw Access-Reject peapuser
	[[ $(w_radius_count "Sent Access-Accept") == 0 ]] || w_fail "FreeRADIUS accepted"
}
case_pwd() { bed pwd_group=19; profile EAP-Method=PWD EAP-Identity=pwduser EAP-Password=pwdpass; ok PWD pwduser "EAP-PWD" pwdpass; }
case_pwd_wrong() { bed pwd_group=19; profile EAP-Method=PWD EAP-Identity=pwduser EAP-Password=nopenope; bad nopenope; }
case_mschapv2() { bed; profile EAP-Method=MSCHAPV2 EAP-Identity=mschapuser EAP-Password=mschappass; ok MSCHAPV2 mschapuser "EAP-MSCHAPv2" mschappass; }
case_mschapv2_wrong() { bed; profile EAP-Method=MSCHAPV2 EAP-Identity=mschapuser EAP-Password=nopenope; bad nopenope; }

w_run_case "${1:?usage: run-methods.sh CASE}"
