# shellcheck shell=bash
# 59-adhoc.sh - ad-hoc (IBSS) mode against a real peer: a radio of its own
# in joind's namespace (joind takes it as a station); `joinctl device mode
# IF ad-hoc` (Device1.Mode, AdHoc1 instead of Station1); an RSN IBSS
# (WPA2-PSK, CCMP) started with `joinctl adhoc IF start` and joined by
# wpa_supplicant on a second radio in a namespace of its own (mode=1,
# proto=RSN): AdHoc1.Peers names it once both 4-way handshakes are done and
# both sides ping over the air (the ports open only with the keys); then
# an open IBSS through the iwd front end (`iwctl ad-hoc IF start_open`,
# AdHoc.ConnectedPeers) with the same peer, ping; then station mode again.

# shellcheck source=../ap-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ap-lib.sh"
IWD=net.connman.iwd
export TERM=dumb
JOINCTL=$BUILD/client/joinctl
jprop() {
	busctl --system --json=short get-property net.joind "$JDEV" "net.joind.$1" "$2" |
		jq -c .data
}
iprop() {
	busctl --system --json=short get-property $IWD "$IDEV" "$IWD.$1" "$2" | jq -c .data
}
# joind's device object: its interfaces and their properties, in one call.
jobj() {
	busctl --system --json=short call net.joind /net/joind org.freedesktop.DBus.ObjectManager \
		GetManagedObjects | jq -c --arg p "$JDEV" '.data[0][$p]'
}
jifaces() { jobj | jq -c keys; }
# The peer's view: wpa_cli status KEY.
peer_status() { ap_cli 1 status | sed -n "s/^$1=//p"; }
# Whether the list property that command $1 prints (JSON) names the peer.
peer_in_list() { [[ $("$1" | jq -r --arg m "$PEER_MAC" 'index($m) != null') == true ]]; }
jpeers() { jprop AdHoc1 Peers; }
in_ibss() { iw dev "$IF" link | grep -q 'Joined IBSS'; }
station_back() { [[ $(jifaces) == *'"net.joind.Station1"'* ]]; }
ipeers() { iprop AdHoc ConnectedPeers; }

# 57 leaves the iwd front end on; a restart of joind costs about 10 s.
busctl --system status $IWD >/dev/null 2>&1 || wifi_start_iwd_compat
AP_NN=59
AP_CLIENTS=0
trap 'ap_cleanup; "$HWSIM_RADIO" del joindap59 2>/dev/null || true' EXIT
"$HWSIM_RADIO" add joindap59 >/dev/null || wifi_fail "hwsim-radio add joindap59"
IF=$(ls /sys/class/ieee80211/joindap59/device/net/)
JDEV=$(jw -t 20 object net.joind.Device1 "Name=$IF") || wifi_fail "joind did not take $IF"
IDEV=/net/connman/iwd/$(cat /sys/class/net/"$IF"/phy80211/index)/$(cat /sys/class/net/"$IF"/ifindex)
[[ $(jprop Device1 SupportedModes) == '["station","ap","ad-hoc"]' ]] ||
	wifi_fail "SupportedModes: $(jprop Device1 SupportedModes)"
modes=$(busctl --system --json=short get-property $IWD "${IDEV%/*}" $IWD.Adapter SupportedModes |
	jq -c .data)
[[ $modes == '["station","ap","ad-hoc"]' ]] || wifi_fail "iwd SupportedModes: $modes"
check "joind manages $IF; both APIs list ad-hoc among its modes"

T0=$(wifi_now)
out=$("$JOINCTL" device mode "$IF" ad-hoc 2>&1) || wifi_fail "device mode ad-hoc: $out"
obj=$(jobj)
jq -e '.["net.joind.Device1"].Mode.data == "ad-hoc" and .["net.joind.Device1"].Powered.data
	and .["net.joind.AdHoc1"].Started.data == false and (has("net.joind.Station1") | not)' \
	<<<"$obj" >/dev/null || wifi_fail "the device in ad-hoc mode: $obj"
[[ $(iw dev "$IF" info | awk '/type/ { print $2 }') == IBSS ]] || wifi_fail "not IBSS in the kernel"
check "joinctl device mode ad-hoc: AdHoc1 instead of Station1 in $(wifi_since "$T0") s"

