#!/bin/bash
# tests/wifi/run-all.sh - every WiFi scenario of the 'wifi' suite in one VM
# boot (meson test --suite wifi runs it through run-suite.sh; run it by hand
# from the build directory with ../tests/wifi/run-suite.sh ../tests/wifi/run-all.sh).
#
# Radios (mac80211_hwsim, all on one simulated medium):
#   wlan0  hostapd "a", channel 1: open, WPA2-PSK, WPA3-SAE, WPA2/WPA3
#          transition, WPA2-Enterprise, hidden (WPA2-PSK), a non-UTF-8 SSID
#   wlan1  hostapd "b", channel 11: a second BSS of the WPA2-PSK network and
#          "joind-gone", which is stopped half-way
#   wlan2  joind's station
#   wlan3  a station radio joind is told to leave alone
#   wlan4..wlan7  left alone by joind, for the scenario files in cases/:
#          wlan4 autoconnect and link loss, wlan5 security (MFP, rekeys),
#          wlan6 hidden networks and diagnostics, wlan7 spare
# plus a radio added and removed at run time.
set -euo pipefail

: "${JOIND_BUILD_ROOT:?}" "${JOIND_SOURCE_ROOT:?}"
export BUILD=$JOIND_BUILD_ROOT
export LOGDIR=$BUILD/meson-logs/wifi
export WORK=/tmp/joind-wifi
rm -rf "$LOGDIR"
# shellcheck source=lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/lib.sh"

PASS=correct-horse-battery
NET=net.joind.Network1
passed=0
check() {
	wifi_step "ok: $*"
	passed=$((passed + 1))
}

# ------------------------------------------------------------ radios, APs ---
wifi_step "guest up after ${JOIND_VM_BOOT_SECONDS:-?} s of boot"
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

