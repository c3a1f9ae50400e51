# shellcheck shell=bash
# tests/wifi/cases/30-hidden.sh - hidden networks and link diagnostics, on
# wlan6 (channel 9, 2452 MHz), sourced by run-all.sh (see the comment above
# its loop): Station1.ConnectHiddenNetwork() to a hidden WPA2-PSK network
# with the agent's passphrase, refusals (visible SSID, empty SSID, nobody
# answering), a hidden open network through a Hidden=true profile and
# Network1.Connect(), and `joinctl station wlan2 show` while connected and
# after.

H_SECRET=02:00:00:00:6a:01
H_OPEN=02:00:00:00:6a:02
JOINCTL=$BUILD/client/joinctl
ST=net.joind.Station1

wifi_start_hostapd hidden <<EOF
interface=wlan6
driver=nl80211
hw_mode=g
channel=9
ssid=jh-visible

bss=wlan6-1
bssid=$H_SECRET
ssid=jh-secret
ignore_broadcast_ssid=1
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS

bss=wlan6-2
bssid=$H_OPEN
ssid=jh-open-hidden
ignore_broadcast_ssid=1
EOF
jw -t 40 object "$NET" "Device=$DEV" Name=jh-visible Type=open >/dev/null ||
	wifi_fail "jh-visible did not appear"
jw -t 1 count 0 "$NET" "Device=$DEV" Name=jh-secret >/dev/null ||
	wifi_fail "jh-secret is listed although it hides its SSID"
check "hidden: hostapd on wlan6 (channel 9), jh-visible listed, jh-secret not"

# hidden_call SSID: ConnectHiddenNetwork; stderr (the error) into $WORK/hidden.err.
hidden_call() {
	jcall --object-path "$DEV" --method "$ST.ConnectHiddenNetwork" "$1" 2>"$WORK/hidden.err"
}

# ------------------------------------------------------------ refusals ---
hidden_call jh-visible >/dev/null && wifi_fail "ConnectHiddenNetwork(jh-visible) succeeded"
grep -q 'net.joind.Error.InvalidArgs: .*Network1.Connect' "$WORK/hidden.err" ||
	wifi_fail "visible SSID: $(cat "$WORK/hidden.err")"
visible_err=$(sed 's/.*InvalidArgs: //' "$WORK/hidden.err")
hidden_call '' >/dev/null && wifi_fail "ConnectHiddenNetwork('') succeeded"
grep -q 'net.joind.Error.InvalidArgs' "$WORK/hidden.err" ||
	wifi_fail "empty SSID: $(cat "$WORK/hidden.err")"
hidden_call 123456789012345678901234567890123 >/dev/null &&
	wifi_fail "ConnectHiddenNetwork(33 octets) succeeded"
grep -q 'net.joind.Error.InvalidArgs' "$WORK/hidden.err" ||
	wifi_fail "33-octet SSID: $(cat "$WORK/hidden.err")"
check "hidden: ConnectHiddenNetwork refuses a visible SSID, an empty one, a 33-octet one (InvalidArgs): $visible_err"

t=$(wifi_now)
hidden_call jh-nobody >/dev/null && wifi_fail "ConnectHiddenNetwork(jh-nobody) succeeded"
took=$(wifi_since "$t")
grep -q 'net.joind.Error.NotFound: No hidden network “jh-nobody” answered' "$WORK/hidden.err" ||
	wifi_fail "nobody answering: $(cat "$WORK/hidden.err")"
jw -t 5 object "$ST" State=disconnected >/dev/null || wifi_fail "not disconnected after NotFound"
check "hidden: ConnectHiddenNetwork(jh-nobody) -> NotFound after ${took} s"

# ------------------------------------- hidden WPA2-PSK, the agent's passphrase ---
# The agent makes the call: joind asks the caller's own agent.
wifi_agent_call "$WORK/hidden-agent.log" "$PASS" "$DEV" Station1.ConnectHiddenNetwork jh-secret
took=$TOOK
secret=$DEV/network/$(printf jh-secret | od -An -tx1 | tr -d ' \n')_psk
jw -t 5 object "$ST" State=connected "ConnectedNetwork=$secret" >/dev/null ||
	wifi_fail "not connected to jh-secret ($secret)"
grep -q "^RequestPassphrase $secret" "$WORK/hidden-agent.log" ||
	wifi_fail "agent not asked: $(cat "$WORK/hidden-agent.log")"
grep -qE 'authorized:\s*yes' <<<"$(iw dev wlan2 station get $H_SECRET)" ||
	wifi_fail "wlan2: port to jh-secret not authorized"
h_prof=$WORK/state/jh-secret.psk
[[ -f $h_prof ]] || wifi_fail "no profile jh-secret.psk: $(ls "$WORK/state")"
[[ $(stat -c %a "$h_prof") == 600 ]] || wifi_fail "jh-secret.psk mode $(stat -c %a "$h_prof")"
grep -qx 'Hidden=true' "$h_prof" || wifi_fail "jh-secret.psk lacks Hidden=true: $(grep -v Key "$h_prof")"
grep -q '^PreSharedKey=[0-9a-f]\{64\}$' "$h_prof" || wifi_fail "jh-secret.psk lacks the PSK"
grep -q "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached the log"
check "hidden: ConnectHiddenNetwork(jh-secret) with the agent's passphrase in ${took} s: connected, jh-secret.psk 0600 with Hidden=true"

