# shellcheck shell=bash
# tests/wifi/cases/40-sme.sh - sourced by run-all.sh (see the comment above
# its loop): the two ways of authenticating and associating, and the
# interface's operational state.
#   - UserspaceSME (the default, hwsim lists CMD_AUTHENTICATE/ASSOCIATE):
#     a WPA2-PSK Connect() goes through AUTHENTICATE and ASSOCIATE;
#     link mode dormant; operstate "up" once connected, after Disconnect()
#     not "up" ("down": mac80211 drops the carrier, so the kernel says
#     down rather than the dormant joind asks for)
#   - an access point that takes no station (max_num_sta=0): Connect()
#     fails once, with the status code from its authentication frame
#   - UserspaceSME=false (joind restarted): the same through CMD_CONNECT
# The access point runs on wlan7 (channel 10, 2457 MHz: 12 and 13
# are closed to access points in the world regulatory domain). The profile says
# AutoConnect=false: every connect here is an explicit Connect().

SME_SSID=joind-sme
SME_BSSID=$(cat /sys/class/net/wlan7/address)
SME_FULL=02:00:00:00:07:01

wifi_start_hostapd sme <<EOF2
interface=wlan7
driver=nl80211
hw_mode=g
channel=10
ssid=$SME_SSID
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS

bss=wlan7-1
bssid=$SME_FULL
ssid=joind-sme-full
max_num_sta=0
EOF2
wifi_step "SME AP up on wlan7 (channel 10) as $SME_BSSID"

sme_profile() {
	(
		umask 077
		printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$PASS" \
			>"$WORK/state/$SME_SSID.psk"
	)
}

# sme_connect: Connect() to joind-sme from the profile; sets SME_PATH and
# SME_MS (the Connect() call's duration: it returns once connected).
sme_connect() {
	local t0 t1
	SME_PATH=$(jw -t 40 object "$NET" "Device=$DEV" "Name=$SME_SSID" Type=psk) ||
		wifi_fail "$SME_SSID not listed"
	sme_profile
	jw -t 10 object "$NET" "Device=$DEV" "Name=$SME_SSID" 'KnownNetwork!=/' >/dev/null ||
		wifi_fail "$SME_SSID: the profile was not picked up"
	t0=$(date +%s%N)
	jcall --object-path "$SME_PATH" --method "$NET.Connect" >/dev/null ||
		wifi_fail "Connect() $SME_SSID failed"
	t1=$(date +%s%N)
	SME_MS=$(((t1 - t0) / 1000000))
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$SME_PATH" >/dev/null ||
		wifi_fail "$SME_SSID: State is not connected"
	grep -q "SSID: $SME_SSID" <<<"$(iw dev wlan2 link)" || wifi_fail "iw: wlan2 not associated"
	grep -qE 'authorized:\s*yes' <<<"$(iw dev wlan2 station get "$SME_BSSID")" ||
		wifi_fail "wlan2: port not authorized"
}

# shellcheck disable=SC2317 # called through wifi_poll
sme_operstate_is() { [[ $(cat /sys/class/net/wlan2/operstate) == "$1" ]]; }
# shellcheck disable=SC2317 # called through wifi_poll
sme_operstate_not_up() { [[ $(cat /sys/class/net/wlan2/operstate) != up ]]; }

sme_disconnect() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "not disconnected after Disconnect()"
}

# ------------------------------------------------------- userspace SME ---
auth0=$(log_count "wlan2: AUTHENTICATE with $SME_BSSID \(userspace SME\)")
assoc0=$(log_count "wlan2: ASSOCIATE with $SME_BSSID \(userspace SME\)")
conn0=$(log_count 'wlan2: CONNECT \(the kernel.s SME\)')
sme_connect
(($(log_count "wlan2: AUTHENTICATE with $SME_BSSID \(userspace SME\)") == auth0 + 1)) ||
	wifi_fail "SME: the log shows no AUTHENTICATE"
(($(log_count "wlan2: ASSOCIATE with $SME_BSSID \(userspace SME\)") == assoc0 + 1)) ||
	wifi_fail "SME: the log shows no ASSOCIATE"
(($(log_count 'wlan2: CONNECT \(the kernel.s SME\)') == conn0)) ||
	wifi_fail "SME: CMD_CONNECT was used"
grep -qE "wlan2: connecting to .*$SME_SSID.* via $SME_BSSID on 2457 MHz \(userspace SME\)" "$JOIND_LOG" ||
	wifi_fail "SME: no 'connecting ... (userspace SME)' line"
wifi_poll 5 "operstate up" sme_operstate_is up
ip -d link show wlan2 | grep -q 'mode DORMANT' || wifi_fail "wlan2: link mode is not dormant"
sme_ms=$SME_MS
check "userspace SME: AUTHENTICATE, ASSOCIATE, 4-way handshake, authorized; operstate up; Connect() took $sme_ms ms"
sme_disconnect
wifi_poll 5 "operstate not up after Disconnect()" sme_operstate_not_up
sme_state_after=$(cat /sys/class/net/wlan2/operstate)
check "userspace SME: after Disconnect() operstate is $sme_state_after"

# An access point that refuses: one failure, named with its status code.
full=$(jw -t 40 object "$NET" "Device=$DEV" Name=joind-sme-full Type=open) ||
	wifi_fail "joind-sme-full not listed"
fails0=$(log_count 'wlan2: connect to .*joind-sme-full.* failed')
out=$(jcall --object-path "$full" --method "$NET.Connect" 2>&1) &&
	wifi_fail "Connect() to a full access point succeeded"
grep -q 'net.joind.Error.Failed' <<<"$out" || wifi_fail "joind-sme-full: $out"
grep -q 'refused the authentication (access point full)' <<<"$out" ||
	wifi_fail "joind-sme-full: no status in the error: $out"
jw -t 5 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
sleep 1
(($(log_count 'wlan2: connect to .*joind-sme-full.* failed') == fails0 + 1)) ||
	wifi_fail "joind-sme-full: not exactly one failure in the log"
rm -f "$WORK/state/joind-sme-full.open"
check "userspace SME: an access point that is full: $(grep -o 'The access point refused[^.]*' <<<"$out")"

# ------------------------------------------------ CMD_CONNECT (config) ---
wifi_restart_joind_with UserspaceSME=false
auth0=$(log_count 'wlan2: AUTHENTICATE with')
conn0=$(log_count 'wlan2: CONNECT \(the kernel.s SME\)')
sme_connect
(($(log_count 'wlan2: CONNECT \(the kernel.s SME\)') == conn0 + 1)) ||
	wifi_fail "UserspaceSME=false: the log shows no CMD_CONNECT"
(($(log_count 'wlan2: AUTHENTICATE with') == auth0)) ||
	wifi_fail "UserspaceSME=false: AUTHENTICATE was used"
wifi_poll 5 "operstate up" sme_operstate_is up
check "UserspaceSME=false: CMD_CONNECT, connected; operstate up; Connect() took $SME_MS ms (userspace SME: $sme_ms ms)"
sme_disconnect
wifi_restart_joind_default

# ------------------------------------------------------------------ cleanup ---
rm -f "$WORK/state/$SME_SSID.psk"
wifi_stop_hostapd sme
unset -f sme_profile sme_connect sme_operstate_is sme_operstate_not_up sme_disconnect
