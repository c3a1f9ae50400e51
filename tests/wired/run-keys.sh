#!/usr/bin/env bash
# run-keys.sh CASE - EAP-TLS with client keys that never leave the
# hardware, against hostapd on the wired test bed (lib.sh): a SoftHSM2
# token (PKCS#11, through p11-kit and the libp11 engine) and swtpm as the
# TPM 2.0 (the tpm2 OpenSSL provider over swtpm's TCP socket, inside
# joind's namespace). Each case makes its own token or TPM in $W_DIR from
# the test PKI's CA. Suite 'wired'; by hand, as root from the source tree:
#   JOIND_SOURCE_ROOT=. JOIND_BUILD_ROOT=build tests/wired/run-keys.sh pkcs11-profile
# Cases: pkcs11-profile, pkcs11-uri-pin, pkcs11-agent, pkcs11-wrong-pin,
# pkcs11-token-gone, pkcs11-ec-tls13, tpm-rsa, tpm-ec-tls13, tpm-handle,
# file-key-no-providers.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/lib.sh"

# Not a number: a number could turn up in a log line by chance.
PIN=pin-Qz7x
SOFTHSM_MODULE=/usr/lib/softhsm/libsofthsm2.so
TOKEN=joind-test
TPM_PORT=2321

bed() { w_require softhsm2-util pkcs11-tool "$@"; w_pki; w_init; w_netns --supp-down; }

# A SoftHSM2 token of our own (SOFTHSM2_CONF, inherited by joind) holding
# KEY and CERT under the label tlsuser, id 01.
token() { # KEY CERT
	mkdir -p "$W_DIR/tokens"
	printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' \
		"$W_DIR/tokens" >"$W_DIR/softhsm2.conf"
	export SOFTHSM2_CONF=$W_DIR/softhsm2.conf
	softhsm2-util --init-token --free --label "$TOKEN" --pin "$PIN" --so-pin so-pin-1 >/dev/null
	softhsm2-util --import "$1" --token "$TOKEN" --label tlsuser --id 01 --pin "$PIN" >/dev/null
	pkcs11-tool --module "$SOFTHSM_MODULE" --token-label "$TOKEN" --login --pin "$PIN" \
		--write-object "$2" --type cert --id 01 --label tlsuser >/dev/null 2>&1 ||
		w_fail "pkcs11-tool could not put the certificate on the token"
}

profile() { # KEY=VALUE...
	local kv
	{
		echo "[Match]"; echo "Interface=$W_IF_S"; echo "[Security]"
		echo "EAP-Method=TLS"; echo "EAP-Identity=tlsuser"
		echo "EAP-TLS-CACert=$W_PKI/ca.pem"; echo "EAP-TLS-ServerDomainMask=auth.test"
		for kv in "$@"; do echo "$kv"; done
	} | w_profile port
}

up_until() { # STATE[,STATE]
	w_wait --run ip -n "$W_NS_S" link set "$W_IF_S" up -- State "$1"
}

authenticated() { # LABEL
	local ms
	ms=$(up_until authenticated)
	echo "MEASURE $1: link-up -> authenticated in $ms ms"
	w_expect_eq EapMethod "$(w_prop EapMethod)" TLS
	w_expect_eq LastError "$(w_prop LastError)" ""
	[[ $(w_hostapd_count ": authorizing port") -ge 1 ]] || w_fail "hostapd did not authorize"
}

# joinctl wired show says where the key is (and never a PIN).
shows_key() { # TEXT
	local out
	out=$("$W_BUILD/client/joinctl" --session wired show "$W_IF_S")
	echo "$out"
	[[ $out == *"Client key"*"$1"* ]] || w_fail "joinctl wired show does not say '$1'"
	[[ $out == *"$PIN"* ]] && w_fail "joinctl wired show shows the PIN"
	return 0
}

# What joind has mapped: the engine and the provider only once a profile
# names a key in hardware.
mapped() { grep -cE "$1" "/proc/$W_JOIND_PID/maps" || true; }

# The PIN is in no log line, and joind wrote it to no file of its own
# (the profile a case wrote may hold it: that is the admin's choice).
no_pin_anywhere() {
	local listed
	w_expect_no_secrets "$PIN"
	listed=$(w_gdbus --object-path /net/joind --method net.joind.ProfileManager1.ListProfiles)
	[[ $listed == *"$PIN"* ]] && w_fail "ListProfiles returns the PIN: $listed"
	grep -rlF -- "$PIN" "$W_DIR/state" | grep -v '/port\.8021x$' &&
		w_fail "joind wrote the PIN into its state directory"
	return 0
}

KEY_URI="pkcs11:token=$TOKEN;object=tlsuser;type=private"
CERT_URI="pkcs11:token=$TOKEN;object=tlsuser;type=cert"

