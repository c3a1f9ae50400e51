# lib.sh - the wired test bed: two network namespaces joined by a veth pair,
# hostapd (driver=wired, internal EAP server) in one as the authenticator,
# a private D-Bus and joind in the other. Sourced by run-case.sh and by
# bench/wired-auth. Needs root (netns, raw packet sockets). A case may put
# FreeRADIUS behind hostapd (w_radius, w_hostapd --radius), both in the
# authenticator's namespace.
#
#   netns $W_NS_A                       netns $W_NS_S
#   hostapd on $W_IF_A  <---- veth ---->  joind on $W_IF_S
#
# Every name carries the shell's PID, so tests run side by side. Everything a
# test starts is stopped by PID (never by name) in w_cleanup.
#
# Notes from measuring hostapd 2.10 (driver=wired):
# - it never speaks first: the supplicant's EAPOL-Start begins everything;
# - with use_pae_group_addr=1 it sends to 01:80:c2:00:00:03;
# - after an EAP-Failure it ignores the MAC for 5 s (the dead STA entry);
# - "hostapd -B" is reparented to PID 1, which may reap it late: a zombie
#   still answers kill -0, so liveness is read from /proc/PID/stat.

W_SRC=${JOIND_SOURCE_ROOT:?JOIND_SOURCE_ROOT must point at the source tree}
W_BUILD=${JOIND_BUILD_ROOT:?JOIND_BUILD_ROOT must point at the build tree}
W_PLUGINS=${JOIND_PLUGIN_DIR:-$W_BUILD/plugins}
W_JOIND=$W_BUILD/core/joind
W_HELPER=$W_BUILD/tests/wired/wired-helper
W_PKI=${W_PKI:-$W_BUILD/tests/wired/pki}

W_NS_A=jwa$$
W_NS_S=jws$$
W_IF_A=jwa$$
W_IF_S=jws$$
W_MAC_A=02:00:00:00:80:01
W_MAC_S=02:00:00:00:80:02
W_DIR=
W_PATH=
W_JOIND_PID=
W_AGENT_PID=
W_BUS_PID=
W_CONF=/dev/null
W_RADIUS_PID=
W_RADIUS_SECRET=joind-test-secret

w_log() {
	echo "[$(date +%T.%3N)] $*" >&2
}

w_fail() {
	echo "FAIL: $*" >&2
	exit 1
}

w_now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# Skip (exit 77, meson's code) where the bed cannot run.
w_require() {
	local c
	if [[ $(id -u) != 0 ]]; then
		echo "SKIP: the wired tests need root (network namespaces, raw sockets)" >&2
		exit 77
	fi
	for c in ip hostapd dbus-daemon openssl gdbus flock "$@"; do
		if ! command -v "$c" >/dev/null; then
			echo "SKIP: $c is not installed (scripts/install-deps)" >&2
			exit 77
		fi
	done
}

# The PKI is made once per build tree and shared by all tests (flock: they
# run in parallel); remade when it is about to expire.
w_pki() {
	mkdir -p "$(dirname "$W_PKI")"
	(
		flock 9
		if [[ ! -s $W_PKI/client.p12 ]] ||
			! openssl x509 -checkend 172800 -noout -in "$W_PKI/server.pem" >/dev/null; then
			rm -rf "$W_PKI"
			"$W_SRC/tests/wired/make-pki.sh" "$W_PKI.tmp"
			mv "$W_PKI.tmp" "$W_PKI"
		fi
	) 9>"$W_PKI.lock"
}

w_alive() {
	local st
	st=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
	[[ -n $st && $st != Z && $st != X ]]
}

# Stop PID if it still runs COMM; wait until it is gone.
w_stop_pid() {
	local pid=$1 comm=$2 sig=${3:-TERM}
	[[ -n $pid ]] || return 0
	if w_alive "$pid" && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$comm"* ]]; then
		kill -"$sig" "$pid" 2>/dev/null || true
		for _ in $(seq 250); do
			w_alive "$pid" || return 0
			sleep 0.02
		done
		kill -9 "$pid" 2>/dev/null || true
	fi
}

