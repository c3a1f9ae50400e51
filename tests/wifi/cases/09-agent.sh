# shellcheck shell=bash
# 09-agent.sh - Network1.Connect() on joind-wpa2 with no profile: joind
# asks the registered agent for the passphrase and saves only the PSK.

# One BSS of joind-wpa2 only (the checks name it): hostapd "b", whose
# second BSS joind could pick as well, is gone once 04-ap-gone ran; when
# this case runs alone it is still up.
wifi_stop_hostapd b
jw -t 40 no-object $NET "Name=joind-gone" >/dev/null || wifi_fail "hostapd b's networks did not vanish"
wpa2=$(jw -t 40 object $NET "Device=$DEV" Name=joind-wpa2 Type=psk) ||
	wifi_fail "joind-wpa2 not listed"
jw -t 10 object $NET Name=joind-wpa2 'KnownNetwork=/' >/dev/null ||
	wifi_fail "joind-wpa2 has a profile already"
# The agent makes the call: joind asks the caller's own agent.
wifi_agent_call "$WORK/agent.log" "$PASS" "$wpa2" Network1.Connect
jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "joind-wpa2 (the agent's passphrase): not connected"
grep -q "^RequestPassphrase $wpa2" "$WORK/agent.log" || wifi_fail "agent not asked: $(cat "$WORK/agent.log")"
grep -qE 'authorized:\s*yes' <<<"$(iw dev wlan2 station get 02:00:00:00:0a:01)" ||
	wifi_fail "wlan2: port not authorized"
grep -q '^PreSharedKey=[0-9a-f]\{64\}$' "$WORK/state/joind-wpa2.psk" ||
	wifi_fail "PreSharedKey not saved"
grep -q "$PASS" "$WORK/state/joind-wpa2.psk" && wifi_fail "the passphrase itself was saved"
check "Connect() joind-wpa2 with the agent's passphrase in ${TOOK} s: connected, only PreSharedKey saved"
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 5 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
rm "$WORK/state/joind-wpa2.psk"