case_pkcs11_profile() {
	bed; w_hostapd; w_bus
	token "$W_PKI/client.key" "$W_PKI/client.pem"
	profile "EAP-TLS-ClientCert=$CERT_URI" "EAP-TLS-ClientKey=$KEY_URI" \
		"EAP-TLS-ClientKeyPassphrase=$PIN"
	w_joind
	[[ $(mapped 'engines-3/(lib)?pkcs11') == 0 ]] || w_fail "the engine was loaded before it was needed"
	authenticated "EAP-TLS, key and certificate on a PKCS#11 token"
	[[ $(mapped 'engines-3/(lib)?pkcs11') -ge 1 ]] || w_fail "the pkcs11 engine is not mapped"
	[[ $(mapped 'ossl-modules/tpm2') == 0 ]] || w_fail "the tpm2 provider was loaded for a token key"
	grep -q "client key is on the PKCS#11 token “$TOKEN”, object “tlsuser”" "$W_DIR/joind.log" ||
		w_fail "no log line names the token"
	shows_key "key on token '$TOKEN' (PKCS#11)"
	no_pin_anywhere
}

# The PIN in the URI (pin-value), the certificate from a file.
case_pkcs11_uri_pin() {
	bed; w_hostapd; w_bus
	token "$W_PKI/client.key" "$W_PKI/client.pem"
	profile "EAP-TLS-ClientCert=$W_PKI/client.pem" "EAP-TLS-ClientKey=$KEY_URI?pin-value=$PIN"
	w_joind
	authenticated "EAP-TLS, PKCS#11 key, PIN in the URI"
	shows_key "key on token '$TOKEN' (PKCS#11)"
	no_pin_anywhere
}

case_pkcs11_agent() {
	bed; w_hostapd; w_bus
	token "$W_PKI/client.key" "$W_PKI/client.pem"
	profile "EAP-TLS-ClientCert=$CERT_URI" "EAP-TLS-ClientKey=$KEY_URI"
	w_joind
	w_agent --passphrase "$PIN"
	authenticated "EAP-TLS, PKCS#11 key, PIN from the agent"
	grep -q "^RequestPrivateKeyPassphrase $W_PATH" "$W_DIR/agent.log" ||
		w_fail "the agent was not asked for the PIN: $(cat "$W_DIR/agent.log")"
	grep -qF -- "$PIN" "$W_DIR/state/wired/port.8021x" && w_fail "the agent's PIN was written to the profile"
	no_pin_anywhere
}

