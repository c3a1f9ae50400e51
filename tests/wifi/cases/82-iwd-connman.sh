# shellcheck shell=bash
# 82-iwd-connman.sh - ConnMan 1.41 (Debian's) driving joind through iwd's
# D-Bus API (plugins/iwd-compat): connmand without its wpa_supplicant
# plugin (its iwd plugin talks to net.connman.iwd), then connmanctl
# enable wifi, scan wifi, services (joind-wpa2 listed as a PSK service),
# and connect with connmanctl's own agent answering the passphrase prompt
# (connmanctl reads it from stdin, here a pipe of this script's): joind
# connected on its own API, connmanctl's service following.

ST=net.joind.Station1
CM_LOG=$LOGDIR/connman.log

# hostapd NAME's BSSes all beaconing within SECONDS.
cm_ap_up_within() {
	local end=$(($(date +%s) + $2))
	until hostapd_all_enabled "$WORK/hostapd-$1.conf"; do
		(($(date +%s) < end)) || return 1
		sleep 0.2
	done
}

# The fixture's access points (hostapd "a", and "b" until 04-ap-gone
# stops it) after rfkill took them down: hostapd reports the interface
# enabled again on the unblock but leaves BSSes down (seen with "a"'s
# seven). It is restarted then, which also brings back the control
# sockets of its BSSes (83 deauthenticates through them).
cm_fixture_back() {
	local name conf
	for name in a b; do
		conf=$WORK/hostapd-$name.conf
		[[ -e $WORK/hostapd-$name.pid ]] || continue
		! cm_ap_up_within "$name" 2 || continue
		wifi_step "hostapd $name: BSSes down after the unblock, restarting it"
		wifi_stop_hostapd "$name"
		grep -v '^ctrl_interface=' "$conf" >"$conf.in"
		wifi_start_hostapd "$name" <"$conf.in"
	done
}

# connmand goes with the case, failed or not (wifi_reset knows neither it
# nor rfkill): every radio unblocked, the access points back.
cm_cleanup() {
	local pid soft
	if pid=$(cat "$WORK/connman.pid" 2>/dev/null); then
		kill "$pid" 2>/dev/null || true
		wifi_poll 20 "connmand ($pid) to exit" wifi_pid_gone "$pid"
	fi
	rm -f "$WORK/connman.pid"
	for soft in /sys/class/rfkill/rfkill*/soft; do
		[[ ! -e $soft ]] || echo 0 >"$soft"
	done
	cm_fixture_back
}
trap cm_cleanup EXIT

wifi_start_iwd_compat
# Its activation file would start a second connmand from connmanctl's
# first call; its state goes to the overlay.
rm -f /usr/share/dbus-1/system-services/net.connman.service
mkdir -p /var/lib/connman
# ConnMan drives WiFi through rfkill: it starts with WiFi disabled and
# soft-blocks every WLAN radio, the access points' too, until enable wifi
# unblocks them; hostapd takes its BSSes down and up with them.
# (connmand 1.41 without /dev/rfkill crashes on enable wifi, as it does
# when its settings start with WiFi enabled.) cm_cleanup puts the radios
# and the fixture's access points back for the cases after this one.
# -r: no DNS proxy (resolv.conf stays as it is); only wlan2, the one
# interface joind exports, so ConnMan touches nothing else of the scene.
connmand -n -r --noplugin=wifi,ethernet,bluetooth,gadget -i wlan2 >"$CM_LOG" 2>&1 &
echo $! >"$WORK/connman.pid"
wifi_poll 30 "connmand on the bus" connmanctl technologies
wifi_poll 30 "ConnMan's wifi technology (from net.connman.iwd)" \
	sh -c 'connmanctl technologies | grep -q "/net/connman/technology/wifi"'
connmanctl enable wifi >/dev/null 2>&1 || true
wifi_poll 30 "wifi powered in ConnMan" \
	sh -c 'connmanctl technologies | grep -A6 technology/wifi | grep -q "Powered = True"'
# The unblock that enable wifi made may leave the access points' BSSes
# down (see cm_fixture_back): bring them back before scanning for them.
cm_fixture_back
check "connmand (iwd plugin) sees joind's wlan2; connmanctl enable wifi: powered"

out=$(timeout 60 connmanctl scan wifi 2>&1) || wifi_fail "connmanctl scan wifi: $out"
grep -q "Scan completed for wifi" <<<"$out" || wifi_fail "connmanctl scan wifi: $out"
wifi_poll 30 "joind-wpa2 among ConnMan's services" \
	sh -c 'connmanctl services | grep -qE "joind-wpa2 +wifi_[0-9a-f]+_6a6f696e642d77706132_managed_psk"'
services=$(connmanctl services)
grep -qE "joind-open +wifi_[0-9a-f]+_6a6f696e642d6f70656e_managed_none" <<<"$services" ||
	wifi_fail "connmanctl services lacks joind-open as open: $services"
svc=$(grep -oE "wifi_[0-9a-f]+_6a6f696e642d77706132_managed_psk" <<<"$services" | head -n 1)
check "connmanctl scan wifi, services: joind-wpa2 (psk) and joind-open (none)"

# No DHCP server in the scene: IPv4 off, so the service does not wait for one.
connmanctl config "$svc" --ipv4 off --ipv6 off >/dev/null 2>&1 ||
	wifi_fail "connmanctl config $svc"
# connmanctl's agent prompts for the passphrase on its stdin: a
# co-process whose output is read up to the prompt before it is answered.
coproc CMCTL { exec connmanctl 2>&1; }
printf 'agent on\nconnect %s\n' "$svc" >&"${CMCTL[1]}"
prompt=
t=$(wifi_now)
while read -r -t 60 -d '?' chunk <&"${CMCTL[0]}"; do
	prompt+=$chunk
	[[ $chunk != *Passphrase ]] || break
done
[[ $prompt == *Passphrase ]] || wifi_fail "connmanctl's agent never asked: $prompt"
printf '%s\n' "$PASS" >&"${CMCTL[1]}"
wpa2=$(jw -t 5 object net.joind.Network1 "Device=$DEV" Name=joind-wpa2 Type=psk) ||
	wifi_fail "joind-wpa2 not on joind's API"
jw -t 60 object $ST State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "joind did not connect for ConnMan"
took=$(wifi_since "$t")
# With IP off the service's state stops at configuration or ready.
wifi_poll 30 "ConnMan's joind-wpa2 service connected" \
	sh -c "connmanctl services $svc | grep -qE 'State = (configuration|ready|online)'"
printf 'quit\n' >&"${CMCTL[1]}"
wait "$CMCTL_PID" 2>/dev/null || true
grep -q "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached joind's log"
check "connmanctl agent on + connect: passphrase by its agent, joind connected in ${took} s"

connmanctl disconnect "$svc" >/dev/null 2>&1 || wifi_fail "connmanctl disconnect"
jw -t 20 object $ST State=disconnected >/dev/null || wifi_fail "joind still connected"
check "connmanctl disconnect: joind disconnected"

cm_cleanup
trap - EXIT
blocked=$(grep -l 1 /sys/class/rfkill/rfkill*/soft 2>/dev/null || true)
[[ -z $blocked ]] || wifi_fail "radios still soft-blocked after ConnMan: $blocked"
wifi_stop_iwd_compat
jw -t 30 object net.joind.Device1 Name=wlan2 Powered=true >/dev/null ||
	wifi_fail "wlan2 not powered after ConnMan"
check "ConnMan gone: every radio unblocked, the fixture's access points beaconing, wlan2 powered"
