#!/usr/bin/env bash
# run-case.sh CASE - one wired 802.1X test against hostapd, in fresh
# namespaces (see lib.sh). meson runs one process per case (suite 'wired');
# by hand: JOIND_SOURCE_ROOT=. JOIND_BUILD_ROOT=build tests/wired/run-case.sh md5
# (W_KEEP=1 keeps the logs). Exit 0 pass, 1 fail, 77 skip.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"

# ---- profiles ----------------------------------------------------------------

profile_md5() { # [PASSWORD [IDENTITY]]
	w_profile port <<-EOF
		[Match]
		Interface=$W_IF_S
		[Security]
		EAP-Method=MD5
		EAP-Identity=${2:-md5user}
		EAP-Password=${1:-md5pass}
	EOF
}

# EAP-MD5 without a password, with a comment of the admin's: the agent's
# answer is remembered in it.
profile_md5_remember() {
	profile_md5
	sed -i -e '1i # provisioned by the test' \
		-e 's/^EAP-Password=.*/EAP-RememberCredentials=true/' "$W_DIR/state/wired/port.8021x"
}

# profile_tls KEY=VALUE...: the EAP-TLS profile with these [Security] keys
# added or replaced (an empty value drops the key).
profile_tls() {
	local -A keys=(
		[EAP-Method]=TLS
		[EAP-Identity]=tlsuser
		[EAP-TLS-CACert]=$W_PKI/ca.pem
		[EAP-TLS-ClientCert]=$W_PKI/client.pem
		[EAP-TLS-ClientKey]=$W_PKI/client.key
		[EAP-TLS-ServerDomainMask]=auth.test
	)
	local kv k
	for kv in "$@"; do
		keys[${kv%%=*}]=${kv#*=}
	done
	{
		echo "[Match]"
		echo "Interface=$W_IF_S"
		echo "[Security]"
		for k in "${!keys[@]}"; do
			[[ -n ${keys[$k]} ]] && echo "$k=${keys[$k]}"
		done
	} | w_profile port
}

# ---- common steps ------------------------------------------------------------

# Bed with hostapd (extra conf lines as arguments), bus, no joind yet.
bed() {
	w_require
	w_pki
	w_init
	w_netns --supp-down
	w_hostapd "$@"
	w_bus
}

# joind on a down link, then link up: prints and returns link-up -> State.
link_up_until() { # VALUE LABEL
	local ms
	w_joind
	w_expect_eq State "$(w_prop State)" idle
	ms=$(w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State "$1")
	echo "MEASURE $2: link-up -> $1 in $ms ms"
	# Not a failure, but worth a look: show the story.
	if [[ ${ms%.*} -gt 1000 ]]; then
		echo "---- slow: joind's side ----" >&2
		grep -E "joind-wired|joind-eap" "$W_DIR/joind.log" >&2 || true
		echo "---- slow: hostapd's side ----" >&2
		grep -E "EAPOL|EAP Packet|retrans" "$W_DIR/hostapd.log" >&2 || true
	fi
}

expect_authenticated() { # METHOD IDENTITY
	w_expect_eq State "$(w_prop State)" authenticated
	w_expect_eq EapMethod "$(w_prop EapMethod)" "$1"
	w_expect_eq Identity "$(w_prop Identity)" "$2"
	w_expect_eq LastError "$(w_prop LastError)" ""
	w_expect_match Profile "$(w_prop Profile)" "/wired/port\.8021x$"
	[[ $(w_hostapd_count ": authorizing port") -ge 1 ]] ||
		w_fail "hostapd did not authorize the port"
}

# ---- cases -------------------------------------------------------------------

case_md5() {
	bed
	profile_md5
	link_up_until authenticated "EAP-MD5"
	expect_authenticated MD5 md5user
	w_expect_no_secrets md5pass
}

case_md5_wrong_password() {
	bed
	w_config StartPeriod=1 MaxStart=10 HeldPeriod=1
	profile_md5 wrongpass
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed,held >/dev/null
	w_expect_match LastError "$(w_prop LastError)" "[Rr]eject|[Ff]ail"
	echo "LastError: $(w_prop LastError)"
	# After the held period the PAE starts again on its own.
	w_wait --timeout 5 State connecting >/dev/null
	[[ $(w_hostapd_count "received EAPOL-Start") -ge 2 ]] ||
		w_fail "hostapd saw no second EAPOL-Start after the held period"
	w_expect_no_secrets wrongpass
}

# No password in the profile: the agent is asked for it.
case_md5_agent() {
	bed
	w_profile port <<-EOF
		[Match]
		Interface=$W_IF_S
		[Security]
		EAP-Method=MD5
		EAP-Identity=md5user
	EOF
	w_joind
	w_agent --password md5pass
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	expect_authenticated MD5 md5user
	grep -q "^RequestUserPassword $W_PATH" "$W_DIR/agent.log" ||
		w_fail "the agent was not asked for the password: $(cat "$W_DIR/agent.log")"
	w_expect_no_secrets md5pass
	# EAP-RememberCredentials defaults to false: the file stays as it was.
	sleep 0.2
	if grep -q "EAP-Password" "$W_DIR/state/wired/port.8021x"; then
		w_fail "the agent's password was written to the profile"
	fi
}

# EAP-RememberCredentials=true: the password the agent gave is written into
# the profile (0600, the rest of the file kept) once it worked; the port goes
# on without a new authentication; a Reauthenticate() and a new joind with
# no agent at all authenticate from the file.
case_md5_agent_remember() {
	local f
	bed
	f=$W_DIR/state/wired/port.8021x
	profile_md5_remember
	chmod 644 "$f" # no secret in it yet
	w_joind
	w_agent --password md5pass
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	expect_authenticated MD5 md5user
	for _ in $(seq 100); do
		grep -q "^EAP-Password=md5pass$" "$f" && break
		sleep 0.02
	done
	grep -q "^EAP-Password=md5pass$" "$f" || w_fail "the password was not remembered: $(cat "$f")"
	w_expect_eq "mode of $f" "$(stat -c %a "$f")" 600
	grep -q "^# provisioned by the test$" "$f" || w_fail "the comment was lost"
	grep -q "^EAP-RememberCredentials=true$" "$f" || w_fail "the other keys were lost"
	grep -q "remembered EAP-Password in $f" "$W_DIR/joind.log" || w_fail "joind did not log it"
	# The live reload of the rewritten file did not restart the port.
	sleep 0.3
	w_expect_eq State "$(w_prop State)" authenticated
	w_expect_eq "hostapd authorizations" "$(w_hostapd_count ": authorizing port")" 1
	w_wait --run gdbus call --session --dest net.joind --object-path "$W_PATH" \
		--method net.joind.Port8021x1.Reauthenticate -- State authenticated >/dev/null
	w_expect_eq "hostapd authorizations" "$(w_hostapd_count ": authorizing port")" 2
	w_expect_eq "agent requests" "$(grep -c '^Request' "$W_DIR/agent.log")" 1
	# A new joind, no agent: the file is enough. (A fresh hostapd: it ignores
	# the MAC for 5 s after the EAPOL-Logoff of the stopping joind.)
	w_stop_pid "$W_AGENT_PID" wired-helper
	W_AGENT_PID=
	w_joind_stop
	w_hostapd_stop
	w_hostapd
	w_joind
	w_wait --timeout 10 State authenticated >/dev/null
	expect_authenticated MD5 md5user
	w_expect_no_secrets md5pass
}

# No password and no agent: failed with a NoAgent sentence and no retries;
# the moment an agent registers, the port authenticates on its own.
case_md5_no_agent() {
	bed
	w_profile port <<-EOF
		[Match]
		Interface=$W_IF_S
		[Security]
		EAP-Method=MD5
		EAP-Identity=md5user
	EOF
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	w_expect_match LastError "$(w_prop LastError)" "no agent is registered"
	echo "LastError: $(w_prop LastError)"
	sleep 0.3
	w_expect_eq State "$(w_prop State)" failed
	[[ $(w_hostapd_count "received EAPOL-Logoff") == 1 ]] || w_fail "no EAPOL-Logoff"
	awk '/received EAPOL-Logoff/ { a = 1 } a && /received EAPOL-Start/ { exit 1 }' \
		"$W_DIR/hostapd.log" || w_fail "the failed port retried"
	# hostapd ignores the MAC for 5 s after that Logoff; a fresh one does not.
	w_hostapd_stop
	w_hostapd
	w_agent --password md5pass
	w_wait State authenticated >/dev/null
	expect_authenticated MD5 md5user
}

case_tls12() {
	bed
	profile_tls EAP-TLS-Version-Max=1.2
	link_up_until authenticated "EAP-TLS 1.2"
	expect_authenticated TLS tlsuser
	grep -q "TLSv1.2 handshake done" "$W_DIR/joind.log" || w_fail "not TLS 1.2"
}

case_tls13() {
	bed "tls_flags=[ENABLE-TLSv1.3]"
	profile_tls EAP-TLS-Version-Min=1.3
	link_up_until authenticated "EAP-TLS 1.3"
	expect_authenticated TLS tlsuser
	grep -q "TLSv1.3 handshake done" "$W_DIR/joind.log" || w_fail "not TLS 1.3"
}

case_tls_pkcs12() {
	bed
	profile_tls EAP-TLS-ClientCert="$W_PKI/client.p12" EAP-TLS-ClientKey="$W_PKI/client.p12" \
		EAP-TLS-ClientKeyPassphrase=whatever
	link_up_until authenticated "EAP-TLS PKCS#12"
	expect_authenticated TLS tlsuser
	w_expect_no_secrets whatever
}

# The pin of a certificate's key, as ServerKeyPin takes it.
pin_of() { # PEM
	echo "sha256/$(openssl x509 -pubkey -noout -in "$1" | openssl pkey -pubin -outform der |
		openssl dgst -sha256 -binary | base64)"
}