# A wrong PIN: failed with a sentence, tried once (the token's login is
# not repeated by the held-period retry: short periods would show it).
case_pkcs11_wrong_pin() {
	local bad=wrong-Pn4k
	bed; w_hostapd; w_bus
	token "$W_PKI/client.key" "$W_PKI/client.pem"
	profile "EAP-TLS-ClientCert=$CERT_URI" "EAP-TLS-ClientKey=$KEY_URI" \
		"EAP-TLS-ClientKeyPassphrase=$bad"
	w_config StartPeriod=1 MaxStart=10 HeldPeriod=1
	w_joind
	up_until failed >/dev/null
	echo "LastError: $(w_prop LastError)"
	w_expect_match LastError "$(w_prop LastError)" "token “$TOKEN”, object “tlsuser” refused the PIN"
	sleep 3
	w_expect_eq State "$(w_prop State)" failed
	w_expect_eq "logins refused" "$(grep -c "method -> failure (.*refused the PIN" "$W_DIR/joind.log")" 1
	w_expect_no_secrets "$bad" "$PIN"
}

# The token goes away (its module lists no token): a clear failure naming
# token and object, no held-period retry; back again, Reauthenticate()
# authenticates without a restart (the module was re-initialised).
case_pkcs11_token_gone() {
	bed; w_hostapd; w_bus
	token "$W_PKI/client.key" "$W_PKI/client.pem"
	profile "EAP-TLS-ClientCert=$W_PKI/client.pem" "EAP-TLS-ClientKey=$KEY_URI" \
		"EAP-TLS-ClientKeyPassphrase=$PIN"
	mv "$W_DIR/tokens" "$W_DIR/tokens.away"
	mkdir "$W_DIR/tokens"
	# hostapd ignores the port for a while after our EAPOL-Logoff: keep
	# asking once a second.
	w_config StartPeriod=1 MaxStart=30
	w_joind
	up_until failed >/dev/null
	echo "LastError: $(w_prop LastError)"
	w_expect_match LastError "$(w_prop LastError)" \
		"key on the PKCS#11 token “$TOKEN”, object “tlsuser” is not available"
	grep -q "token “$TOKEN”, object “tlsuser” is not available" "$W_DIR/joind.log" ||
		w_fail "the log does not name the token"
	rmdir "$W_DIR/tokens"
	mv "$W_DIR/tokens.away" "$W_DIR/tokens"
	w_wait --timeout 20 --run sh -c "gdbus call --session --dest net.joind --object-path $W_PATH \
		--method net.joind.Port8021x1.Reauthenticate >/dev/null" -- State authenticated >/dev/null
	w_expect_eq LastError "$(w_prop LastError)" ""
	no_pin_anywhere
}

# An EC P-256 key on the token: TLS 1.3.
case_pkcs11_ec_tls13() {
	bed; w_hostapd "tls_flags=[ENABLE-TLSv1.3]"; w_bus
	openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$W_DIR/ec.key"
	w_client_cert "$W_DIR/ec.pem" "$W_DIR/ec.key"
	token "$W_DIR/ec.key" "$W_DIR/ec.pem"
	profile "EAP-TLS-ClientCert=$CERT_URI" "EAP-TLS-ClientKey=$KEY_URI" \
		"EAP-TLS-ClientKeyPassphrase=$PIN" EAP-TLS-Version-Min=1.3
	w_joind
	authenticated "EAP-TLS 1.3, EC key on a PKCS#11 token"
	grep -q "TLSv1.3 handshake done" "$W_DIR/joind.log" || w_fail "not TLS 1.3"
}

# swtpm in joind's namespace (its loopback), reached over TCP as the
# provider is told by TPM2OPENSSL_TCTI in joind's environment.
tpm() {
	mkdir -p "$W_DIR/tpm"
	ip netns exec "$W_NS_S" swtpm socket --tpm2 --tpmstate "dir=$W_DIR/tpm" \
		--server "type=tcp,port=$TPM_PORT,bindaddr=127.0.0.1" \
		--ctrl "type=tcp,port=$((TPM_PORT + 1)),bindaddr=127.0.0.1" \
		--flags not-need-init,startup-clear --pid "file=$W_DIR/swtpm.pid" --daemon ||
		w_fail "swtpm did not start"
	W_SWTPM_PID=$(cat "$W_DIR/swtpm.pid")
	trap keys_cleanup EXIT
	# A resource manager in front of it, as /dev/tpmrm0 is the kernel's
	# (a TPM holds three objects at a time; the handshake needs more).
	ip netns exec "$W_NS_S" tpm2-abrmd --session --allow-root --flush-all \
		--tcti="swtpm:host=127.0.0.1,port=$TPM_PORT" >"$W_DIR/abrmd.log" 2>&1 &
	W_ABRMD_PID=$!
	export TPM2OPENSSL_TCTI=tabrmd:bus_type=session
	for _ in $(seq 100); do
		gdbus introspect --session --dest com.intel.tss2.Tabrmd --object-path /com/intel/tss2/Tabrmd/Tcti >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	w_fail "tpm2-abrmd did not start: $(cat "$W_DIR/abrmd.log")"
}

keys_cleanup() {
	local rc=$?
	set +e
	w_stop_pid "${W_ABRMD_PID:-}" tpm2-abrmd
	w_stop_pid "$W_SWTPM_PID" swtpm
	(exit "$rc")
	w_cleanup
}

# A key made in the TPM by the provider, and its certificate.
tpm_key() { # OUT-KEY OUT-CERT GENPKEY-ARGS...
	local key=$1 cert=$2
	shift 2
	ip netns exec "$W_NS_S" openssl genpkey -provider tpm2 -provider default "$@" -out "$key" ||
		w_fail "the tpm2 provider made no key"
	grep -q "BEGIN TSS2 PRIVATE KEY" "$key" || w_fail "$key is no TSS2 key"
	ip netns exec "$W_NS_S" bash -c "$(declare -f w_client_cert); W_DIR=$W_DIR W_PKI=$W_PKI \
		w_client_cert $cert $key -provider tpm2 -provider default" || w_fail "no certificate"
}

case_tpm_rsa() {
	bed swtpm openssl; w_hostapd; w_bus
	tpm
	tpm_key "$W_DIR/tpm-rsa.key" "$W_DIR/tpm-rsa.pem" -algorithm RSA -pkeyopt bits:2048
	profile "EAP-TLS-ClientCert=$W_DIR/tpm-rsa.pem" "EAP-TLS-ClientKey=$W_DIR/tpm-rsa.key"
	w_joind
	[[ $(mapped 'ossl-modules/tpm2') == 0 ]] || w_fail "the tpm2 provider was loaded before it was needed"
	authenticated "EAP-TLS 1.2, RSA key in the TPM"
	[[ $(mapped 'ossl-modules/tpm2') -ge 1 ]] || w_fail "the tpm2 provider is not mapped"
	grep -q "TLSv1.2 handshake done" "$W_DIR/joind.log" || w_fail "not TLS 1.2"
	grep -q "RSA key in the TPM: offering rsa_pkcs1 signatures and TLS 1.2 only" \
		"$W_DIR/joind.log" || w_fail "no log line says why TLS 1.2"
	grep -q "through TPM2OPENSSL_TCTI=$TPM2OPENSSL_TCTI" "$W_DIR/joind.log" ||
		w_fail "the log does not name the TCTI from the environment"
	shows_key "key in the TPM"
}

case_tpm_ec_tls13() {
	bed swtpm openssl; w_hostapd "tls_flags=[ENABLE-TLSv1.3]"; w_bus
	tpm
	tpm_key "$W_DIR/tpm-ec.key" "$W_DIR/tpm-ec.pem" -algorithm EC -pkeyopt group:P-256
	profile "EAP-TLS-ClientCert=$W_DIR/tpm-ec.pem" "EAP-TLS-ClientKey=$W_DIR/tpm-ec.key" \
		EAP-TLS-Version-Min=1.3
	w_joind
	authenticated "EAP-TLS 1.3, EC P-256 key in the TPM"
	grep -q "TLSv1.3 handshake done" "$W_DIR/joind.log" || w_fail "not TLS 1.3"
}

# main.conf's [EAP] TPM2TCTI overrides the environment's TCTI, which here
# leads nowhere (port 1 on loopback refuses).
case_tpm_tcti_conf() {
	local tcti
	bed swtpm openssl; w_hostapd "tls_flags=[ENABLE-TLSv1.3]"; w_bus
	tpm
	tcti=$TPM2OPENSSL_TCTI
	tpm_key "$W_DIR/tpm-ec.key" "$W_DIR/tpm-ec.pem" -algorithm EC -pkeyopt group:P-256
	profile "EAP-TLS-ClientCert=$W_DIR/tpm-ec.pem" "EAP-TLS-ClientKey=$W_DIR/tpm-ec.key"
	W_CONF=$W_DIR/main.conf
	printf '[EAP]\nTPM2TCTI=%s\n' "$tcti" >"$W_CONF"
	export TPM2OPENSSL_TCTI=swtpm:host=127.0.0.1,port=1
	w_joind
	authenticated "EAP-TLS, the TPM reached through main.conf's TCTI"
	grep -qF "through main.conf's [EAP] TPM2TCTI=$tcti" "$W_DIR/joind.log" ||
		w_fail "the log does not name main.conf's TCTI"
	! grep -E "main.conf:[0-9]+: \[EAP\]" "$W_DIR/joind.log" ||
		w_fail "main.conf's [EAP] TPM2TCTI was reported as unknown or bad"
}

# A persistent key (handle:0x81000001) made with tpm2-tools.
case_tpm_handle() {
	local h=0x81000001 t=$W_DIR/tpm-handle
	bed swtpm openssl tpm2_evictcontrol; w_hostapd "tls_flags=[ENABLE-TLSv1.3]"; w_bus
	tpm
	mkdir -p "$t"
	ip netns exec "$W_NS_S" env TPM2TOOLS_TCTI="$TPM2OPENSSL_TCTI" sh -c "
		tpm2_createprimary -Q -C o -G ecc -c $t/primary.ctx &&
		tpm2_create -Q -C $t/primary.ctx -G ecc256 -u $t/key.pub -r $t/key.priv &&
		tpm2_load -Q -C $t/primary.ctx -u $t/key.pub -r $t/key.priv -c $t/key.ctx &&
		tpm2_evictcontrol -Q -C o -c $t/key.ctx $h" || w_fail "tpm2-tools made no persistent key"
	ip netns exec "$W_NS_S" bash -c "$(declare -f w_client_cert); W_DIR=$W_DIR W_PKI=$W_PKI \
		w_client_cert $t/cert.pem handle:$h -provider tpm2 -provider default" || w_fail "no certificate"
	profile "EAP-TLS-ClientCert=$t/cert.pem" "EAP-TLS-ClientKey=handle:$h"
	w_joind
	authenticated "EAP-TLS, EC key at handle:$h in the TPM"
	shows_key "key in the TPM"
}

# A key in a file: neither the engine nor the provider is ever loaded.
case_file_key_no_providers() {
	bed; w_hostapd; w_bus
	profile "EAP-TLS-ClientCert=$W_PKI/client.pem" "EAP-TLS-ClientKey=$W_PKI/client.key"
	w_joind
	authenticated "EAP-TLS, key in a file"
	w_expect_eq "pkcs11/p11-kit/tpm2 mappings" \
		"$(mapped 'engines-3/(lib)?pkcs11|p11-kit|softhsm|ossl-modules/tpm2|libtss2')" 0
}

w_run_case "${1:?usage: run-keys.sh CASE}"
