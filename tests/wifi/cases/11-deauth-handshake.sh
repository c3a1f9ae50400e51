# shellcheck shell=bash
# 11-deauth-handshake.sh - a deauthentication during the 4-way handshake,
# after the station's message 2 (what anyone in radio range can send, and
# what a slow access point does by accident), does not stop autoconnect:
# the next try joins, without a profile change or a user's Connect().
# Sourced by run-all.sh (see the comment above its loop). joind's station
# is wlan2 ($DEV). The access point is on wlan4 (channel 6, after
# 10-autoconnect is done with it):
#   wlan4    joind-deauth   WPA2-PSK
# A correct access point answers message 2 within milliseconds, too soon
# for hostapd_cli to aim at. So it starts with another passphrase: it
# cannot verify our message 2 (AP-STA-POSSIBLE-PSK-MISMATCH, the event
# that proves message 2 arrived), sends message 1 again for about 3 s, and
# a hostapd_cli action on that event sends the deauthentication (reason 3)
# at once, while the station waits for message 3. Then the access point
# gets the profile's passphrase (restarted), as one back from a glitch
# would be.

DA_STATE=$WORK/state
# da_start_ap PASSPHRASE [LINE]: LINE is added to the config.
da_start_ap() {
	wifi_start_hostapd deauth <<EOF2
interface=wlan4
driver=nl80211
hw_mode=g
channel=6
ssid=joind-deauth
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$1
${2:-}
EOF2
}
da_hostapd() { hostapd_cli -p /run/hostapd-deauth -i wlan4 "$@"; }
# On the first message 2 hostapd could not verify: deauthenticate, once.
da_start_action() {
	cat >"$WORK/deauth-action.sh" <<EOF2
#!/bin/sh
[ "\$2" = AP-STA-POSSIBLE-PSK-MISMATCH ] || exit 0
[ -e "$WORK/deauth-sent" ] && exit 0
hostapd_cli -p /run/hostapd-deauth -i wlan4 deauthenticate "\$3" reason=3 >"$WORK/deauth-sent"
EOF2
	chmod +x "$WORK/deauth-action.sh"
	rm -f "$WORK/deauth-sent"
	da_hostapd -a "$WORK/deauth-action.sh" -B -P "$WORK/hostapd_cli-deauth.pid" ||
		wifi_fail "hostapd_cli -a"
}
da_stop_action() {
	local pid
	pid=$(cat "$WORK/hostapd_cli-deauth.pid" 2>/dev/null) || return 0
	rm -f "$WORK/hostapd_cli-deauth.pid"
	kill "$pid" 2>/dev/null || true
}

# The cases before may end with a user's Disconnect(), which turns
# autoconnect off until the next Connect(): a restart turns it on again.
wifi_stop_joind
wifi_start_joind --same-config
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2"
STA=$(cat /sys/class/net/wlan2/address)
# Message 1 sent 8 times rather than 4: hostapd holds the handshake open
# until joind's own 5 s bound, room for a slow VM to aim.
da_start_ap "other-$PASS" wpa_pairwise_update_count=8
net=$(jw -t 40 object $NET "Device=$DEV" Name=joind-deauth Type=psk) ||
	wifi_fail "joind-deauth not listed"
wifi_step "joind-deauth beaconing on wlan4 (channel 6), with another passphrase than the profile's"

da_start_action
mark=$(wc -l <"$JOIND_LOG")
printf '[Security]\nPassphrase=%s\n' "$PASS" >"$DA_STATE/joind-deauth.psk"
wifi_poll 60 "a deauthentication after the station's message 2" test -s "$WORK/deauth-sent"
t=$(wifi_now)
da_stop_action
[[ $(cat "$WORK/deauth-sent") == OK ]] ||
	wifi_fail "hostapd_cli deauthenticate: $(cat "$WORK/deauth-sent")"
wifi_step "deauthenticated $STA (reason 3) after its message 2"
wifi_stop_hostapd deauth
da_start_ap "$PASS"
jw -t 60 object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
	wifi_fail "no autoconnect to joind-deauth after one deauthentication in the handshake"
took=$(wifi_since "$t")
grep -q 'SSID: joind-deauth' <<<"$(iw dev wlan2 link)" || wifi_fail "iw: not on joind-deauth"
[[ $(da_hostapd sta "$STA") == *AUTHORIZED* ]] || wifi_fail "hostapd: the port is not authorized"
# Where the deauthentication landed shows nowhere but in joind's log: in
# the handshake, after message 2.
since=$(tail -n +"$((mark + 1))" "$JOIND_LOG")
grep -qE '4-way handshake failed \(the access point disconnected us, reason 3:.*message 2' \
	<<<"$since" || wifi_fail "the deauthentication did not end a handshake after message 2"
check "deauthenticated (reason 3) after message 2 of the handshake: not blocked, autoconnected to joind-deauth ${took} s later"

# ------------------------------------------------------------- clean up ---
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 10 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
rm -f "$DA_STATE"/joind-deauth.psk
wifi_stop_hostapd deauth