# iwd's ClientKeyBundle (PKCS#12 with a passphrase) and an embedded CA:
# one file, no certificate path but the bundle's.
case_tls_bundle_embedded() {
	bed
	{
		echo "[Match]"
		echo "Interface=$W_IF_S"
		echo "[Security]"
		echo "EAP-Method=TLS"
		echo "EAP-Identity=tlsuser"
		echo "EAP-TLS-CACert=embed:campus_ca"
		echo "EAP-TLS-ServerDomainMask=auth.test"
		echo "EAP-TLS-ClientKeyBundle=$W_PKI/client.p12"
		echo "EAP-TLS-ClientKeyPassphrase=whatever"
		echo "[@pem@campus_ca]"
		cat "$W_PKI/ca.pem"
	} | w_profile port
	link_up_until authenticated "EAP-TLS ClientKeyBundle + embedded CA"
	expect_authenticated TLS tlsuser
	w_expect_eq ProfileError "$(port_profile_error)" ""
	w_expect_no_secrets whatever
}

# A pinned server key and no CA at all: authenticated.
case_tls_pin_no_ca() {
	bed
	profile_tls EAP-TLS-CACert= "EAP-TLS-ServerKeyPin=$(pin_of "$W_PKI/server.pem")"
	link_up_until authenticated "EAP-TLS ServerKeyPin, no CA"
	expect_authenticated TLS tlsuser
	grep -q "ServerKeyPin" "$W_DIR/joind.log" && w_fail "joind complained about the pin"
	return 0
}

