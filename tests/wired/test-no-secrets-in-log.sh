#!/bin/bash
# test-no-secrets-in-log.sh - no password reaches joind's log, even at debug.
#
# Runs the daemon with --debug (and G_MESSAGES_DEBUG=all) through the wired
# 802.1X flow that handles a secret: EAP-MD5 with the password taken from a
# wired profile, against hostapd (driver=wired, internal EAP server) across a
# veth pair between two network namespaces. Two runs, each with a fresh
# random password: one hostapd accepts (the port must be authorized, which
# proves the secret was really read and used) and one it rejects (error
# paths log the most). After each, joind's whole log is searched for the
# password: any 10-character piece of it as text, any 8-byte piece as hex
# (any case, with or without separators), and the whole in base64. The log must also show the EAP conversation, so that an empty or
# silent log cannot pass.
#
# Needs root (namespaces, raw sockets), hostapd, iproute2, dbus-daemon, gdbus.
# Skipped (77) only without root; a missing module or tool fails it.
set -euo pipefail

skip() {
	echo "SKIP: $*"
	exit 77
}
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

build=${JOIND_BUILD_ROOT:?JOIND_BUILD_ROOT is not set (run through meson test)}
plugins=${JOIND_PLUGIN_DIR:-$build/plugins}
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
# A security test that cannot run on a tree that should have what it needs
# must fail, not pass quietly as skipped.
for m in joind-ethernet-8021x.so joind-eap-md5.so; do
	[ -f "$plugins/$m" ] || fail "$plugins/$m is missing: the build is broken or incomplete"
done
for t in hostapd hostapd_cli ip dbus-daemon gdbus base64 od; do
	command -v "$t" >/dev/null || fail "$t is missing (scripts/install-deps)"
done

id=$$
ns_auth=jsec-auth-$id
ns_supp=jsec-supp-$id
if_auth=jsa$id
if_supp=jss$id
tmp=$(mktemp -d /tmp/joind-secrets-XXXXXX)
hostapd_pid=
bus_pid=
joind_pid=

cleanup() {
	local p
	for p in $joind_pid $hostapd_pid $bus_pid; do
		kill "$p" 2>/dev/null || true
	done
	for p in $joind_pid $hostapd_pid $bus_pid; do
		wait "$p" 2>/dev/null || true
	done
	ip netns del "$ns_auth" 2>/dev/null || true
	ip netns del "$ns_supp" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# wait_for SECONDS COMMAND...: poll until COMMAND succeeds.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.1
	done
}

# 18 characters: "pw" and 16 random hex digits.
random_secret() {
	printf 'pw%s' "$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')"
}

# --- the authenticator -------------------------------------------------------
ip netns add "$ns_auth"
ip netns add "$ns_supp"
ip link add "$if_auth" netns "$ns_auth" type veth peer name "$if_supp" netns "$ns_supp"
ip -n "$ns_auth" link set "$if_auth" up
ip -n "$ns_supp" link set "$if_supp" up
ip -n "$ns_supp" link set lo up

start_hostapd() {
	local password=$1
	printf '"md5user" MD5 "%s"\n' "$password" >"$tmp/eap_user"
	cat >"$tmp/hostapd.conf" <<-EOF
		interface=$if_auth
		driver=wired
		ctrl_interface=$tmp/hostapd-ctrl
		logger_stdout=-1
		logger_stdout_level=0
		ieee8021x=1
		eapol_version=2
		use_pae_group_addr=1
		eap_reauth_period=0
		eap_server=1
		eap_user_file=$tmp/eap_user
	EOF
	ip netns exec "$ns_auth" hostapd -t -dd -f "$tmp/hostapd.log" "$tmp/hostapd.conf" &
	hostapd_pid=$!
	wait_for 10 ip netns exec "$ns_auth" hostapd_cli -p "$tmp/hostapd-ctrl" -i "$if_auth" ping ||
		fail "hostapd did not start (log: $(tail -5 "$tmp/hostapd.log" 2>/dev/null))"
}

