# shellcheck shell=bash
# 80-iwd-iwctl.sh - iwd's D-Bus API (plugins/iwd-compat) driven by Debian's
# iwctl, a client no one here wrote, against the fixture's access points on
# wlan0: joind restarted with [General] IwdCompatibility=true and the
# front end loaded; device and adapter lists, scan (answered while it
# runs, as iwd does), get-networks, connect
# with a passphrase (joind connected on its own API), a wrong passphrase
# (non-zero exit with joind's error text), show, GetDiagnostics, device
# set-property Powered off and on, disconnect (still disconnected 10 s
# later), known-networks list, set-property AutoConnect no, forget;
# optional properties left out when they have no value; a hidden network
# of its own on wlan6 (channel 9): get-hidden-access-points lists its BSS,
# connect-hidden refused for a visible SSID, connect-hidden with a
# passphrase, connect once known.

IWD=net.connman.iwd
ST=net.joind.Station1
KN=net.joind.KnownNetwork1
export TERM=dumb

icall() { gdbus call --system --dest $IWD "$@"; }
# The iwd objects and their properties, as iwctl sees them.
iwd_objects() { icall --object-path / --method org.freedesktop.DBus.ObjectManager.GetManagedObjects; }
iwd_props() { icall --object-path "$1" --method org.freedesktop.DBus.Properties.GetAll "$2"; }

# joind with the front end: the wifi plugin and iwd-compat, and the policy
# that lets root own net.connman.iwd.
wifi_start_iwd_compat
info=$(icall --object-path /net/connman/iwd --method net.connman.iwd.Daemon.GetInfo)
grep -q "'StateDirectory': <'$WORK/state'>" <<<"$info" || wifi_fail "GetInfo: $info"
check "joind owns $IWD beside net.joind; GetInfo names its state directory"

phy=$(cat /sys/class/net/wlan2/phy80211/index)
ifindex=$(cat /sys/class/net/wlan2/ifindex)
IDEV=/net/connman/iwd/$phy/$ifindex
out=$(iwctl device list) || wifi_fail "iwctl device list: $out"
grep -qE "wlan2 +$(cat /sys/class/net/wlan2/address) +on +phy$phy +station" <<<"$out" ||
	wifi_fail "iwctl device list: $out"
out=$(iwctl adapter list) || wifi_fail "iwctl adapter list: $out"
grep -qE "phy$phy +on" <<<"$out" || wifi_fail "iwctl adapter list: $out"
objects=$(iwd_objects)
grep -q "'$IDEV': {'net.connman.iwd.Device': {[^}]*}, 'net.connman.iwd.Station'" <<<"$objects" ||
	grep -q "'$IDEV': {'net.connman.iwd.Station': {[^}]*}, 'net.connman.iwd.Device'" <<<"$objects" ||
	wifi_fail "$IDEV lacks Device or Station: $objects"
check "iwctl device list and adapter list: wlan2 on phy$phy in station mode, at $IDEV"

# iwd answers Scan() once the scan has begun, and Scanning tells its end
# (a scan of every channel takes seconds on hwsim). On a loaded host the
# scan can end before busctl runs: then the signalled change to true
# shows that it began.
gdbus monitor --system --dest $IWD --object-path "$IDEV" >"$WORK/scan-monitor.txt" 2>&1 &
monitor=$!
wifi_poll 10 "gdbus monitor ready" grep -q '^Monitoring' "$WORK/scan-monitor.txt"
iwctl station wlan2 scan || wifi_fail "iwctl station wlan2 scan"
scanning=$(busctl --system --json=short get-property $IWD "$IDEV" $IWD.Station Scanning |
	jq -r .data)
jw -t 30 object $ST Scanning=false >/dev/null || wifi_fail "still scanning"
sleep 0.5
kill "$monitor" 2>/dev/null || true
wait "$monitor" 2>/dev/null || true
[[ $scanning == true ]] || grep -q "'Scanning': <true>" "$WORK/scan-monitor.txt" ||
	wifi_fail "Scan() answered, yet Scanning is $scanning and never signalled true: $(cat "$WORK/scan-monitor.txt")"