# Nothing to trust the server by (iwd would accept any server): refused
# once the server has shown its certificate, the port never authorized,
# and LastError gives the pin that would let it through.
case_tls_no_ca() {
	local err
	bed
	profile_tls EAP-TLS-CACert=
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed,held >/dev/null
	err=$(w_prop LastError)
	echo "LastError: $err"
	w_expect_match LastError "$err" "nothing to verify the server by"
	[[ $err == *"EAP-TLS-ServerKeyPin=$(pin_of "$W_PKI/server.pem")"* ]] ||
		w_fail "LastError lacks the pin to set"
	[[ $(w_hostapd_count ": authorizing port") == 0 ]] || w_fail "hostapd authorized the port"
}

# The way through a refusal: no CA, so the server is refused; LastError and
# the log name its certificate (subject, issuer, validity, pin) and the
# command; `joinctl wired trust` refuses to pin without a confirmation,
# then with --yes shows the certificate and has joind write the pin (0600,
# over ProfileManager1); the next attempt authenticates, and the
# diagnostics show the TLS version, cipher and the server it trusted.
case_tls_trust() {
	local joinctl=$W_BUILD/client/joinctl f err out pin cert part
	bed
	f=$W_DIR/state/wired/port.8021x
	pin=$(pin_of "$W_PKI/server.pem")
	profile_tls EAP-TLS-CACert=
	w_joind
	# Nothing seen yet, nothing to pin (exit 4, NotFound).
	"$joinctl" --session --yes wired trust "$W_IF_S" >/dev/null 2>&1 && w_fail "trusted an unseen server"
	w_expect_eq "trust before any attempt: exit status" "$?" 4
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed,held >/dev/null
	err=$(w_prop LastError)
	echo "LastError: $err"
	for part in "CN=auth.test" "issued by" "valid from" "$pin" "joinctl wired trust $W_IF_S"; do
		[[ $err == *"$part"* ]] || w_fail "LastError lacks '$part'"
	done
	grep -F "joinctl wired trust $W_IF_S" "$W_DIR/joind.log" | grep -qF "$pin" ||
		w_fail "no log line names the pin and the command"
	if "$joinctl" --session wired trust "$W_IF_S" </dev/null >/dev/null 2>&1; then
		w_fail "trust without a terminal and without --yes pinned the server"
	fi
	grep -q ServerKeyPin "$f" && w_fail "the pin was written unconfirmed"
	# hostapd holds the MAC for its quietPeriod (60 s) after the failure; a
	# fresh one does not.
	w_hostapd_stop
	w_hostapd
	out=$("$joinctl" --session --yes wired trust "$W_IF_S")
	echo "$out"
	[[ $out == *"CN=auth.test"* && $out == *"$pin"* ]] || w_fail "trust did not show the certificate"
	grep -qxF "EAP-TLS-ServerKeyPin=$pin" "$f" || w_fail "no pin in the profile: $(cat "$f")"
	w_expect_eq "mode of $f" "$(stat -c %a "$f")" 600
	w_wait --timeout 20 State authenticated >/dev/null
	expect_authenticated TLS tlsuser
	cert=$("$joinctl" --session daemon diagnostics |
		jq -c ".devices[] | select(.name == \"$W_IF_S\") | .port8021x.server_certificate")
	echo "diagnostics: $cert"
	w_expect_eq "trusted" "$(jq -r .trusted <<<"$cert")" true
	w_expect_match "tls_version" "$(jq -r .tls_version <<<"$cert")" '^TLSv1\.[23]$'
	w_expect_match "cipher" "$(jq -r .cipher <<<"$cert")" '^TLS_'
	w_expect_match "subject" "$(jq -r .subject <<<"$cert")" 'CN=auth\.test'
	w_expect_eq "pin" "$(jq -r .pin <<<"$cert")" "$pin"
}

case_tls_key_passphrase_profile() {
	bed
	profile_tls EAP-TLS-ClientKey="$W_PKI/client.enc.key" EAP-TLS-ClientKeyPassphrase=whatever
	link_up_until authenticated "EAP-TLS encrypted PKCS#8, passphrase in the profile"
	expect_authenticated TLS tlsuser
	w_expect_no_secrets whatever
}

case_tls_key_passphrase_agent() {
	bed
	profile_tls EAP-TLS-ClientKey="$W_PKI/client.enc.key"
	w_joind
	w_agent --passphrase whatever
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	expect_authenticated TLS tlsuser
	grep -q "^RequestPrivateKeyPassphrase $W_PATH" "$W_DIR/agent.log" ||
		w_fail "the agent was not asked for the key passphrase: $(cat "$W_DIR/agent.log")"
	w_expect_no_secrets whatever
}