w_cleanup() {
	local rc=$? jrc
	set +e
	w_stop_pid "$W_AGENT_PID" wired-helper
	if [[ -n $W_JOIND_PID ]]; then
		# A daemon that crashes or leaks (sanitizer builds abort) on its
		# way out fails the test.
		w_stop_pid "$W_JOIND_PID" joind
		wait "$W_JOIND_PID" 2>/dev/null
		jrc=$?
		if [[ $jrc != 0 && $rc == 0 ]]; then
			echo "FAIL: joind exited with status $jrc" >&2
			rc=1
		fi
	fi
	[[ -n $W_DIR ]] && w_stop_pid "$(cat "$W_DIR/hostapd.pid" 2>/dev/null)" hostapd
	w_stop_pid "$W_RADIUS_PID" freeradius
	w_stop_pid "$W_BUS_PID" dbus-daemon
	ip netns del "$W_NS_A" 2>/dev/null
	ip netns del "$W_NS_S" 2>/dev/null
	if [[ -n $W_DIR ]]; then
		if [[ $rc != 0 && $rc != 77 ]]; then
			echo "---- joind.log (tail) ----" >&2
			tail -n 40 "$W_DIR/joind.log" >&2 2>/dev/null
			echo "---- hostapd.log (tail) ----" >&2
			tail -n 25 "$W_DIR/hostapd.log" >&2 2>/dev/null
			if [[ -n $W_RADIUS_PID ]]; then
				echo "---- radiusd.log (tail) ----" >&2
				tail -n 25 "$W_DIR/radiusd.log" >&2 2>/dev/null
			fi
		fi
		if [[ -n ${W_KEEP:-} ]]; then
			echo "kept $W_DIR" >&2
		else
			rm -rf "$W_DIR"
		fi
	fi
	exit "$rc"
}

w_init() {
	W_DIR=$(mktemp -d /tmp/joind-wired.XXXXXX)
	mkdir -p "$W_DIR/state/wired"
	chmod 700 "$W_DIR/state"
	trap w_cleanup EXIT
}

# The namespaces and the veth pair. --supp-down leaves joind's end down, so a
# test can time link-up -> authenticated.
w_netns() {
	local ns
	ip netns add "$W_NS_A"
	ip netns add "$W_NS_S"
	for ns in "$W_NS_A" "$W_NS_S"; do
		# No IPv6: nothing but EAPOL crosses the veth (packet counts stay exact).
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
		ip -n "$ns" link set lo up
	done
	ip link add name "$W_IF_A" address "$W_MAC_A" netns "$W_NS_A" type veth \
		peer name "$W_IF_S" address "$W_MAC_S" netns "$W_NS_S"
	ip -n "$W_NS_A" link set "$W_IF_A" up
	if [[ ${1:-} != --supp-down ]]; then
		ip -n "$W_NS_S" link set "$W_IF_S" up
	fi
}

w_hostapd_users() {
	cat <<-'EOF'
		"tlsuser"   TLS
		"md5user"   MD5  "md5pass"
		"md5other"  MD5  "otherpass"
	EOF
}

# The users FreeRADIUS knows (mods-config/files/authorize), as for
# w_hostapd_users; a test may redefine it before w_radius.
w_radius_users() {
	cat <<-'EOF'
		md5user   Cleartext-Password := "md5pass"
		peapuser  Cleartext-Password := "peappass"
		gtcuser   Cleartext-Password := "gtcpass"
		ttlsuser  Cleartext-Password := "ttlspass"
		ttlsmd5   Cleartext-Password := "ttlsmd5pass"
	EOF
}