out=$(iwctl station wlan2 get-networks) || wifi_fail "iwctl get-networks: $out"
grep -qE "joind-open +open +\*" <<<"$out" || wifi_fail "get-networks lacks joind-open: $out"
grep -qE "joind-wpa2 +psk +\*" <<<"$out" || wifi_fail "get-networks lacks joind-wpa2: $out"
grep -qE "joind-sae +psk" <<<"$out" || wifi_fail "get-networks: joind-sae is not psk: $out"
iwpa2=$IDEV/6a6f696e642d77706132_psk
props=$(iwd_props "$iwpa2" net.connman.iwd.Network) || wifi_fail "no Network $iwpa2"
grep -q KnownNetwork <<<"$props" && wifi_fail "an unknown network has KnownNetwork: $props"
props=$(iwd_props "$IDEV" net.connman.iwd.Station)
grep -q ConnectedNetwork <<<"$props" && wifi_fail "disconnected, yet ConnectedNetwork: $props"
check "scan (answered once begun) and get-networks: names, security, signal; absent optional properties left out"

out=$(iwctl --passphrase not-the-passphrase station wlan2 connect joind-wpa2 2>&1) &&
	wifi_fail "connect with a wrong passphrase exited 0: $out"
# iwctl prints the error's message (iwd's own says "Operation failed").
grep -q "passphrase is most likely wrong" <<<"$out" || wifi_fail "no error text: $out"
jw -t 10 object $ST State=disconnected >/dev/null || wifi_fail "not disconnected after the failure"
[[ ! -e $WORK/state/joind-wpa2.psk ]] || wifi_fail "a wrong passphrase was saved"
check "wrong passphrase: iwctl exits non-zero, naming the passphrase as the likely cause"

t=$(wifi_now)
iwctl --passphrase "$PASS" station wlan2 connect joind-wpa2 || wifi_fail "iwctl connect joind-wpa2"
took=$(wifi_since "$t")
wpa2=$(jw -t 5 object net.joind.Network1 "Device=$DEV" Name=joind-wpa2 Type=psk) ||
	wifi_fail "joind-wpa2 not on joind's API"
jw -t 1 object $ST State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "iwctl said connected, joind is not"
props=$(iwd_props "$IDEV" net.connman.iwd.Station)
grep -q "'ConnectedNetwork': <objectpath '$iwpa2'>" <<<"$props" ||
	wifi_fail "Station: $props"
grep -q "'State': <'connected'>" <<<"$props" || wifi_fail "Station: $props"
out=$(iwctl station wlan2 show) || wifi_fail "iwctl station show"
grep -qE "State +connected" <<<"$out" || wifi_fail "iwctl station show: $out"
grep -qE "Connected network +joind-wpa2" <<<"$out" || wifi_fail "iwctl station show: $out"
grep -q "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached the log"
check "iwctl connect joind-wpa2 --passphrase: exit 0 after ${took} s, joind connected; show agrees"

diag=$(icall --object-path "$IDEV" --method net.connman.iwd.StationDiagnostic.GetDiagnostics) ||
	wifi_fail "GetDiagnostics while connected: $diag"
grep -qE "'ConnectedBss': <'([0-9a-f]{2}:){5}[0-9a-f]{2}'>" <<<"$diag" || wifi_fail "diag: $diag"
# joind-wpa2 is on channel 1 (wlan0) and, unless 04 stopped it, 11 (wlan1).
grep -qE "'Frequency': <uint32 2412>.*'Channel': <uint16 1>|'Frequency': <uint32 2462>.*'Channel': <uint16 11>" \
	<<<"$diag" || wifi_fail "diag: $diag"
grep -q "'Security': <'WPA2-Personal'>" <<<"$diag" || wifi_fail "diag: $diag"
check "StationDiagnostic.GetDiagnostics while connected: ConnectedBss, Frequency, Channel, Security"

out=$(iwctl known-networks list) || wifi_fail "iwctl known-networks list"
grep -qE "joind-wpa2 +psk" <<<"$out" || wifi_fail "known-networks list: $out"
iknown=/net/connman/iwd/6a6f696e642d77706132_psk
props=$(iwd_props "$iknown" net.connman.iwd.KnownNetwork) || wifi_fail "no KnownNetwork"
grep -q "'LastConnectedTime': <'20" <<<"$props" || wifi_fail "KnownNetwork: $props"
check "known-networks list shows joind-wpa2 with its LastConnectedTime"

# Powered off takes the interface down: joind's device is unpowered and
# disconnected, iwd's Station goes; on brings it back and autoconnect
# joins the known network again.
iwctl device wlan2 set-property Powered off || wifi_fail "iwctl set-property Powered off"
jw -t 1 object net.joind.Device1 Name=wlan2 Powered=false >/dev/null ||
	wifi_fail "joind's device still powered after the reply"
