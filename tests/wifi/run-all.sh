#!/bin/bash
# tests/wifi/run-all.sh CASE... - the WiFi scenarios of the 'wifi' suite in
# one VM boot, inside the VM (tests/wifi/vm-suite.sh boots it; by hand,
# from the build directory: ../tests/wifi/vm-suite.sh run [CASE...]).
#
# Sets up the fixture below, then runs each CASE (a file cases/CASE.sh) in
# the order given, each in a subshell of its own: a case that fails ends
# there, the fixture is put back (wifi_reset) and the next case runs. Each
# case's output goes to $LOGDIR/cases/CASE.log and its outcome ("STATUS
# SECONDS CHECKS", STATUS 0 passed, 1 failed) to $LOGDIR/cases/CASE.result.
# Exits 0 when the fixture came up and every case ran, whatever their
# outcomes; 1 when the fixture failed.
#
# Radios (mac80211_hwsim, all on one simulated medium):
#   wlan0  hostapd "a", channel 1: open, WPA2-PSK, WPA3-SAE, WPA2/WPA3
#          transition, WPA2-Enterprise, hidden (WPA2-PSK), a non-UTF-8 SSID
#   wlan1  hostapd "b", channel 11: a second BSS of the WPA2-PSK network and
#          "joind-gone" (04-ap-gone stops it)
#   wlan2  joind's station
#   wlan3  a station radio joind is told to leave alone
#   wlan4..wlan7  left alone by joind, for the scenario files 10..40:
#          wlan4 autoconnect and link loss, wlan5 security (MFP, rekeys),
#          wlan6 hidden networks and diagnostics, wlan7 SME and operstate
# plus a radio added and removed at run time (05-radio-hotplug).
set -euo pipefail