# Starts a private FreeRADIUS in the authenticator's namespace, listening on
# 127.0.0.1:1812 for hostapd (w_hostapd --radius). It runs from a copy of
# the packaged configuration with these changes: only our NAS as client,
# our users, stays root (the test PKI's keys are 0600 root; Debian's config
# drops to freerad), reject_delay 0 (no extra second before Access-Reject),
# logs and run files inside $W_DIR, and the eap module on the test PKI.
# A machine where it cannot start fails the test: it is a dependency
# (scripts/install-deps), not an optional extra.
w_radius() {
	local raddb=$W_DIR/raddb t0
	command -v freeradius >/dev/null || w_fail "freeradius is not installed (scripts/install-deps)"
	[[ -d /etc/freeradius/3.0 ]] || w_fail "no /etc/freeradius/3.0 to copy"
	t0=$(w_now_ms)
	cp -a /etc/freeradius/3.0 "$raddb"
	mkdir -p "$W_DIR/radius-log" "$W_DIR/radius-run"
	cat >"$raddb/clients.conf" <<-EOF
		client hostapd {
			ipaddr = 127.0.0.1
			secret = $W_RADIUS_SECRET
		}
	EOF
	w_radius_users >"$raddb/mods-config/files/authorize"
	sed -i -e 's/^\(\s*\)\(user\|group\) = freerad/\1# \2 = freerad/' \
		-e 's/^\(\s*reject_delay\s*=\).*/\1 0/' \
		-e "s|^logdir = .*|logdir = $W_DIR/radius-log|" \
		-e "s|^run_dir = .*|run_dir = $W_DIR/radius-run|" \
		"$raddb/radiusd.conf"
	sed -i -e 's|^\(\s*private_key_password\s*=\).*|\1 ""|' \
		-e "s|^\(\s*private_key_file\s*=\).*|\1 $W_PKI/server.key|" \
		-e "s|^\(\s*certificate_file\s*=\).*|\1 $W_PKI/server.pem|" \
		-e "s|^\(\s*ca_file\s*=\).*|\1 $W_PKI/ca.pem|" \
		"$raddb/mods-available/eap"
	# -X: foreground, one thread, full debug log (the cases read it).
	ip netns exec "$W_NS_A" freeradius -d "$raddb" -X >"$W_DIR/radiusd.log" 2>&1 &
	W_RADIUS_PID=$!
	for _ in $(seq 250); do
		if grep -q "Ready to process requests" "$W_DIR/radiusd.log"; then
			w_log "freeradius ready in $(($(w_now_ms) - t0)) ms"
			return 0
		fi
		w_alive "$W_RADIUS_PID" || break
		sleep 0.02
	done
	tail -n 20 "$W_DIR/radiusd.log" >&2
	w_fail "freeradius did not start"
}

# How many lines of FreeRADIUS's log match (grep -E).
w_radius_count() {
	grep -cE "$1" "$W_DIR/radiusd.log" || true
}

# Starts hostapd; extra hostapd.conf lines as arguments. With --radius
# first, hostapd forwards EAP to the FreeRADIUS of w_radius instead of
# running its internal EAP server.
w_hostapd() {
	local line radius=
	if [[ ${1:-} == --radius ]]; then
		radius=1
		shift
	fi
	w_hostapd_users >"$W_DIR/hostapd.eap_user"
	{
		echo "interface=$W_IF_A"
		echo "driver=wired"
		echo "ctrl_interface=$W_DIR/hostapd-ctrl"
		echo "logger_stdout=-1"
		echo "logger_stdout_level=0"
		echo "ieee8021x=1"
		echo "eapol_version=2"
		echo "use_pae_group_addr=1"
		echo "eap_reauth_period=0"
		if [[ -n $radius ]]; then
			echo "eap_server=0"
			echo "own_ip_addr=127.0.0.1"
			echo "nas_identifier=joind-test"
			echo "auth_server_addr=127.0.0.1"
			echo "auth_server_port=1812"
			echo "auth_server_shared_secret=$W_RADIUS_SECRET"
		else
			echo "eap_server=1"
			echo "eap_user_file=$W_DIR/hostapd.eap_user"
			echo "ca_cert=$W_PKI/ca.pem"
			echo "server_cert=${W_SERVER_CERT:-$W_PKI/server.pem}"
			echo "private_key=$W_PKI/server.key"
		fi
		for line in "$@"; do echo "$line"; done
	} >"$W_DIR/hostapd.conf"
	rm -f "$W_DIR/hostapd.pid"
	# -B returns once the port is set up.
	if ! ip netns exec "$W_NS_A" hostapd -B -t -dd -P "$W_DIR/hostapd.pid" \
		-f "$W_DIR/hostapd.log" "$W_DIR/hostapd.conf"; then
		tail -n 20 "$W_DIR/hostapd.log" >&2
		w_fail "hostapd did not start"
	fi
	for _ in $(seq 100); do
		[[ -s $W_DIR/hostapd.pid ]] && return 0
		sleep 0.01
	done
	w_fail "hostapd wrote no pid file"
}

