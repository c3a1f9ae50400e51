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
# cannot verify our message 2 and sends message 1 again for about 3 s, the
# handshake hangs after message 2, and the deauthentication lands there.
# Then it gets the profile's passphrase (restarted), as an access point
# back from a glitch would be.

DA_STATE=$WORK/state
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
EOF2
}
da_hostapd() { hostapd_cli -p /run/hostapd-deauth -i wlan4 "$@"; }
# The station is associated and the AP has not opened its port: the
# handshake runs (message 1 sent, the station's message 2 answered it).
da_in_handshake() {
	local sta
	sta=$(da_hostapd sta "$STA") || return 1
	grep -q '\[ASSOC\]' <<<"$sta" && ! grep -q 'AUTHORIZED' <<<"$sta"
}

# The cases before may end with a user's Disconnect(), which turns
# autoconnect off until the next Connect(): a restart turns it on again.
wifi_stop_joind
wifi_start_joind --same-config
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2"
STA=$(cat /sys/class/net/wlan2/address)
da_start_ap "other-$PASS"
net=$(jw -t 40 object $NET "Device=$DEV" Name=joind-deauth Type=psk) ||
	wifi_fail "joind-deauth not listed"
wifi_step "joind-deauth beaconing on wlan4 (channel 6), with another passphrase than the profile's"

printf '[Security]\nPassphrase=%s\n' "$PASS" >"$DA_STATE/joind-deauth.psk"
wifi_poll 40 "autoconnect to joind-deauth reaching the 4-way handshake" da_in_handshake
# Message 2 left within milliseconds of message 1; the AP gives up only
# after about 3 s: 0.3 s in, the handshake waits for message 3.
sleep 0.3
da_in_handshake || wifi_fail "the handshake ended before the deauthentication"
out=$(da_hostapd deauthenticate "$STA" reason=3) && [[ $out == OK ]] ||
	wifi_fail "hostapd_cli deauthenticate: $out"
t=$(wifi_now)
wifi_step "deauthenticated $STA (reason 3) during the 4-way handshake"
wifi_stop_hostapd deauth
da_start_ap "$PASS"
jw -t 60 object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
	wifi_fail "no autoconnect to joind-deauth after one deauthentication in the handshake"
took=$(wifi_since "$t")
grep -q 'SSID: joind-deauth' <<<"$(iw dev wlan2 link)" || wifi_fail "iw: not on joind-deauth"
da_hostapd sta "$STA" | grep -q AUTHORIZED || wifi_fail "hostapd: the port is not authorized"
check "deauthenticated (reason 3) after message 2 of the handshake: not blocked, autoconnected to joind-deauth ${took} s later"

# ------------------------------------------------------------- clean up ---
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 10 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
rm -f "$DA_STATE"/joind-deauth.psk
wifi_stop_hostapd deauth