case_tls_no_agent() {
	bed
	profile_tls EAP-TLS-ClientKey="$W_PKI/client.enc.key"
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	w_expect_match LastError "$(w_prop LastError)" "[Aa]gent"
	echo "LastError: $(w_prop LastError)"
	# A local failure ends the conversation: EAPOL-Logoff, and no retry.
	sleep 0.3
	w_expect_eq State "$(w_prop State)" failed
}

case_tls_untrusted_server() {
	bed
	profile_tls EAP-TLS-CACert="$W_PKI/other-ca.pem"
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	w_expect_match LastError "$(w_prop LastError)" "server certificate.*not trusted"
	echo "LastError: $(w_prop LastError)"
	[[ $(w_hostapd_count ": authorizing port") == 0 ]] || w_fail "hostapd authorized the port"
}

case_tls_domain_mismatch() {
	bed
	profile_tls EAP-TLS-ServerDomainMask=other.test
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	w_expect_match LastError "$(w_prop LastError)" "auth\.test|other\.test|domain|name"
	echo "LastError: $(w_prop LastError)"
}

case_tls_expired_server() {
	W_SERVER_CERT=$W_PKI/server-expired.pem
	bed
	profile_tls
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	w_expect_match LastError "$(w_prop LastError)" "[Ee]xpired"
	echo "LastError: $(w_prop LastError)"
}

# A port no profile matches is left alone: no frame reaches hostapd.
case_no_profile() {
	bed
	w_profile other <<-EOF
		[Match]
		Interface=${W_IF_S}x
		[Security]
		EAP-Method=MD5
		EAP-Identity=md5user
		EAP-Password=md5pass
	EOF
	w_joind
	ip -n "$W_NS_S" link set "$W_IF_S" up
	sleep 0.5
	w_expect_eq State "$(w_prop State)" idle
	w_expect_eq Profile "$(w_prop Profile)" ""
	local rx
	rx=$(ip netns exec "$W_NS_A" cat "/sys/class/net/$W_IF_A/statistics/rx_packets")
	w_expect_eq "frames received by the authenticator" "$rx" 0
	[[ $(w_hostapd_count "EAPOL") == 0 ]] || w_fail "hostapd logged EAPOL traffic"
	# Reauthenticate()/Logoff() have nothing to work with.
	if w_call Reauthenticate 2>"$W_DIR/err"; then
		w_fail "Reauthenticate() succeeded without a profile"
	fi
	grep -q "net.joind.Error.NotFound" "$W_DIR/err" || w_fail "unexpected error: $(cat "$W_DIR/err")"
}

case_carrier() {
	bed
	profile_md5
	link_up_until authenticated "EAP-MD5"
	# The authenticator's end goes down: joind's end loses carrier.
	w_wait --run ip -n "$W_NS_A" link set "$W_IF_A" down -- State idle >/dev/null
	local ms
	ms=$(w_wait --run ip -n "$W_NS_A" link set "$W_IF_A" up -- State authenticated)
	echo "MEASURE EAP-MD5: carrier return -> authenticated in $ms ms"
	[[ $(w_hostapd_count "received EAPOL-Start") -ge 2 ]] || w_fail "no second EAPOL-Start"
}

case_profile_edit() {
	bed
	profile_md5
	link_up_until authenticated "EAP-MD5"
	# Same file, another account: the port authenticates again with it.
	profile_md5 otherpass md5other
	w_wait --timeout 10 Identity md5other >/dev/null
	w_wait State authenticated >/dev/null
	expect_authenticated MD5 md5other
	[[ $(w_hostapd_count "received EAPOL-Start") -ge 2 ]] || w_fail "no new EAPOL-Start"
	# Gone: EAPOL-Logoff, and the port is left alone.
	rm "$W_DIR/state/wired/port.8021x"
	w_wait --timeout 10 State idle >/dev/null
	w_expect_eq Profile "$(w_prop Profile)" ""
	sleep 0.1
	[[ $(w_hostapd_count "received EAPOL-Logoff") -ge 1 ]] || w_fail "hostapd saw no EAPOL-Logoff"
}

# The port's ProfileError, read through `joinctl --json wired show` ("" when
# none).
port_profile_error() {
	"$W_BUILD/client/joinctl" --session --json wired show "$W_IF_S" |
		jq -r '.profile_error // ""'
}

wait_profile_error() { # REGEX (matched against ProfileError; ^$ for none)
	local e
	for _ in $(seq 250); do
		e=$(port_profile_error)
		[[ $e =~ $1 ]] && return 0
		sleep 0.04
	done
	w_fail "ProfileError is '$e', expected to match '$1'"
}