w_hostapd_stop() {
	w_stop_pid "$(cat "$W_DIR/hostapd.pid" 2>/dev/null)" hostapd
	rm -f "$W_DIR/hostapd.pid"
}

# How many lines of hostapd's log match (grep -E).
w_hostapd_count() {
	grep -cE "$1" "$W_DIR/hostapd.log" || true
}

# A private bus; joind (in its netns) and the tools reach it by path.
w_bus() {
	export DBUS_SESSION_BUS_ADDRESS=unix:path=$W_DIR/bus
	W_BUS_PID=$(dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --fork \
		--nopidfile --print-pid=1)
}

# An eduroam CAT-style eap-config file for the bed on stdout: EAP type
# $1, the bed's CA and ServerID $W_SERVER_ID (the server's name auth.test
# unless set), $2 (XML) inside the method; it applies to IEEE 802.3 with
# NetworkID "port".
w_eap_config() {
	local ca
	ca=$(openssl x509 -in "$W_PKI/ca.pem" -outform DER | base64 -w0)
	cat <<-EOF2
		<?xml version="1.0" encoding="utf-8"?>
		<EAPIdentityProviderList>
		<EAPIdentityProvider ID="auth.test" namespace="urn:RFC4282:realm">
		<AuthenticationMethods><AuthenticationMethod>
		<EAPMethod><Type>$1</Type></EAPMethod>
		<ServerSideCredential><CA format="X.509" encoding="base64">$ca</CA>
		<ServerID>${W_SERVER_ID:-auth.test}</ServerID></ServerSideCredential>
		$2
		</AuthenticationMethod></AuthenticationMethods>
		<CredentialApplicability><IEEE8023><NetworkID>port</NetworkID></IEEE8023>
		</CredentialApplicability>
		</EAPIdentityProvider></EAPIdentityProviderList>
	EOF2
}

# [Wired] settings for main.conf, as KEY=VALUE arguments.
w_config() {
	W_CONF=$W_DIR/main.conf
	{
		echo "[Wired]"
		printf '%s\n' "$@"
	} >"$W_CONF"
}

# A client certificate for KEY (a file, or a provider's key: extra openssl
# arguments after it), signed by the test CA.
w_client_cert() { # OUT KEY [OPENSSL-ARGS...]
	local out=$1 key=$2
	shift 2
	openssl req -new "$@" -key "$key" -subj "/O=joind test/CN=tlsuser" -out "$W_DIR/c.csr"
	printf '%s\n' "basicConstraints = critical, CA:FALSE" \
		"keyUsage = critical, digitalSignature" "extendedKeyUsage = clientAuth" >"$W_DIR/c.ext"
	openssl x509 -req -sha256 -days 2 -in "$W_DIR/c.csr" -CA "$W_PKI/ca.pem" \
		-CAkey "$W_PKI/ca.key" -CAcreateserial -CAserial "$W_DIR/ca.srl" \
		-extfile "$W_DIR/c.ext" -out "$out" 2>/dev/null
}