stop_pid() {
	kill "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# --- the daemon under test ---------------------------------------------------
bus="unix:path=$tmp/bus"
ip netns exec "$ns_supp" dbus-daemon --session --nofork --nopidfile --address="$bus" &
bus_pid=$!
wait_for 10 test -S "$tmp/bus" || fail "dbus-daemon did not start"

dbus() {
	ip netns exec "$ns_supp" gdbus call --address "$bus" "$@"
}
joind_on_bus() {
	dbus --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
		--method org.freedesktop.DBus.NameHasOwner net.joind | grep -q true
}
port_state() {
	local ifindex
	ifindex=$(ip netns exec "$ns_supp" cat "/sys/class/net/$if_supp/ifindex")
	dbus --dest net.joind --object-path "/net/joind/device/$ifindex" \
		--method org.freedesktop.DBus.Properties.Get net.joind.Port8021x1 State 2>/dev/null |
		sed -n "s/.*'\([a-z]*\)'.*/\1/p"
}
port_is() { [ "$(port_state)" = "$1" ]; }
hostapd_authorized() {
	ip netns exec "$ns_auth" hostapd_cli -p "$tmp/hostapd-ctrl" -i "$if_auth" all_sta |
		grep -q AUTHORIZED
}

# run_joind PASSWORD LOG: joind on the supplicant side with a wired profile
# holding PASSWORD; its stdout and stderr go to LOG.
run_joind() {
	local password=$1 log=$2 state=$tmp/state-$RANDOM
	mkdir -p "$state/wired"
	chmod 700 "$state"
	cat >"$state/wired/test.8021x" <<-EOF
		[Match]
		Interface=$if_supp

		[Security]
		EAP-Method=MD5
		EAP-Identity=md5user
		EAP-Password=$password
	EOF
	chmod 600 "$state/wired/test.8021x"
	ip netns exec "$ns_supp" env DBUS_SESSION_BUS_ADDRESS="$bus" G_MESSAGES_DEBUG=all \
		"$build/core/joind" --session --debug --config=/dev/null --state-dir="$state" \
		--plugin-dir="$plugins" >"$log" 2>&1 &
	joind_pid=$!
	wait_for 10 joind_on_bus || fail "joind did not come up; log:
$(cat "$log")"
}

stop_joind() {
	local log=$1 rc=0
	kill -TERM "$joind_pid"
	wait "$joind_pid" || rc=$?
	joind_pid=
	# A sanitizer report or a crash at shutdown is a failure too.
	[ $rc = 0 ] || fail "joind exited with status $rc; log:
$(tail -40 "$log")"
}

# check_log LOG SECRET: no piece of the secret in any likely encoding. Dumps
# split a secret over lines (16 bytes a line) or show part of it in an ASCII
# column, so every 10-character piece of the text and every 8-byte piece of
# its hex (separators dropped, within one line) is searched for, and the
# whole secret in base64. The secret is 18 random characters, so a chance
# match of a 10-character piece is negligible.
check_log() {
	local log=$1 secret=$2 hex i hits
	hex=$(printf '%s' "$secret" | od -An -tx1 | tr -d ' \n')
	grep -qiE 'eap' "$log" || fail "the log shows no EAP conversation, so it proves nothing:
$(cat "$log")"
	: >"$tmp/text-pieces"
	for ((i = 0; i + 10 <= ${#secret}; i++)); do
		printf '%s\n' "${secret:i:10}" >>"$tmp/text-pieces"
	done
	printf '%s' "$secret" | base64 -w0 >>"$tmp/text-pieces"
	echo >>"$tmp/text-pieces"
	: >"$tmp/hex-pieces"
	for ((i = 0; i + 16 <= ${#hex}; i += 2)); do
		printf '%s\n' "${hex:i:16}" >>"$tmp/hex-pieces"
	done
	if hits=$(grep -niF -f "$tmp/text-pieces" "$log"); then
		fail "the secret ($secret) appears in joind's log:
$hits"
	fi
	if hits=$(tr -d ' \t:.,-' <"$log" | grep -niF -f "$tmp/hex-pieces"); then
		fail "the secret ($secret) appears hex-encoded in joind's log (lines with separators dropped):
$hits"
	fi
	echo "ok: $(wc -l <"$log") log lines, no trace of the secret"
}

# --- 1: the right password: the port is authorized --------------------------
good=$(random_secret)
start_hostapd "$good"
run_joind "$good" "$tmp/joind-good.log"
wait_for 30 hostapd_authorized || fail "hostapd did not authorize the port; joind log:
$(tail -40 "$tmp/joind-good.log")"
wait_for 10 port_is authenticated || fail "Port8021x1.State is '$(port_state)', not authenticated"
stop_joind "$tmp/joind-good.log"
check_log "$tmp/joind-good.log" "$good"

# --- 2: a wrong password: the authentication fails --------------------------
stop_pid "$hostapd_pid"
hostapd_pid=
right=$(random_secret)
wrong=$(random_secret)
start_hostapd "$right"
run_joind "$wrong" "$tmp/joind-wrong.log"
wait_for 30 grep -q 'CTRL-EVENT-EAP-FAILURE\|EAP-Failure\|EAP_FAILURE' "$tmp/hostapd.log" ||
	fail "hostapd saw no failed authentication; joind log:
$(tail -40 "$tmp/joind-wrong.log")"
wait_for 10 port_is failed || wait_for 1 port_is held ||
	fail "Port8021x1.State is '$(port_state)' after a wrong password"
stop_joind "$tmp/joind-wrong.log"
check_log "$tmp/joind-wrong.log" "$wrong"
check_log "$tmp/joind-wrong.log" "$right"
echo "PASS: no secret in joind's debug log (success and failure runs)"