# An administrator breaks the profile of an authorised port mid-edit: the
# port keeps the version read before (still authorised, no Logoff, no new
# authentication) and ProfileError names the file and line, as it does for
# a FIFO in its place; fixed, it is picked up; deleted, the port logs off.
case_profile_broken() {
	local f starts
	bed
	f=$W_DIR/state/wired/port.8021x
	profile_md5
	link_up_until authenticated "EAP-MD5"
	w_expect_eq ProfileError "$(port_profile_error)" ""
	starts=$(w_hostapd_count "received EAPOL-Start")
	printf '[Match]\nInterface=%s\n[Security\nEAP-Method=MD5\n' "$W_IF_S" | w_profile port
	wait_profile_error "port\.8021x:3:"
	sleep 0.5
	expect_authenticated MD5 md5user
	w_expect_eq Profile "$(w_prop Profile)" "$f"
	w_expect_match "ProfileError over D-Bus" "$(w_prop ProfileError)" "port\.8021x:3:"
	[[ $(w_hostapd_count "received EAPOL-Logoff") == 0 ]] || w_fail "the port logged off"
	w_expect_eq "EAPOL-Starts" "$(w_hostapd_count "received EAPOL-Start")" "$starts"
	# Unreadable for another reason (not a regular file): kept all the same.
	mkfifo -m 600 "$f.fifo"
	mv "$f.fifo" "$f"
	wait_profile_error "not a regular file"
	expect_authenticated MD5 md5user
	# Fixed (another account): picked up, the error gone.
	profile_md5 otherpass md5other
	w_wait --timeout 10 Identity md5other >/dev/null
	w_wait State authenticated >/dev/null
	expect_authenticated MD5 md5other
	w_expect_eq ProfileError "$(port_profile_error)" ""
	# Deleted: forgotten, EAPOL-Logoff.
	rm "$f"
	w_wait --timeout 10 State idle >/dev/null
	w_expect_eq Profile "$(w_prop Profile)" ""
	w_expect_eq ProfileError "$(port_profile_error)" ""
	sleep 0.1
	[[ $(w_hostapd_count "received EAPOL-Logoff") -ge 1 ]] || w_fail "hostapd saw no EAPOL-Logoff"
}

case_logoff() {
	bed
	profile_md5
	link_up_until authenticated "EAP-MD5"
	w_call Logoff
	w_expect_eq State "$(w_prop State)" idle
	sleep 0.1
	[[ $(w_hostapd_count "received EAPOL-Logoff") == 1 ]] || w_fail "hostapd saw no EAPOL-Logoff"
	# hostapd treats EAPOL-Logoff like an EAP-Failure and ignores the MAC
	# for 5 s, so only check that Reauthenticate() starts over at once (the
	# carrier case covers a full second authentication).
	w_wait --run gdbus call --session --dest net.joind --object-path "$W_PATH" \
		--method net.joind.Port8021x1.Reauthenticate -- State connecting >/dev/null
	sleep 0.1
	[[ $(w_hostapd_count "received EAPOL-Start") -ge 2 ]] || w_fail "no EAPOL-Start after Reauthenticate()"
}

# joinctl drives the port: logoff shows the port idle; reauth returns once
# the new authentication is over, which needs the State change to reach it
# before the method's reply (else it sees "idle" and returns at once).
case_joinctl() {
	local joinctl=$W_BUILD/client/joinctl out
	[[ -x $joinctl ]] || w_fail "no $joinctl"
	bed
	profile_md5
	link_up_until authenticated "EAP-MD5"
	out=$("$joinctl" --session --json wired logoff "$W_IF_S")
	w_expect_eq "joinctl wired logoff: state" "$(jq -r .state <<<"$out")" idle
	# hostapd ignores the MAC for 5 s after a Logoff; a fresh one does not.
	w_hostapd_stop
	w_hostapd
	out=$("$joinctl" --session --json wired reauth "$W_IF_S")
	w_expect_eq "joinctl wired reauth: state" "$(jq -r .state <<<"$out")" authenticated
	out=$("$joinctl" --session --json wired list)
	w_expect_eq "joinctl wired list" "$(jq -r '.[0].device + " " + .[0].state' <<<"$out")" \
		"$W_IF_S authenticated"
}

# SIGKILL at $FAULTS_KILLS (10 in CI; suite 'faults') random moments of
# wired authentications that write: each round the profile has no password
# and EAP-RememberCredentials, joind starts on the port, the agent
# registers, the carrier comes up, the agent answers and joind writes the
# password into the profile (about 10 ms after the link-up here); the kill
# comes within 40 ms of the link-up: before, during or after the write
# (20 kills: 4 before, 16 after, one left a temporary). After each, the
# profile is the old one or the new one,
# whole; each start removes what a kill left; the last joind started
# authenticates.
case_killed_auth() {
	local f i remembered=0 left=0
	bed
	# hostapd ignores EAPOL-Start for a few seconds after a failure:
	# joind asks again every second.
	w_config StartPeriod=1 HeldPeriod=1
	f=$W_DIR/state/wired/port.8021x
	for i in $(seq "${FAULTS_KILLS:-10}"); do
		ip -n "$W_NS_S" link set "$W_IF_S" down
		profile_md5_remember
		w_joind
		[[ -z $(find "$W_DIR/state" -name '.*.joind-tmp-*') ]] ||
			w_fail "kill $i: temporaries after the start: $(find "$W_DIR/state" -name '.*')"
		w_agent --password md5pass
		ip -n "$W_NS_S" link set "$W_IF_S" up
		sleep "0.$(printf '%03d' $((RANDOM % 40)))"
		kill -9 "$W_JOIND_PID"
		wait "$W_JOIND_PID" 2>/dev/null || true
		W_JOIND_PID=
		w_stop_pid "$W_AGENT_PID" wired-helper
		left=$((left + $(find "$W_DIR/state" -name '.*.joind-tmp-*' | wc -l)))
		grep -qx "EAP-RememberCredentials=true" "$f" || w_fail "kill $i: the profile is not whole: $(cat "$f")"
		! grep -q "^EAP-Password=" "$f" || grep -qx "EAP-Password=md5pass" "$f" ||
			w_fail "kill $i: the password is half written: $(cat "$f")"
		remembered=$((remembered + $(grep -c "^EAP-Password=md5pass$" "$f" || true)))
	done
	echo "MEASURE killed: ${FAULTS_KILLS:-10} kills, $remembered after the password was remembered, $left temporaries left by them"
	ip -n "$W_NS_S" link set "$W_IF_S" down
	w_joind
	[[ -z $(find "$W_DIR/state" -name '.*.joind-tmp-*') ]] || w_fail "temporaries after the last start"
	w_agent --password md5pass
	w_wait --timeout 20 --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	expect_authenticated MD5 md5user
}