# Writes wired/NAME.8021x from stdin (mode 0600: secrets live there).
w_profile() {
	local f=$W_DIR/state/wired/$1.8021x
	cat >"$f.tmp"
	chmod 600 "$f.tmp"
	mv "$f.tmp" "$f"
}

w_ifindex() {
	ip -n "$W_NS_S" -o link show dev "$W_IF_S" | cut -d: -f1
}

w_gdbus() {
	gdbus call --session --dest net.joind "$@"
}

# Port8021x1 property of the port, as a bare string.
w_prop() {
	w_gdbus --object-path "$W_PATH" --method org.freedesktop.DBus.Properties.Get \
		net.joind.Port8021x1 "$1" | sed -e "s/^(<'//" -e "s/'>,)$//"
}

w_call() {
	w_gdbus --object-path "$W_PATH" --method "net.joind.Port8021x1.$1" >/dev/null
}

# Starts joind in the supplicant namespace and waits for the port object.
w_joind() {
	W_PATH=/net/joind/device/$(w_ifindex)
	ip netns exec "$W_NS_S" "$W_JOIND" --session --debug --state-dir "$W_DIR/state" \
		--config "$W_CONF" --plugin-dir "$W_PLUGINS" >>"$W_DIR/joind.log" 2>&1 &
	W_JOIND_PID=$!
	for _ in $(seq 250); do
		if w_prop State >/dev/null 2>&1; then
			return 0
		fi
		w_alive "$W_JOIND_PID" || w_fail "joind exited"
		sleep 0.02
	done
	w_fail "joind did not publish $W_PATH"
}

# SIGTERM joind and wait until it has gone; it must exit with status 0.
w_joind_stop() {
	local jrc=0
	w_stop_pid "$W_JOIND_PID" joind
	wait "$W_JOIND_PID" 2>/dev/null || jrc=$?
	W_JOIND_PID=
	[[ $jrc == 0 ]] || w_fail "joind exited with status $jrc"
}

# w_wait [--timeout S] [--run CMD... --] PROPERTY V1[,V2...]: see
# wired-helper.c. Prints the milliseconds it took.
w_wait() {
	local args=() out
	while [[ $# -gt 2 ]]; do
		args+=("$1")
		shift
	done
	if ! out=$("$W_HELPER" wait "${args[@]}" "$W_PATH" "$1" "$2"); then
		w_fail "$out"
	fi
	echo "$out"
}

# The test agent, answering with the given options (see wired-helper.c).
w_agent() {
	"$W_HELPER" agent "$@" >"$W_DIR/agent.log" 2>&1 &
	W_AGENT_PID=$!
	for _ in $(seq 250); do
		grep -q '^registered' "$W_DIR/agent.log" && return 0
		w_alive "$W_AGENT_PID" || w_fail "the agent exited: $(cat "$W_DIR/agent.log")"
		sleep 0.02
	done
	w_fail "the agent did not register"
}

w_expect_eq() { # WHAT ACTUAL EXPECTED
	[[ $2 == "$3" ]] || w_fail "$1 is '$2', expected '$3'"
}

w_expect_match() { # WHAT ACTUAL REGEX
	[[ $2 =~ $3 ]] || w_fail "$1 is '$2', expected to match /$3/"
}

# No secret may reach joind's log, even at debug level.
w_expect_no_secrets() {
	local s
	for s in "$@"; do
		if grep -qF -- "$s" "$W_DIR/joind.log"; then
			w_fail "joind's log contains a secret: $(grep -nF -- "$s" "$W_DIR/joind.log" | head -1)"
		fi
	done
}

# Runs case_<CASE> of the sourcing script (dashes become underscores) and
# says PASS; exit 2 for a case it does not have.
w_run_case() { # CASE
	local fn=case_${1//-/_}
	if ! declare -F "$fn" >/dev/null; then
		echo "unknown case $1" >&2
		exit 2
	fi
	"$fn"
	echo "PASS $1"
}