# ------------------------------------------------ networks and their types ---
for spec in joind-open:open joind-wpa2:psk joind-sae:sae joind-mixed:sae joind-eap:8021x \
	'caf\xe9:open' joind-gone:open; do
	name=${spec%:*} type=${spec##*:}
	jw -t 40 object $NET "Device=$DEV" "Name=$name" "Type=$type" >/dev/null ||
		wifi_fail "network $name ($type) did not appear"
done
check "7 networks with the right Type (transition counts as sae: hwsim can do SAE)"

[[ $(jw -t 5 count 1 $NET "Device=$DEV" "Name=joind-wpa2") == \
	"$DEV/network/6a6f696e642d77706132_psk" ]] || wifi_fail "joind-wpa2 is not one network"
diag=$(jcall --object-path /net/joind --method net.joind.Daemon1.GetDiagnostics)
n=$(grep -o '"ssid" : "joind-wpa2"' <<<"${diag//\\\"/\"}" | wc -l)
((n == 2)) || wifi_fail "joind-wpa2: expected 2 BSSes in the diagnostics, found $n"
check "joind-wpa2: two BSSes (channels 1 and 11), one Network1 object"

jw -t 5 object $NET "Device=$DEV" "Name=caf\\xe9" | grep -q '/network/636166e9_open$' ||
	wifi_fail "non-UTF-8 SSID: wrong path"
check "non-UTF-8 SSID: Name caf\\xe9, path .../636166e9_open"

jw -t 1 count 0 $NET "Name=joind-hidden" >/dev/null || wifi_fail "hidden network listed"
jw -t 1 count 7 $NET "Device=$DEV" >/dev/null || wifi_fail "expected exactly 7 networks"
check "the hidden SSID is not listed without a profile"

# ------------------------------------------------------- the ignored radio ---
jw -t 1 count 0 net.joind.Device1 "Name=wlan3" >/dev/null || wifi_fail "wlan3 got a device"
ip -o link show wlan3 | grep -q 'state DOWN' || wifi_fail "wlan3 was brought up"
[[ -z $(iw dev wlan3 scan dump 2>&1) ]] || wifi_fail "wlan3 has scan results: it was scanned"
grep -q 'wlan3: left alone' "$JOIND_LOG" || wifi_fail "no log line for wlan3"
check "wlan3 (BlacklistInterfaces): no device, still down, never scanned"

# ------------------------------------------------- Scan() joins a running scan ---
joins_before=$(log_count 'scan request \(D-Bus\) joins scan')
t=$(wifi_now)
jw -t 60 scan-join "$DEV" || wifi_fail "Scan() twice: a call failed"
took=$(awk -v a="$(wifi_now)" -v b="$t" 'BEGIN { printf "%.1f", a - b }')
(($(log_count 'scan request \(D-Bus\) joins scan') > joins_before)) ||
	wifi_fail "the second Scan() did not join the running scan"
check "Scan() while Scanning=true joined the running scan (both answered after ${took} s)"

# ---------------------------------------------------- periodic scan back-off ---
wifi_poll 40 "back-off to the maximum" grep -q 'wlan2: next periodic scan in 4 s' "$JOIND_LOG"
seq=$(grep -oE 'wlan2: next periodic scan in [0-9]+ s' "$JOIND_LOG" | grep -oE '[0-9]+ s' |
	head -n 4 | tr '\n' ' ')
[[ $seq == "1 s 2 s 4 s "* ]] || wifi_fail "back-off sequence: $seq"
check "periodic scans back off: $seq(max 4 s)"

# ------------------------------------------------------- an AP goes away ---
wifi_stop_hostapd b
jw -t 40 no-object $NET "Name=joind-gone" >/dev/null || wifi_fail "joind-gone did not vanish"
jw -t 1 object $NET "Name=joind-wpa2" >/dev/null || wifi_fail "joind-wpa2 vanished too"
check "hostapd b stopped: joind-gone vanished, joind-wpa2 stays (one BSS left)"

# ------------------------------------------------ radios added and removed ---
"$HWSIM_RADIO" add joindhot >/dev/null || wifi_fail "hwsim-radio add"
hot=$(jw -t 30 count 2 net.joind.Device1 Kind=wifi | grep -v "^$DEV$") ||
	wifi_fail "no device for the new radio"
jw -t 30 object $NET "Device=$hot" "Name=joind-open" >/dev/null ||
	wifi_fail "the new radio's station found no networks"
check "radio added at run time: $hot appeared and scanned"
"$HWSIM_RADIO" del joindhot || wifi_fail "hwsim-radio del"
jw -t 30 count 1 net.joind.Device1 Kind=wifi >/dev/null || wifi_fail "$hot did not vanish"
jw -t 5 count 0 $NET "Device=$hot" >/dev/null || wifi_fail "networks of $hot remain"
check "radio removed: its device and networks vanished"

# ------------------------------------------- hidden network with a profile ---
# Dropped in while joind runs: the profile store reloads it, the next scan
# probes for the SSID.
cat >"$WORK/state/joind-hidden.psk" <<EOF
[Security]
Passphrase=$PASS
[Settings]
Hidden=true
EOF
path=$(jw -t 40 object $NET "Device=$DEV" Name=joind-hidden Type=psk) ||
	wifi_fail "hidden network did not appear with a Hidden=true profile"
jw -t 10 object $NET Name=joind-hidden 'KnownNetwork!=/' >/dev/null ||
	wifi_fail "hidden network is not linked to its profile"
grep -qE 'wlan2: scan [0-9]+ .*1 SSIDs probed' "$JOIND_LOG" || wifi_fail "no directed probe"
check "Hidden=true profile dropped in: the hidden network appears ($path)"

wifi_stop_joind
wifi_start_joind --same-config
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2 after restart"
jw -t 40 object $NET "Device=$DEV" Name=joind-hidden Type=psk 'KnownNetwork!=/' >/dev/null ||
	wifi_fail "hidden network missing after a restart"
check "after a restart the hidden network is found again from its profile"

ip -o link show wlan3 | grep -q 'state DOWN' || wifi_fail "wlan3 was brought up"
jw -t 1 count 0 net.joind.Device1 "Name=wlan3" >/dev/null || wifi_fail "wlan3 got a device"
check "after the restart wlan3 is still left alone"

# Autoconnect: the Hidden=true profile holds the right passphrase, so joind
# joins the hidden network on its own; removing the profile leaves it.
jw -t 40 object net.joind.Station1 State=connected "ConnectedNetwork=$path" >/dev/null ||
	wifi_fail "joind did not autoconnect to joind-hidden after the restart"
check "after the restart joind autoconnected to joind-hidden from its Hidden=true profile"
rm "$WORK/state/joind-hidden.psk"
jw -t 10 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "still connected to joind-hidden after its profile was removed"
check "joind-hidden's profile removed while connected: disconnected"

# ----------------------------------------------------------- connect: open ---
open=$(jw -t 40 object $NET "Device=$DEV" Name=joind-open Type=open) ||
	wifi_fail "joind-open not listed"
t=$(wifi_now)
jcall --object-path "$open" --method $NET.Connect >/dev/null || wifi_fail "Connect() joind-open failed"
took=$(awk -v a="$(wifi_now)" -v b="$t" 'BEGIN { printf "%.2f", a - b }')
jw -t 5 object net.joind.Station1 State=connected "ConnectedNetwork=$open" >/dev/null ||
	wifi_fail "State is not connected / ConnectedNetwork not joind-open"
jw -t 5 object $NET Name=joind-open Connected=true >/dev/null || wifi_fail "Connected is not true"
link=$(iw dev wlan2 link)
grep -q 'SSID: joind-open' <<<"$link" || wifi_fail "iw: wlan2 not associated: $link"
check "Connect() joind-open answered in ${took} s: State=connected, Connected=true, iw: $(head -n 1 <<<"$link")"
[[ -e $WORK/state/joind-open.open ]] || wifi_fail "joind-open.open not written"
check "an open network once joined is known: joind-open.open written"

jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 5 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "State is not disconnected after Disconnect()"
jw -t 5 object $NET Name=joind-open Connected=false >/dev/null || wifi_fail "still Connected"
link=$(iw dev wlan2 link)
grep -q 'Not connected' <<<"$link" || wifi_fail "iw: wlan2 still associated: $link"
check "Disconnect(): State=disconnected, ConnectedNetwork=/, iw: $link"

out=$(jw -t 30 connect-twice "$open") || wifi_fail "connect-twice: $out"
jw -t 5 object net.joind.Station1 State=connected "ConnectedNetwork=$open" >/dev/null ||
	wifi_fail "not connected after the second Connect()"
check "a second Connect() aborts the first: $(tr '\n' ' ' <<<"$out")"

addr=$(cat /sys/class/net/wlan2/address)
hostapd_cli -p /run/hostapd-a -i wlan0 deauthenticate "$addr" >/dev/null ||
	wifi_fail "hostapd_cli deauthenticate"
# joind-open is known now: autoconnect joins it again at once, so the
# disconnect shows in the log rather than as a lasting State.
t=$(wifi_now)
wifi_poll 10 "the AP's deauthentication in the log" grep -qE \
	'wlan2: connected -> disconnected \((the access point disconnected us|deauthenticated by the access point)' \
	"$JOIND_LOG"
jw -t 20 object net.joind.Station1 State=connected "ConnectedNetwork=$open" >/dev/null ||
	wifi_fail "no reconnect after the AP's deauthentication"
took=$(awk -v a="$(wifi_now)" -v b="$t" 'BEGIN { printf "%.2f", a - b }')
check "the AP deauthenticates: State=disconnected, then autoconnect rejoined joind-open in ${took} s"
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 5 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
rm "$WORK/state/joind-open.open"

# ---------------------------------------------------------- connect: WPA2 ---
wpa2=$(jw -t 40 object $NET "Device=$DEV" Name=joind-wpa2 Type=psk) ||
	wifi_fail "joind-wpa2 not listed"
out=$(jcall --object-path "$wpa2" --method $NET.Connect 2>&1) &&
	wifi_fail "Connect() without profile or agent succeeded"
grep -q 'net.joind.Error.NoAgent' <<<"$out" || wifi_fail "no NoAgent error: $out"
[[ ! -e $WORK/state/joind-wpa2.psk ]] || wifi_fail "a profile was written"
check "joind-wpa2 without profile or agent: $(grep -o 'net.joind.Error.NoAgent' <<<"$out")"

printf '[Security]\nPassphrase=not-the-passphrase\n' >"$WORK/state/joind-wpa2.psk"
cp "$WORK/state/joind-wpa2.psk" "$WORK/wrong.psk"
jw -t 10 object $NET Name=joind-wpa2 'KnownNetwork!=/' >/dev/null ||
	wifi_fail "joind-wpa2 not linked to the dropped-in profile"
t=$(wifi_now)
out=$(jcall --object-path "$wpa2" --method $NET.Connect 2>&1) &&
	wifi_fail "Connect() with a wrong passphrase succeeded"
took=$(awk -v a="$(wifi_now)" -v b="$t" 'BEGIN { printf "%.1f", a - b }')
grep -q 'net.joind.Error.AuthenticationFailed' <<<"$out" ||
	wifi_fail "no AuthenticationFailed error: $out"
jw -t 10 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "not disconnected after the failure"
cmp -s "$WORK/state/joind-wpa2.psk" "$WORK/wrong.psk" || wifi_fail "the profile was rewritten"
grep -q 'not-the-passphrase' "$JOIND_LOG" && wifi_fail "the passphrase reached the log"
check "wrong passphrase: AuthenticationFailed after ${took} s, profile untouched, State=disconnected"

rm "$WORK/state/joind-wpa2.psk"
jw -t 10 object $NET Name=joind-wpa2 'KnownNetwork=/' >/dev/null || wifi_fail "profile not dropped"
printf '# dropped in by the admin\n[Security]\nPassphrase=%s\n\n[Settings]\nAutoConnect=false\n' \
	"$PASS" >"$WORK/state/joind-wpa2.psk"
jw -t 10 object $NET Name=joind-wpa2 'KnownNetwork!=/' >/dev/null || wifi_fail "profile not loaded"
t=$(wifi_now)
jcall --object-path "$wpa2" --method $NET.Connect >/dev/null || wifi_fail "Connect() joind-wpa2 failed"
took=$(awk -v a="$(wifi_now)" -v b="$t" 'BEGIN { printf "%.2f", a - b }')
jw -t 5 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "State is not connected to joind-wpa2"
link=$(iw dev wlan2 link)
grep -q 'SSID: joind-wpa2' <<<"$link" || wifi_fail "iw: wlan2 not associated: $link"
# The AP's side (set by hostapd after its 4-way handshake) and ours.
ap_sta=$(iw dev wlan0-1 station get "$addr")
grep -qE 'authorized:\s*yes' <<<"$ap_sta" || wifi_fail "AP: station not authorized: $ap_sta"
sta=$(iw dev wlan2 station get 02:00:00:00:0a:01)
grep -qE 'authorized:\s*yes' <<<"$sta" || wifi_fail "wlan2: port not authorized: $sta"
grep -q '^PreSharedKey=[0-9a-f]\{64\}$' "$WORK/state/joind-wpa2.psk" ||
	wifi_fail "PreSharedKey not saved"
[[ $(stat -c %a "$WORK/state/joind-wpa2.psk") == 600 ]] || wifi_fail "profile mode is not 0600"
for line in '# dropped in by the admin' "Passphrase=$PASS" 'AutoConnect=false'; do
	grep -qxF "$line" "$WORK/state/joind-wpa2.psk" ||
		wifi_fail "saving the PSK lost the line '$line': $(cat "$WORK/state/joind-wpa2.psk")"
done
grep -q "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached the log"
check "Connect() joind-wpa2 from its profile in ${took} s: connected, authorized on both sides (iw station get), PreSharedKey saved (0600) beside the admin's lines"

jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 5 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "State is not disconnected after Disconnect()"
check "Disconnect() from joind-wpa2: State=disconnected"

# ------------------------------------------------ WPA2: passphrase from the agent ---
rm "$WORK/state/joind-wpa2.psk"
jw -t 10 object $NET Name=joind-wpa2 'KnownNetwork=/' >/dev/null || wifi_fail "profile not dropped"
# wired-helper's agent (tests/wired) on this bus.
DBUS_SESSION_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket \
	"$BUILD/tests/wired/wired-helper" agent --passphrase "$PASS" >"$WORK/agent.log" 2>&1 &
agent_pid=$!
wifi_poll 10 "the agent to register" grep -q '^registered' "$WORK/agent.log"
t=$(wifi_now)
jcall --object-path "$wpa2" --method $NET.Connect >/dev/null || wifi_fail "Connect() via the agent failed"
took=$(awk -v a="$(wifi_now)" -v b="$t" 'BEGIN { printf "%.2f", a - b }')
kill "$agent_pid"
wait "$agent_pid" || true
grep -q "^RequestPassphrase $wpa2" "$WORK/agent.log" || wifi_fail "agent not asked: $(cat "$WORK/agent.log")"
jw -t 5 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "State is not connected to joind-wpa2"
grep -qE 'authorized:\s*yes' <<<"$(iw dev wlan2 station get 02:00:00:00:0a:01)" ||
	wifi_fail "wlan2: port not authorized"
grep -q '^PreSharedKey=[0-9a-f]\{64\}$' "$WORK/state/joind-wpa2.psk" ||
	wifi_fail "PreSharedKey not saved"
grep -q "$PASS" "$WORK/state/joind-wpa2.psk" && wifi_fail "the passphrase itself was saved"
check "Connect() joind-wpa2 with the agent's passphrase in ${took} s: connected, only PreSharedKey saved"
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"

jw -t 5 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"

# ------------------------------------------------------ scenario files ---
# Each tests/wifi/cases/NN-name.sh is sourced here, in order, with joind
# running ($JOIND_PID, station $DEV on wlan2, state dir $WORK/state holding
# no profile) and hostapd "a" on wlan0 still beaconing. A case brings its
# own access points (fresh radios from "$HWSIM_RADIO" add, SSIDs of its
# own), and leaves things as it found them: its hostapd stopped, its
# profiles removed, joind running and disconnected.
rm -f "$WORK"/state/*.psk "$WORK"/state/*.open "$WORK"/state/*.8021x
for case_file in "$JOIND_SOURCE_ROOT"/tests/wifi/cases/[0-9]*.sh; do
	[[ -e $case_file ]] || continue
	wifi_step "---- ${case_file##*/}"
	# shellcheck source=/dev/null
	source "$case_file"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "${case_file##*/} left the station connected"
done

wifi_stop_joind
wifi_step "PASS: $passed checks"