case_sigterm() {
	bed
	profile_md5
	link_up_until authenticated "EAP-MD5"
	w_joind_stop
	sleep 0.1
	[[ $(w_hostapd_count "received EAPOL-Logoff") == 1 ]] || w_fail "hostapd saw no EAPOL-Logoff"
	grep -q "joind is stopping" "$W_DIR/joind.log" || w_fail "joind did not log its logoff"
}

# hostapd keeps TLS sessions (tls_session_lifetime): a re-authentication
# resumes the first one's (no certificates), hostapd's periodic ones too.
case_tls_resume() {
	bed tls_session_lifetime=3600 eap_reauth_period=2
	profile_tls
	link_up_until authenticated "EAP-TLS"
	w_wait --timeout 5 State authenticating,authenticated >/dev/null
	w_expect_eq "resumed sessions" "$(w_hostapd_count "EAP-TLS: Resuming previous session")" 1
	grep -q "TLS session resumed" "$W_DIR/joind.log" || w_fail "joind did not resume"
	expect_authenticated TLS tlsuser
}

# hostapd's periodic re-authentication (its Request/Identity) keeps the port
# authenticated.
case_reauth_period() {
	bed eap_reauth_period=1
	profile_md5
	link_up_until authenticated "EAP-MD5"
	w_wait --timeout 5 State authenticating,authenticated >/dev/null
	w_wait --timeout 5 State authenticating,authenticated >/dev/null
	[[ $(w_hostapd_count ": authorizing port") -ge 3 ]] || w_fail "hostapd did not re-authorize"
	# No EAPOL-Start once authorized: the re-authentications were hostapd's.
	awk '/: authorizing port/ { a = 1 } a && /received EAPOL-Start/ { exit 1 }' \
		"$W_DIR/hostapd.log" || w_fail "joind sent EAPOL-Start while authenticated"
}

# The system CA store without ServerDomainMask: the port still shows up,
# reports failed with the key to add in LastError (read through joinctl's
# JSON), logs the same reason on its move to failed, and never talks to the
# authenticator with that profile.
case_tls_system_ca_no_mask() {
	local joinctl=$W_BUILD/client/joinctl out err rx
	bed
	profile_tls EAP-TLS-CACert= EAP-TLS-ServerDomainMask= EAP-TLS-SystemCA=true
	w_joind
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State failed >/dev/null
	out=$("$joinctl" --session --json wired show "$W_IF_S")
	w_expect_eq "joinctl wired show: state" "$(jq -r .state <<<"$out")" failed
	err=$(jq -r .last_error <<<"$out")
	w_expect_match "joinctl wired show: last_error" "$err" \
		"EAP-TLS-ServerDomainMask is not set: with EAP-TLS-SystemCA=true"
	echo "LastError: $err"
	grep -F -- "-> failed (" "$W_DIR/joind.log" | grep -qF -- "$err" ||
		w_fail "no '-> failed' log line carries the reason"
	sleep 0.3
	w_expect_eq State "$(w_prop State)" failed
	rx=$(ip netns exec "$W_NS_A" cat "/sys/class/net/$W_IF_A/statistics/rx_packets")
	w_expect_eq "frames received by the authenticator" "$rx" 0
}

# A wired EAP-TLS profile made over D-Bus (joinctl profile create, the CA
# given as PEM bytes, the key passphrase from the environment): the file is
# 0600 with the CA embedded in iwd's form, the port authenticates against
# hostapd with it; deleting the profile over D-Bus logs the port off.
# joinctl import of an eduroam CAT-style file with a PKCS#12 client
# certificate: the profile it makes (certificate and key embedded, the
# identity the certificate's CN) authenticates.
case_import_tls() {
	local p12
	bed
	p12=$(base64 -w0 "$W_PKI/client.p12")
	w_eap_config 13 "<ClientSideCredential><ClientCertificate format=\"PKCS12\"
		encoding=\"base64\">$p12</ClientCertificate><Passphrase>whatever</Passphrase>
		</ClientSideCredential>" >"$W_DIR/campus.eap-config"
	w_joind
	"$W_BUILD/client/joinctl" --session import "$W_DIR/campus.eap-config" \
		"Match.Interface=$W_IF_S" >/dev/null || w_fail "joinctl import failed"
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	expect_authenticated TLS tlsuser
	grep -q "^EAP-TLS-ClientKey=embed:" "$W_DIR/state/wired/port.8021x" ||
		w_fail "no embedded key"
}