jw -t 10 object $ST State=disconnected >/dev/null || wifi_fail "still connected while off"
out=$(iwctl device list) || wifi_fail "iwctl device list"
grep -qE "wlan2 +\S+ +off" <<<"$out" || wifi_fail "iwctl device list while off: $out"
iwd_props "$IDEV" net.connman.iwd.Station >/dev/null 2>&1 && wifi_fail "Station while off"
iwctl device wlan2 set-property Powered on || wifi_fail "iwctl set-property Powered on"
jw -t 1 object net.joind.Device1 Name=wlan2 Powered=true >/dev/null ||
	wifi_fail "joind's device not powered after the reply"
jw -t 30 object $ST State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "not back on joind-wpa2 after Powered on"
check "device set-property Powered off (joind down and disconnected) and on (reconnected)"

iwctl station wlan2 disconnect || wifi_fail "iwctl station wlan2 disconnect"
jw -t 10 object $ST State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "joind not disconnected"
# As iwd: StationDiagnostic only while connected (iwctl's show asks it
# whenever it is there).
grep -q "'$IDEV': {[^}]*StationDiagnostic" <<<"$(iwd_objects)" &&
	wifi_fail "StationDiagnostic while disconnected"
sleep 10
jw -t 1 object $ST State=disconnected >/dev/null || wifi_fail "reconnected within 10 s"
out=$(iwctl station wlan2 show) || wifi_fail "iwctl station show while disconnected: $out"
grep -qE "State +disconnected" <<<"$out" || wifi_fail "iwctl station show: $out"
check "disconnect: still disconnected 10 s later (show agrees); no StationDiagnostic"

iwctl known-networks joind-wpa2 set-property AutoConnect no ||
	wifi_fail "iwctl set-property AutoConnect no"
jw -t 10 object $KN Name=joind-wpa2 AutoConnect=false >/dev/null ||
	wifi_fail "joind's KnownNetwork1 does not say AutoConnect=false"
grep -qx 'AutoConnect=false' "$WORK/state/joind-wpa2.psk" || wifi_fail "file: no AutoConnect=false"
iwctl known-networks joind-wpa2 forget || wifi_fail "iwctl known-networks forget"
jw -t 10 no-object $KN Name=joind-wpa2 >/dev/null || wifi_fail "joind still knows joind-wpa2"
[[ ! -e $WORK/state/joind-wpa2.psk ]] || wifi_fail "the profile is still there"
iwd_props "$iknown" net.connman.iwd.KnownNetwork >/dev/null 2>&1 &&
	wifi_fail "the KnownNetwork object is still there"
check "known-networks set-property AutoConnect no (file and joind agree), forget (file gone)"

# A hidden WPA2-PSK network of its own on wlan6 (channel 9), the radio of
# 30-hidden, which leaves it idle. Its beacons every 20 TU (20.5 ms) fall
# inside hwsim's 30 ms active-scan dwell on the channel; at the default
# 100 TU a scan caught one about a third of the time.
wifi_start_hostapd iwdhidden <<EOF
interface=wlan6
driver=nl80211
hw_mode=g
channel=9
beacon_int=20
ssid=ji-visible

bss=wlan6-1
bssid=02:00:00:00:6a:11
ssid=ji-hidden
ignore_broadcast_ssid=1
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS
EOF
jw -t 40 object net.joind.Network1 "Device=$DEV" Name=ji-visible >/dev/null ||
	wifi_fail "ji-visible did not appear"
# hidden_aps: GetHiddenAccessPoints()'s reply (gdbus's text) on standard
# input as "address strength type" lines; none when it lists none.
hidden_aps() {
	{ grep -oE "\('[0-9a-f:]{17}', -?[0-9]+, '[a-z0-9]+'\)" || true; } | tr -d "(),'"
}
# ji-hidden's beacon hides its SSID: GetHiddenAccessPoints() lists its BSS
# (psk, strongest first), not ji-visible's. A hidden beacon is heard only
# when one falls inside the scan's dwell on channel 9 (an access point
# hiding its SSID does not answer the wildcard probe); the first scan of
# the CI run that beaconed every 20 TU still missed it, so a scan that did
# is repeated, at most four times.
for attempt in 1 2 3 4 5; do
	iwctl station wlan2 scan || wifi_fail "iwctl station wlan2 scan"
	jw -t 30 object $ST Scanning=false >/dev/null || wifi_fail "still scanning"
	reply=$(icall --object-path "$IDEV" --method net.connman.iwd.Station.GetHiddenAccessPoints) ||
		wifi_fail "GetHiddenAccessPoints: $reply"
	aps=$(hidden_aps <<<"$reply")
	grep -qx '02:00:00:00:6a:11 -[0-9]* psk' <<<"$aps" && break
	[[ $attempt != 5 ]] || wifi_fail "GetHiddenAccessPoints lacks ji-hidden: $aps"
	wifi_step "get-hidden-access-points, attempt $attempt: ${aps:-none}"