ip addr add 192.168.59.1/24 dev "$IF"
AP_CLIENTS=1
CLIF=()
CLIF[1]=$(ap_radio joindcl59_1 "$(ap_ns_of 1)")
PEER_MAC=$(ap_in 1 cat /sys/class/net/"${CLIF[1]}"/address)
ap_in 1 ip addr add 192.168.59.2/24 dev "${CLIF[1]}"
T0=$(wifi_now)
out=$(AH_PASS=$PASS "$JOINCTL" adhoc "$IF" start joind-ibss59 --passphrase-from-env AH_PASS 2>&1) ||
	wifi_fail "joinctl adhoc start: $out"
obj=$(jobj)
jq -e '.["net.joind.AdHoc1"] | .Started.data and .Name.data == "joind-ibss59" and
	.Security.data == "wpa2-psk" and .Peers.data == []' <<<"$obj" >/dev/null ||
	wifi_fail "AdHoc1 after Start: $obj"
# The peer comes once joind's kernel is in the IBSS (it looks for one for
# about 7 s, then starts it): two peers that each start one at once may
# stay apart for long before their kernels merge them.
wifi_poll 20 "joind's kernel in the IBSS" in_ibss
check "joinctl adhoc start: Started, Name and Security set; in the IBSS in $(wifi_since "$T0") s"
ap_client 1 "ssid=\"joind-ibss59\"
mode=1
frequency=2437
proto=RSN
key_mgmt=WPA-PSK
pairwise=CCMP
group=CCMP
psk=\"$PASS\""

wifi_poll 30 "joind's AdHoc1.Peers naming $PEER_MAC" peer_in_list jpeers
wifi_poll 10 "a ping to the peer" ip netns exec "$(ap_ns_of 1)" ping -c 1 -W 1 192.168.59.1
ping -c 3 -W 3 192.168.59.2 >/dev/null || wifi_fail "no ping from joind's side to the peer"
[[ $(peer_status mode) == IBSS && $(peer_status ssid) == joind-ibss59 &&
	$(peer_status wpa_state) == COMPLETED ]] ||
	wifi_fail "the peer's view: $(ap_cli 1 status | tr '\n' ' ')"
check "wpa_supplicant (IBSS RSN) and joind keyed both ways and ping in $(wifi_since "$T0") s"

out=$("$JOINCTL" adhoc "$IF" stop 2>&1) || wifi_fail "joinctl adhoc stop: $out"
[[ $(jprop AdHoc1 Started) == false && $(jpeers) == '[]' ]] ||
	wifi_fail "after Stop: Started $(jprop AdHoc1 Started), Peers $(jpeers)"
peer_pid=$(cat "$WORK/ap59-cl1.pid")
ap_cli 1 terminate >/dev/null
wifi_poll 10 "the peer's wpa_supplicant gone" sh -c "! kill -0 $peer_pid"
rm -f "$WORK/ap59-cl1.pid"
check "joinctl adhoc stop: Started false, no peer"

T0=$(wifi_now)
out=$(iwctl ad-hoc "$IF" start_open joind-open59 2>&1) || wifi_fail "iwctl ad-hoc start_open: $out"
[[ $(iprop AdHoc Started) == true ]] || wifi_fail "StartOpen answered, Started false"
[[ $(jprop AdHoc1 Security) == '"open"' ]] || wifi_fail "Security $(jprop AdHoc1 Security)"
wifi_poll 20 "joind's kernel in the IBSS" in_ibss
ap_client 1 "ssid=\"joind-open59\"
mode=1
frequency=2437
key_mgmt=NONE"
wifi_poll 30 "iwd's AdHoc.ConnectedPeers naming $PEER_MAC" peer_in_list ipeers
wifi_poll 10 "a ping to the peer" ip netns exec "$(ap_ns_of 1)" ping -c 1 -W 1 192.168.59.1
[[ $(peer_status mode) == IBSS && $(peer_status ssid) == joind-open59 ]] ||
	wifi_fail "the peer's view: $(ap_cli 1 status | tr '\n' ' ')"
check "iwctl ad-hoc start_open: wpa_supplicant joined the open IBSS and pings in $(wifi_since "$T0") s"

out=$(iwctl ad-hoc "$IF" stop 2>&1) || wifi_fail "iwctl ad-hoc stop: $out"
[[ $(iprop AdHoc Started) == false ]] || wifi_fail "Stop answered, Started true"
out=$("$JOINCTL" device mode "$IF" station 2>&1) || wifi_fail "device mode station: $out"
[[ $(jprop Device1 Mode) == '"station"' ]] || wifi_fail "Mode is $(jprop Device1 Mode)"
wifi_poll 10 "Station1 back on $JDEV" station_back
[[ $(jifaces) != *AdHoc1* ]] || wifi_fail "AdHoc1 stayed: $(jifaces)"
check "iwctl ad-hoc stop, device mode station: the station is back"