case_profile_dbus() {
	local joinctl=$W_BUILD/client/joinctl f out
	bed
	f=$W_DIR/state/wired/port.8021x
	w_joind
	out=$(W_KEY_PASS=whatever "$joinctl" --session --json profile create wired port \
		"Match.Interface=$W_IF_S" Security.EAP-Method=TLS Security.EAP-Identity=tlsuser \
		"Security.EAP-TLS-ClientCert=$W_PKI/client.pem" \
		"Security.EAP-TLS-ClientKey=$W_PKI/client.enc.key" \
		Security.EAP-TLS-ClientKeyPassphrase --passphrase-from-env W_KEY_PASS \
		Security.EAP-TLS-ServerDomainMask=auth.test \
		--embed "Security.EAP-TLS-CACert=$W_PKI/ca.pem")
	w_expect_eq "created profile" "$(jq -r .path <<<"$out")" \
		"/net/joind/profile/wired/$(printf port | od -An -tx1 | tr -d ' \n')"
	w_expect_eq "mode of $f" "$(stat -c %a "$f")" 600
	grep -q "^EAP-TLS-CACert=embed:EAP-TLS-CACert$" "$f" || w_fail "no embed: reference: $(cat "$f")"
	grep -q "^\[@pem@EAP-TLS-CACert\]$" "$f" || w_fail "no embedded CA: $(cat "$f")"
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	expect_authenticated TLS tlsuser
	out=$("$joinctl" --session --json profile show port)
	w_expect_eq "listed passphrase" \
		"$(jq -r '.settings["Security.HasEAP-TLS-ClientKeyPassphrase"]' <<<"$out")" true
	grep -qF whatever <<<"$out" && w_fail "joinctl profile show gave the key passphrase"
	"$joinctl" --session profile delete port >/dev/null
	w_wait --timeout 10 State idle >/dev/null
	w_expect_eq Profile "$(w_prop Profile)" ""
	sleep 0.1
	[[ $(w_hostapd_count "received EAPOL-Logoff") -ge 1 ]] || w_fail "hostapd saw no EAPOL-Logoff"
	w_expect_no_secrets whatever
}

# The hex of FILE's bytes, or of stdin, as one line.
hex_of() {
	od -An -v -tx1 "$@" | tr -d ' \n'
}

# Every D-Bus reply, error and signal on the bus: --binary, so that the
# bundle's bytes can be looked for as they are.
monitor_start() {
	dbus-monitor --session --binary "type='method_return'" "type='error'" "type='signal'" \
		>"$W_DIR/monitor.bin" 2>"$W_DIR/monitor.err" &
	W_MONITOR_PID=$!
	for _ in $(seq 250); do
		[[ -s $W_DIR/monitor.bin ]] && return 0
		sleep 0.02
	done
	w_fail "dbus-monitor did not start: $(cat "$W_DIR/monitor.err")"
}

