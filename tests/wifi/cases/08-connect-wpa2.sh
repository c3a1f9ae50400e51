# shellcheck shell=bash
# 08-connect-wpa2.sh - Network1.Connect() on the WPA2-PSK network
# joind-wpa2 (BSS 02:00:00:00:0a:01 on wlan0-1): refused with neither
# profile nor agent, refused with a wrong passphrase in the profile, joined
# from an admin's profile (authorized on both sides, the PSK saved beside
# the admin's lines).

# One BSS of joind-wpa2 only (the checks name it): hostapd "b", whose
# second BSS joind could pick as well, is gone once 04-ap-gone ran; when
# this case runs alone it is still up.
wifi_stop_hostapd b
jw -t 40 no-object $NET "Name=joind-gone" >/dev/null || wifi_fail "hostapd b's networks did not vanish"
addr=$(cat /sys/class/net/wlan2/address)
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
took=$(wifi_since "$t")
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
jw -t 10 object net.joind.KnownNetwork1 Name=joind-wpa2 AutoConnect=false >/dev/null ||
	wifi_fail "KnownNetwork1 joind-wpa2 does not say AutoConnect=false"
wifi_connect "$wpa2" joind-wpa2
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
check "Connect() joind-wpa2 from its profile in ${TOOK} s: connected, authorized on both sides (iw station get), PreSharedKey saved (0600) beside the admin's lines"

jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 5 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "State is not disconnected after Disconnect()"
check "Disconnect() from joind-wpa2: State=disconnected"
rm "$WORK/state/joind-wpa2.psk"