# ------------------------------------------------- diagnostics while connected ---
"$JOINCTL" --json station wlan2 show >"$WORK/show1.json" || wifi_fail "joinctl station wlan2 show --json"
# conn FILE FILTER: FILTER over the "connection" object of a station's JSON.
conn() { jq -er ".connection | $2" "$1"; }
conn "$WORK/show1.json" "(.bssid == \"$H_SECRET\") and .frequency == 2452 and .channel == 9" \
	>/dev/null || wifi_fail "bssid/frequency/channel: $(cat "$WORK/show1.json")"
rssi=$(conn "$WORK/show1.json" '.rssi_dbm | select(type == "number" and . < 0)') ||
	wifi_fail "rssi_dbm: $(cat "$WORK/show1.json")"
conn "$WORK/show1.json" '.security == "psk"' >/dev/null || wifi_fail "security: $(cat "$WORK/show1.json")"
conn "$WORK/show1.json" '.pairwise_cipher | startswith("CCMP")' >/dev/null || wifi_fail "pairwise cipher"
conn "$WORK/show1.json" '.group_cipher | startswith("CCMP")' >/dev/null || wifi_fail "group cipher"
conn "$WORK/show1.json" '.mfp == false' >/dev/null || wifi_fail "mfp: $(conn "$WORK/show1.json" .mfp)"
s1=$(conn "$WORK/show1.json" '.connected_seconds | numbers') || wifi_fail "no connected_seconds"
sleep 2.2
"$JOINCTL" station wlan2 show >"$WORK/show2.txt" || wifi_fail "joinctl station wlan2 show"
"$JOINCTL" --json station wlan2 show >"$WORK/show2.json" || wifi_fail "joinctl station wlan2 show --json"
s2=$(conn "$WORK/show2.json" '.connected_seconds | numbers') || wifi_fail "no connected_seconds"
((s2 >= s1 + 2)) || wifi_fail "connected_seconds did not grow: $s1 -> $s2"
for want in "BSSID *$H_SECRET" 'Frequency *2452 MHz \(channel 9\)' 'RSSI *-[0-9]+ dBm' \
	'Security *psk' 'Pairwise cipher *CCMP' 'MFP *no' 'Connected for *[0-9]+ s'; do
	grep -qE "$want" "$WORK/show2.txt" || wifi_fail "joinctl show lacks /$want/: $(cat "$WORK/show2.txt")"
done
wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.connection |
	(.bssid == \"$H_SECRET\") and (.rssi_dbm | type == \"number\")" >/dev/null ||
	wifi_fail "GetDiagnostics: wlan2's connection lacks the BSSID or rssi_dbm"
check "hidden: joinctl station wlan2 show (and --json, GetDiagnostics): $H_SECRET, 2452 MHz ch 9, ${rssi} dBm, psk/CCMP, MFP no, connected ${s1} -> ${s2} s"

# Forget the profile first (nothing left to autoconnect to), then disconnect.
rm "$h_prof"
jw -t 10 object "$NET" Name=jh-secret 'KnownNetwork=/' >/dev/null || wifi_fail "jh-secret profile not dropped"
jcall --object-path "$DEV" --method "$ST.Disconnect" >/dev/null || wifi_fail "Disconnect() failed"
jw -t 5 object "$ST" State=disconnected >/dev/null || wifi_fail "not disconnected"
"$JOINCTL" --json station wlan2 show >"$WORK/show3.json" || wifi_fail "joinctl show after Disconnect"
jq -e '.connection == null' "$WORK/show3.json" >/dev/null ||
	wifi_fail "connection not null after Disconnect: $(cat "$WORK/show3.json")"
"$JOINCTL" station wlan2 show >"$WORK/show3.txt" || wifi_fail "joinctl show after Disconnect"
grep -qE 'BSSID|RSSI' "$WORK/show3.txt" && wifi_fail "stale link facts after Disconnect: $(cat "$WORK/show3.txt")"
check "hidden: after Disconnect the link facts are gone (connection: null, no BSSID/RSSI lines)"

# ----------------------------------- hidden open network from a Hidden=true profile ---
printf '[Settings]\nHidden=true\nAutoConnect=false\n' >"$WORK/state/jh-open-hidden.open"
ho=$(jw -t 40 object "$NET" "Device=$DEV" Name=jh-open-hidden Type=open) ||
	wifi_fail "jh-open-hidden did not appear with its Hidden=true profile"
wifi_connect "$ho" jh-open-hidden
"$JOINCTL" --json station wlan2 show >"$WORK/show4.json" || wifi_fail "joinctl show (open)"
conn "$WORK/show4.json" "(.bssid == \"$H_OPEN\") and .security == \"open\"" >/dev/null ||
	wifi_fail "open link: $(cat "$WORK/show4.json")"
check "hidden: jh-open-hidden via its Hidden=true .open profile and Network1.Connect(): connected ($H_OPEN, open)"
rm "$WORK/state/jh-open-hidden.open"
jw -t 10 object "$NET" Name=jh-open-hidden 'KnownNetwork=/' >/dev/null || wifi_fail "open profile not dropped"
jcall --object-path "$DEV" --method "$ST.Disconnect" >/dev/null || wifi_fail "Disconnect() failed"
jw -t 5 object "$ST" State=disconnected >/dev/null || wifi_fail "not disconnected"

wifi_stop_hostapd hidden