# ProfileManager1 with the CA (PEM) and a PKCS#12 key bundle given as bytes:
# the bundle becomes a 0600 file beside the profile, its path the key's
# value; the port authenticates; UpdateProfile (another identity, the bundle
# again) takes effect at once and replaces the bundle's file; an invalid
# setting is refused with the file loader's own sentence; DeleteProfile logs
# the port off and removes the bundle; no reply, signal or log line holds
# the key passphrase or the bundle's bytes.
case_profile_dbus_bundle() {
	local joinctl=$W_BUILD/client/joinctl f out bundle bundle2 err loader chunk
	w_hostapd_users() {
		printf '"tlsuser" TLS\n"tlsother" TLS\n'
	}
	bed
	f=$W_DIR/state/wired/port.8021x
	w_joind
	monitor_start
	out=$(W_KEY_PASS=whatever "$joinctl" --session --json profile create wired port \
		"Match.Interface=$W_IF_S" Security.EAP-Method=TLS Security.EAP-Identity=tlsuser \
		Security.EAP-TLS-ClientKeyPassphrase --passphrase-from-env W_KEY_PASS \
		Security.EAP-TLS-ServerDomainMask=auth.test \
		--embed "Security.EAP-TLS-CACert=$W_PKI/ca.pem" \
		--embed "Security.EAP-TLS-ClientKeyBundle=$W_PKI/client.p12")
	w_expect_eq "created profile" "$(jq -r .path <<<"$out")" "/net/joind/profile/wired/706f7274"
	bundle=$(sed -n 's/^EAP-TLS-ClientKeyBundle=//p' "$f")
	w_expect_match "the bundle's path" "$bundle" \
		"^$W_DIR/state/wired/port\.8021x\.EAP-TLS-ClientKeyBundle\.[0-9a-f]{8}\.p12$"
	w_expect_eq "mode of the bundle" "$(stat -c %a "$bundle")" 600
	cmp -s "$bundle" "$W_PKI/client.p12" || w_fail "the bundle's file is not the bytes given"
	grep -q "^EAP-TLS-CACert=embed:EAP-TLS-CACert$" "$f" || w_fail "no embedded CA: $(cat "$f")"
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State authenticated >/dev/null
	expect_authenticated TLS tlsuser
	out=$("$joinctl" --session --json profile show port)
	w_expect_eq "listed bundle" \
		"$(jq -r '.settings["Security.EAP-TLS-ClientKeyBundle"]' <<<"$out")" "$bundle"
	w_expect_eq "listed passphrase" \
		"$(jq -r '.settings["Security.HasEAP-TLS-ClientKeyPassphrase"]' <<<"$out")" true

	# Live: the port authenticates again as the new identity, with the
	# bundle's new file; the old one is gone.
	"$joinctl" --session profile set port Security.EAP-Identity=tlsother \
		--embed "Security.EAP-TLS-ClientKeyBundle=$W_PKI/client.p12" >/dev/null
	w_wait --timeout 10 Identity tlsother >/dev/null
	w_wait State authenticated >/dev/null
	expect_authenticated TLS tlsother
	[[ $(w_hostapd_count "received EAPOL-Start") -ge 2 ]] || w_fail "no new EAPOL-Start"
	bundle2=$(sed -n 's/^EAP-TLS-ClientKeyBundle=//p' "$f")
	[[ $bundle2 != "$bundle" && -f $bundle2 && ! -e $bundle ]] ||
		w_fail "the bundle was not replaced: $bundle -> $bundle2"
	w_expect_eq "mode of the new bundle" "$(stat -c %a "$bundle2")" 600

	# Invalid: refused with the sentence the file loader gives for the key.
	if err=$(w_gdbus --object-path /net/joind --method net.joind.ProfileManager1.UpdateProfile \
		/net/joind/profile/wired/706f7274 "{'Security.EAP-TLS-Version-Min': <'1.7'>}" \
		'@as []' 2>&1); then
		w_fail "an invalid TLS version was taken"
	fi
	err=$(sed -n 's/^.*net\.joind\.Error\.InvalidArgs: //p' <<<"$err")
	w_expect_match "the refusal" "$err" "EAP-TLS-Version-Min"
	w_expect_eq "the refused update's bundle" "$(sed -n 's/^EAP-TLS-ClientKeyBundle=//p' "$f")" \
		"$bundle2"
	expect_authenticated TLS tlsother

	# Gone: EAPOL-Logoff, the bundle's file with it.
	cp "$f" "$W_DIR/port.saved"
	"$joinctl" --session profile delete port >/dev/null
	w_wait --timeout 10 State idle >/dev/null
	w_expect_eq Profile "$(w_prop Profile)" ""
	[[ ! -e $bundle2 ]] || w_fail "the bundle outlived its profile"
	ls "$W_DIR/state/wired" | grep -q '\.p12$' && w_fail "a bundle was left: $(ls "$W_DIR/state/wired")"
	sleep 0.1
	[[ $(w_hostapd_count "received EAPOL-Logoff") -ge 1 ]] || w_fail "hostapd saw no EAPOL-Logoff"

	# The file loader's sentence for the same key, from a file dropped in.
	sed '/^\[Security\]$/a EAP-TLS-Version-Min=1.7' "$W_DIR/port.saved" | w_profile port
	for _ in $(seq 100); do
		loader=$("$joinctl" --session daemon diagnostics |
			jq -r --arg f "$f" '.profile_errors[]? | select(.path == $f) | .error')
		[[ -n $loader ]] && break
		sleep 0.05
	done
	loader=${loader#"$f":*: }
	w_expect_eq "the D-Bus refusal" "$err" "$loader"

	w_stop_pid "$W_MONITOR_PID" dbus-monitor
	grep -qF "$(printf '/net/joind/profile/wired/706f7274' | hex_of)" <(hex_of "$W_DIR/monitor.bin") ||
		w_fail "dbus-monitor saw no reply of the daemon's"
	chunk=$(head -c 96 "$W_PKI/client.p12" | tail -c 32 | hex_of)
	for s in "$chunk" "$(printf whatever | hex_of)"; do
		grep -qF "$s" <(hex_of "$W_DIR/monitor.bin") && w_fail "a D-Bus reply or signal holds a secret ($s)"
		grep -qF "$s" <(hex_of "$W_DIR/joind.log") && w_fail "the log holds a secret's bytes ($s)"
	done
	grep -qF "$chunk" "$W_DIR/joind.log" && w_fail "the log holds the bundle in hex"
	w_expect_no_secrets whatever
}

operstate() {
	ip -n "$W_NS_S" -j -d link show dev "$W_IF_S" | jq -r '.[0].operstate + " " + .[0].linkmode'
}

# wait_operstate "OPERSTATE LINKMODE": polls for up to 3 s.
wait_operstate() {
	local now
	for _ in $(seq 150); do
		now=$(operstate)
		[[ $now == "$1" ]] && return 0
		sleep 0.02
	done
	w_fail "operstate/linkmode of $W_IF_S is '$now', expected '$1' (port state $(w_prop State))"
}

# The link's operstate follows the port: dormant while the profile applies
# and the port is not authorised, up once authorised, dormant again on
# logoff and failure; a port left without a profile gets its default link
# mode back and is up.
case_operstate() {
	bed
	w_hostapd_stop
	w_config StartPeriod=1 MaxStart=100
	w_expect_eq "before joind" "$(operstate)" "DOWN DEFAULT"
	profile_md5
	w_joind
	wait_operstate "DOWN DORMANT"
	# Carrier, but no authenticator answers yet.
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State connecting >/dev/null
	wait_operstate "DORMANT DORMANT"
	w_hostapd
	w_wait --timeout 10 State authenticated >/dev/null
	wait_operstate "UP DORMANT"
	w_call Logoff
	wait_operstate "DORMANT DORMANT"
	# hostapd ignores the MAC for 5 s after a Logoff; a fresh one does not.
	w_hostapd_stop
	w_hostapd
	w_wait --run gdbus call --session --dest net.joind --object-path "$W_PATH" \
		--method net.joind.Port8021x1.Reauthenticate -- State authenticated >/dev/null
	wait_operstate "UP DORMANT"
	# Another password: the new authentication fails.
	profile_md5 wrongpass
	wait_operstate "DORMANT DORMANT"
	w_expect_match State "$(w_prop State)" "^(failed|held|connecting)$"
	w_expect_match LastError "$(w_prop LastError)" "rejected"
	rm "$W_DIR/state/wired/port.8021x"
	w_wait --timeout 10 State idle >/dev/null
	wait_operstate "UP DEFAULT"
}

w_run_case "${1:?usage: run-case.sh CASE}"