: "${JOIND_BUILD_ROOT:?}" "${JOIND_SOURCE_ROOT:?}"
export BUILD=$JOIND_BUILD_ROOT
export LOGDIR=$BUILD/meson-logs/wifi
export WORK=/tmp/joind-wifi
# shellcheck source=lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/lib.sh"
CASES=$JOIND_SOURCE_ROOT/tests/wifi/cases
RESULTS=$LOGDIR/cases
mkdir -p "$RESULTS"
(($# > 0)) || wifi_fail "usage: run-all.sh CASE..."
for name in "$@"; do
	[[ -r $CASES/$name.sh ]] || wifi_fail "no case $CASES/$name.sh"
done

PASS=correct-horse-battery
NET=net.joind.Network1
check() { wifi_step "ok: $*"; }

# ------------------------------------------------------------ radios, APs ---
wifi_step "guest up after ${JOIND_VM_BOOT_SECONDS:-?} s of boot; cases: $*"
wifi_load_hwsim 8
printf '"user" MD5 "password"\n' >"$WORK/eap_users"
wifi_start_hostapd a <<EOF
interface=wlan0
driver=nl80211
hw_mode=g
channel=1
ssid=joind-open

bss=wlan0-1
bssid=02:00:00:00:0a:01
ssid=joind-wpa2
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS

bss=wlan0-2
bssid=02:00:00:00:0a:02
ssid=joind-sae
wpa=2
wpa_key_mgmt=SAE
ieee80211w=2
rsn_pairwise=CCMP
sae_password=$PASS

bss=wlan0-3
bssid=02:00:00:00:0a:03
ssid=joind-mixed
wpa=2
wpa_key_mgmt=WPA-PSK SAE
ieee80211w=1
rsn_pairwise=CCMP
wpa_passphrase=$PASS

bss=wlan0-4
bssid=02:00:00:00:0a:04
ssid=joind-eap
wpa=2
wpa_key_mgmt=WPA-EAP
rsn_pairwise=CCMP
ieee8021x=1
eap_server=1
eap_user_file=$WORK/eap_users

bss=wlan0-5
bssid=02:00:00:00:0a:05
ssid=joind-hidden
ignore_broadcast_ssid=1
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS

bss=wlan0-6
bssid=02:00:00:00:0a:06
ssid2=636166e9
EOF
wifi_start_hostapd b <<EOF
interface=wlan1
driver=nl80211
hw_mode=g
channel=11
ssid=joind-wpa2
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS

bss=wlan1-1
bssid=02:00:00:00:0b:01
ssid=joind-gone
EOF
wifi_step "access points up: 7 BSSes on channel 1, 2 on channel 11"

# ------------------------------------------------------------------ joind ---
wifi_start_bus
wifi_start_joind <<EOF
[General]
BlacklistInterfaces=wlan0*,wlan1*,wlan3,wlan4*,wlan5*,wlan6*,wlan7*
[Scan]
InitialPeriodicScanInterval=1
MaximumPeriodicScanInterval=4
EOF
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2"
wifi_step "joind manages wlan2 at $DEV"

# ------------------------------------------------------------- cases ---
# A case is sourced in a subshell with joind running (station $DEV on
# wlan2, main.conf as above, state dir $WORK/state holding no profile) and
# hostapd "a" on wlan0 beaconing ("b" on wlan1 too, until 04-ap-gone stops
# it). A case brings its own access points (its radio from wlan4..wlan7 or
# one from "$HWSIM_RADIO" add, SSIDs of its own) and leaves things as it
# found them: its hostapd stopped, its profiles removed, joind running and
# disconnected. Only a failed case is cleaned up after (wifi_reset).

# Puts the fixture back after a failed case: only "a" and "b" beaconing,
# every radio back from its namespace, no agent, no profile, joind
# restarted with the fixture's main.conf.
wifi_reset() {
	local pidfile name ns phy
	wifi_step "reset after a failed case"
	for pidfile in "$WORK"/hostapd-*.pid; do
		[[ -e $pidfile ]] || continue
		name=${pidfile#"$WORK"/hostapd-}
		name=${name%.pid}
		[[ $name == a || $name == b ]] || wifi_stop_hostapd "$name"
	done
	for ns in $(ip netns list | cut -d' ' -f1); do
		for phy in $(ip netns exec "$ns" iw phy | sed -n 's/^Wiphy //p'); do
			ip netns exec "$ns" iw phy "$phy" set netns 1 || wifi_fail "cannot move $phy back"
		done
		ip netns del "$ns"
	done
	"$HWSIM_RADIO" del joindhot 2>/dev/null || true
	ip -4 addr flush dev wlan2
	if [[ -e $WORK/agent.pid ]]; then
		kill "$(cat "$WORK/agent.pid")" 2>/dev/null || true
		rm -f "$WORK/agent.pid"
	fi
	[[ ! -e $WORK/main.conf.orig ]] || mv "$WORK/main.conf.orig" "$WORK/main.conf"
	rm -f "$WORK"/state/*.psk "$WORK"/state/*.open "$WORK"/state/*.8021x
	wifi_stop_joind
	wifi_start_joind --same-config
	DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2 after the reset"
}

# case_failed STATUS WHERE COMMAND: the ERR trap of a case's subshell.
case_failed() {
	[[ $BASH_SUBSHELL != "$case_level" ]] ||
		echo "FAIL: $2: \"$3\" exited with status $1" >&2
}

# run_case NAME: the case in a subshell; then what every case must leave
# behind. Writes NAME.log and NAME.result.
run_case() {
	local name=$1 log=$RESULTS/$1.log t rc pid
	t=$(wifi_now)
	wifi_step "---- $name"
	set +e
	(
		# A command that fails outside a check ends the case through
		# errexit, which says nothing: name it, where it is and its
		# status (not from inside command substitutions, whose failure
		# is reported where their value is taken).
		set -eE
		case_level=$BASH_SUBSHELL
		trap 'case_failed $? "${BASH_SOURCE[0]##*/}:$LINENO" "$BASH_COMMAND"' ERR
		# shellcheck source=/dev/null
		source "$CASES/$name.sh"
	) 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -e
	if ((rc == 0)) && { ! pid=$(cat "$WORK/joind.pid" 2>/dev/null) || wifi_pid_gone "$pid"; }; then
		echo "FAIL: $name left joind stopped" | tee -a "$log"
		rc=1
	fi
	# The one station (a restart may have renamed its path) is disconnected.
	if ((rc == 0)) && ! DEV=$(jw -t 10 count 1 net.joind.Station1 State=disconnected); then
		echo "FAIL: $name left the station connected (or a second one behind)" | tee -a "$log"
		rc=1
	fi
	((rc == 0)) || rc=1
	echo "$rc $(wifi_since "$t") \
$(grep -c '] ok: ' "$log")" >"$RESULTS/$name.result"
	wifi_step "---- $name: $( ((rc == 0)) && echo passed || echo FAILED)"
	((rc == 0)) || wifi_reset
	rm -f "$WORK"/state/*.psk "$WORK"/state/*.open "$WORK"/state/*.8021x
}

for name in "$@"; do
	run_case "$name"
done
wifi_stop_joind
wifi_step "every case ran"
