# shellcheck shell=bash
# tests/wifi/cases/72-sae-transition.sh - sourced by run-all.sh (see the
# comment above its loop): what SAE keeps and what it refuses, asserted on
# the diagnostics, hostapd's view of the station and the profile joind
# writes.
#   - hash-to-element only (sae_pwe=1): security sae-h2e; the PT lands in
#     the profile (SAE-PT-Group19); the next Connect() skips SAE with the
#     cached PMKSA (pmksa_cached); hostapd's PMKSAs flushed -> it refuses
#     the PMKID and joind runs SAE after all, from the profile's PT
#   - an SAE-only AP (MFP required) and an admin-dropped <ssid>.psk with a
#     wrong passphrase: autoconnect fails; the corrected file -> autoconnect
#     joins (the network was not blocked for good)
#   - a PT that does not fit the passphrase (the curve's generator, read
#     at start) -> SAE again with a fresh one, which replaces it
#   - a transition-mode AP (WPA-PSK SAE) that sets transition_disable=0x01:
#     joined with SAE (hostapd's AKM 00-0f-ac-8); the profile gets
#     TransitionDisable=true and DisabledTransitionModes=personal; the same
#     SSID then served WPA2-only -> Connect() is refused with a sentence and
#     hostapd sees no authentication
# The access points run on wlan5 (channel 4, root namespace).

TD_ADDR=$(cat /sys/class/net/wlan2/address)
TD_CLI=(hostapd_cli -p /run/hostapd-sae72 -i wlan5)
# P-256's generator: a point of the group, not the PT of any passphrase.
TD_G=6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296
TD_G=${TD_G}4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5

td_profile() {
	(
		umask 077
		printf '[Security]\nPassphrase=%s\n%s' "$2" "${3-}" >"$WORK/state/$1.psk"
	)
}

td_conn() { wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection'; }

# td_connect SSID JQ-CONDITION: Connect() from the profile, then the
# diagnostics' link fits the condition.
td_connect() {
	local path conn
	path=$(jw -t 40 object "$NET" "Device=$DEV" "Name=$1" 'KnownNetwork!=/') ||
		wifi_fail "$1: not listed with its profile"
	wifi_connect "$path" "$1"
	conn=$(td_conn) || wifi_fail "$1: no connection in the diagnostics"
	jq -e "$2" <<<"$conn" >/dev/null || wifi_fail "$1: want $2: $conn"
}

td_disconnect() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "not disconnected after Disconnect()"
}

td_attempts_failed() { log_count 'wlan2: connecting -> disconnected'; }
# shellcheck disable=SC2317 # called through wifi_poll
td_failed_since() { (($(td_attempts_failed) > $1)); }

td_pt() { sed -n 's/^SAE-PT-Group19=//p' "$WORK/state/$1.psk"; }

td_start() {
	wifi_start_hostapd sae72 <<EOF
interface=wlan5
driver=nl80211
hw_mode=g
channel=4
$1
EOF
}

td_rescan_until() {
	jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || true
	jw -t 30 object "$NET" "Device=$DEV" "$@" >/dev/null
}

# ----------------------------------------------- H2E, PT and PMKSA cache ---
td_start "ssid=joind-h2e72
wpa=2
wpa_key_mgmt=SAE
ieee80211w=2
rsn_pairwise=CCMP
sae_password=$PASS
sae_pwe=1
sae_groups=19

bss=wlan5-1
bssid=02:00:00:00:72:01
ssid=joind-sae72
wpa=2
wpa_key_mgmt=SAE
ieee80211w=2
rsn_pairwise=CCMP
sae_password=$PASS"
td_profile joind-h2e72 "$PASS" $'[Settings]\nAutoConnect=false\n'
td_connect joind-h2e72 '.security == "sae-h2e" and .sae_group == 19 and .pmksa_cached == false'
[[ $(td_pt joind-h2e72) =~ ^[0-9a-f]{128}$ ]] || wifi_fail "no SAE-PT-Group19 in the profile"
first=$TOOK
td_disconnect
td_connect joind-h2e72 '.security == "sae-h2e" and .pmksa_cached == true'
"${TD_CLI[@]}" sta "$TD_ADDR" | grep -q '^AKMSuiteSelector=00-0f-ac-8$' ||
	wifi_fail "hostapd does not see the station with SAE's AKM"
check "H2E: SAE in ${first}s (PT into the profile), then the cached PMKSA in ${TOOK}s"
td_disconnect