done
grep -q "^$(cat /sys/class/net/wlan6/address) " <<<"$aps" &&
	wifi_fail "GetHiddenAccessPoints lists ji-visible: $aps"
[[ $(sort -s -k2,2nr <<<"$aps") == "$aps" ]] ||
	wifi_fail "GetHiddenAccessPoints is not strongest first: $aps"
out=$(iwctl station wlan2 get-hidden-access-points) ||
	wifi_fail "iwctl get-hidden-access-points: $out"
grep -qE "02:00:00:00:6a:11 +psk" <<<"$out" || wifi_fail "iwctl get-hidden-access-points: $out"
check "get-hidden-access-points: ji-hidden's BSS, psk ($(grep 6a:11 <<<"$aps" | cut -d' ' -f2))"

out=$(iwctl station wlan2 connect-hidden ji-visible 2>&1) &&
	wifi_fail "connect-hidden to a visible SSID succeeded: $out"
out=$(icall --object-path "$IDEV" --method net.connman.iwd.Station.ConnectHiddenNetwork \
	ji-visible 2>&1) && wifi_fail "ConnectHiddenNetwork(ji-visible) succeeded"
grep -q 'net.connman.iwd.InvalidArguments' <<<"$out" || wifi_fail "visible SSID: $out"
check "connect-hidden to a visible SSID: iwctl exits non-zero, net.connman.iwd.InvalidArguments"

# iwd's way: ConnectHiddenNetwork probes for the SSID, asks iwctl's agent
# for the passphrase, and the network is known (Hidden=true) afterwards.
t=$(wifi_now)
# One directed probe scan per call (iwd's way too); under a loaded TCG
# host hostapd's probe response can miss the scan's dwell on channel 9
# (seen: that scan saw neither BSS of wlan6), so a call that found nothing
# is repeated, as a person would, at most twice.
for attempt in 1 2 3; do
	out=$(iwctl --passphrase "$PASS" station wlan2 connect-hidden ji-hidden 2>&1) && break
	[[ $attempt != 3 && $out == *answered* ]] || wifi_fail "iwctl connect-hidden ji-hidden: $out"
	wifi_step "connect-hidden ji-hidden, attempt $attempt: $out"
done
took=$(wifi_since "$t")
hidden=$(jw -t 5 object net.joind.Network1 "Device=$DEV" Name=ji-hidden Type=psk) ||
	wifi_fail "ji-hidden not on joind's API"
jw -t 5 object $ST State=connected "ConnectedNetwork=$hidden" >/dev/null ||
	wifi_fail "joind is not connected to ji-hidden"
props=$(iwd_props /net/connman/iwd/6a692d68696464656e_psk net.connman.iwd.KnownNetwork) ||
	wifi_fail "no KnownNetwork for ji-hidden"
grep -q "'Hidden': <true>" <<<"$props" || wifi_fail "KnownNetwork ji-hidden: $props"
check "iwctl connect-hidden ji-hidden --passphrase: exit 0 after ${took} s; known, Hidden"

# Known now, it is joined like any other network.
iwctl station wlan2 disconnect || wifi_fail "iwctl disconnect from ji-hidden"
jw -t 10 object $ST State=disconnected >/dev/null || wifi_fail "not disconnected"
iwctl station wlan2 connect ji-hidden || wifi_fail "iwctl connect ji-hidden"
jw -t 5 object $ST State=connected "ConnectedNetwork=$hidden" >/dev/null ||
	wifi_fail "joind is not connected to ji-hidden"
iwctl station wlan2 disconnect || wifi_fail "iwctl disconnect from ji-hidden"
jw -t 10 object $ST State=disconnected >/dev/null || wifi_fail "not disconnected"
iwctl known-networks ji-hidden forget || wifi_fail "iwctl forget ji-hidden"
wifi_stop_hostapd iwdhidden
check "ji-hidden known: iwctl connect, disconnect, forget"

wifi_stop_iwd_compat
