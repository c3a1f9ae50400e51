# shellcheck shell=bash
# 07-connect-open.sh - Network1.Connect() and Station1.Disconnect() on the
# open network joind-open; a second Connect() aborting the first; the access
# point deauthenticating joind, which rejoins the now known network.

open=$(jw -t 40 object $NET "Device=$DEV" Name=joind-open Type=open) ||
	wifi_fail "joind-open not listed"
wifi_connect "$open" joind-open
jw -t 5 object $NET Name=joind-open Connected=true >/dev/null || wifi_fail "Connected is not true"
link=$(iw dev wlan2 link)
grep -q 'SSID: joind-open' <<<"$link" || wifi_fail "iw: wlan2 not associated: $link"
check "Connect() joind-open answered in ${TOOK} s: State=connected, Connected=true, iw: $(head -n 1 <<<"$link")"
[[ -e $WORK/state/joind-open.open ]] || wifi_fail "joind-open.open not written"
jw -t 5 object net.joind.KnownNetwork1 Name=joind-open Type=open >/dev/null ||
	wifi_fail "no KnownNetwork1 for joind-open"
check "an open network once joined is known: joind-open.open written, KnownNetwork1 listed"

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
took=$(wifi_since "$t")
check "the AP deauthenticates: State=disconnected, then autoconnect rejoined joind-open in ${took} s"
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
jw -t 5 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
rm "$WORK/state/joind-open.open"