"${TD_CLI[@]}" pmksa_flush >/dev/null || wifi_fail "hostapd_cli pmksa_flush"
td_connect joind-h2e72 '.security == "sae-h2e" and .pmksa_cached == false'
check "hostapd forgot the PMKSA: it refused the PMKID, SAE (the profile's PT) in ${TOOK}s"
td_disconnect

# joind starts afresh (Disconnect() turned autoconnect off until the next
# Connect(); no PMKSA survives), reading a profile whose PT does not fit
# its passphrase; an admin drops an SAE-only network's file in.
good=$(td_pt joind-h2e72)
wifi_stop_joind
sed -i "s/^SAE-PT-Group19=.*/SAE-PT-Group19=$TD_G/" "$WORK/state/joind-h2e72.psk"
wifi_start_joind --same-config
DEV=$(wifi_device_path wlan2 60) || wifi_fail "no device for wlan2 after the restart"
jw -t 40 object "$NET" "Device=$DEV" Name=joind-sae72 'KnownNetwork=/' >/dev/null ||
	wifi_fail "joind-sae72 not listed after the restart"
# The attempt is over within a second: its end is what the log shows.
fails=$(td_attempts_failed)
td_profile joind-sae72 not-the-passphrase
wifi_poll 30 "autoconnect to try joind-sae72 and fail" td_failed_since "$fails"
jw -t 30 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "a wrong passphrase: not disconnected"
t=$(wifi_now)
td_profile joind-sae72 "$PASS"
jw -t 60 object net.joind.Station1 State=connected >/dev/null ||
	wifi_fail "the corrected profile: autoconnect did not join"
td_conn | jq -e '.security == "sae" and .mfp' >/dev/null || wifi_fail "autoconnect: not SAE with MFP"
check "SAE-only: a wrong passphrase failed; the corrected file joined by autoconnect in $(wifi_since "$t")s"

td_connect joind-h2e72 '.security == "sae-h2e" and .pmksa_cached == false'
[[ $(td_pt joind-h2e72) == "$good" ]] || wifi_fail "the stale PT was not replaced: $(td_pt joind-h2e72)"
check "a PT that does not fit the passphrase: SAE again with a fresh one in ${TOOK}s, profile fixed"
td_disconnect
rm -f "$WORK/state/joind-h2e72.psk" "$WORK/state/joind-sae72.psk"
wifi_stop_hostapd sae72

# ------------------------------------------------- transition disable ---
td_start "ssid=joind-td72
wpa=2
wpa_key_mgmt=WPA-PSK SAE
ieee80211w=1
rsn_pairwise=CCMP
wpa_passphrase=$PASS
transition_disable=0x01"
jw -t 40 object "$NET" "Device=$DEV" Name=joind-td72 Security=wpa2-wpa3 >/dev/null ||
	wifi_fail "joind-td72 not listed as wpa2-wpa3"
td_profile joind-td72 "$PASS" $'[Settings]\nAutoConnect=false\n'
td_connect joind-td72 '.security == "sae"'
"${TD_CLI[@]}" sta "$TD_ADDR" | grep -q '^AKMSuiteSelector=00-0f-ac-8$' ||
	wifi_fail "transition AP: hostapd does not see SAE's AKM"
if ! grep -qx 'TransitionDisable=true' "$WORK/state/joind-td72.psk" ||
	! grep -qx 'DisabledTransitionModes=personal' "$WORK/state/joind-td72.psk"; then
	wifi_fail "transition disable not in the profile: $(grep -v Pass "$WORK/state/joind-td72.psk")"
fi
check "transition AP: joined with SAE in ${TOOK}s; its Transition Disable is in the profile"
td_disconnect
wifi_stop_hostapd sae72

td_start "ssid=joind-td72
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS"
td_rescan_until Name=joind-td72 Security=wpa2-psk || wifi_fail "the WPA2-only joind-td72 not seen"
path=$(jw -t 5 object "$NET" "Device=$DEV" Name=joind-td72) || wifi_fail "joind-td72 gone"
out=$(jcall --object-path "$path" --method "$NET.Connect" 2>&1) &&
	wifi_fail "Connect() to the WPA2-only AP after transition disable succeeded"
# NotFound: no access point of the network in range is one the rules allow.
grep -q 'net.joind.Error.NotFound' <<<"$out" || wifi_fail "downgrade: want NotFound: $out"
[[ -z $("${TD_CLI[@]}" all_sta) ]] || wifi_fail "the WPA2-only AP saw the station"
check "WPA2-only AP with the same SSID refused, not tried: ${out#*NotFound: }"
rm -f "$WORK/state/joind-td72.psk"
wifi_stop_hostapd sae72
unset -f td_attempts_failed td_failed_since td_profile td_conn td_connect td_disconnect td_pt td_start td_rescan_until
