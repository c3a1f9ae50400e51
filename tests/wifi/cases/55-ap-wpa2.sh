# shellcheck shell=bash
# 55-ap-wpa2.sh - the access point room (plugins/wifi/ap, driven alone by
# tests/wifi/ap-room until the D-Bus API starts it inside joind) on a radio
# of its own: WPA2-PSK on channel 6; wpa_supplicant on a second radio
# joins and pings the AP over the air (each radio in a network namespace
# of its own, so the ping cannot take a shortcut); the same client with
# another passphrase is refused and the AP says why; after a group key
# rotation the AP's broadcasts (ARP) still reach the client.

AP_NS=joind-ap55
CL_NS=joind-cl55
AP_OUT=$LOGDIR/ap-room.log
CL_CTRL=$WORK/cl55-ctrl
ap_ns() { ip netns exec "$AP_NS" "$@"; }
cl_ns() { ip netns exec "$CL_NS" "$@"; }
cl_cli() { cl_ns wpa_cli -p "$CL_CTRL" -i "$CLIF" "$@"; }
ifname_in() { ip netns exec "$1" iw dev | awk '/Interface/ { print $2; exit }'; }
ap55_cleanup() {
	[[ -n ${AP_PID:-} ]] && kill "$AP_PID" 2>/dev/null
	[[ -s $WORK/cl55.pid ]] && kill "$(cat "$WORK/cl55.pid")" 2>/dev/null
	sleep 0.5
	"$HWSIM_RADIO" del joindap55 2>/dev/null
	"$HWSIM_RADIO" del joindcl55 2>/dev/null
	ip netns del "$AP_NS" 2>/dev/null
	ip netns del "$CL_NS" 2>/dev/null
	return 0
}
trap ap55_cleanup EXIT

for r in ap cl; do
	"$HWSIM_RADIO" add "joind${r}55" >/dev/null || wifi_fail "hwsim-radio add joind${r}55"
done
ip netns add "$AP_NS"
ip netns add "$CL_NS"
iw phy joindap55 set netns name "$AP_NS" || wifi_fail "cannot move joindap55"
iw phy joindcl55 set netns name "$CL_NS" || wifi_fail "cannot move joindcl55"
APIF=$(ifname_in "$AP_NS")
CLIF=$(ifname_in "$CL_NS")
[[ -n $APIF && -n $CLIF ]] || wifi_fail "no interfaces in the namespaces"
ap_ns iw dev "$APIF" set type __ap || wifi_fail "iw set type __ap"
ap_ns ip link set "$APIF" up
ap_ns ip addr add 192.168.55.1/24 dev "$APIF"

T0=$(wifi_now)
# Not through ap_ns: $! must be ap-room's own pid (ip and env exec it).
ip netns exec "$AP_NS" env G_MESSAGES_DEBUG=joind-wifi "$BUILD/tests/wifi/ap-room" "$APIF" \
	joind-hotspot "$PASS" 6 8 >"$AP_OUT" 2>&1 &
AP_PID=$!
wifi_poll 15 "the AP beaconing" grep -q '^started 2437$' "$AP_OUT"
check "AP room started a WPA2 BSS on channel 6 in $(wifi_since "$T0") s"
ap_ns iw dev "$APIF" info | grep -q "ssid joind-hotspot" || wifi_fail "iw shows no SSID"

cat >"$WORK/cl55.conf" <<CONF
ctrl_interface=$CL_CTRL
network={
	ssid="joind-hotspot"
	key_mgmt=WPA-PSK
	proto=RSN
	pairwise=CCMP
	group=CCMP
	psk="$PASS"
	scan_freq=2437
}
CONF
cl_ns ip link set "$CLIF" up
cl_ns ip addr add 192.168.55.2/24 dev "$CLIF"
T0=$(wifi_now)
cl_ns wpa_supplicant -B -i "$CLIF" -c "$WORK/cl55.conf" -P "$WORK/cl55.pid" \
	-f "$LOGDIR/wpa_supplicant-55.log" -d || wifi_fail "wpa_supplicant did not start"
wifi_poll 20 "wpa_supplicant COMPLETED" sh -c "ip netns exec $CL_NS wpa_cli -p $CL_CTRL \
	-i $CLIF status | grep -q '^wpa_state=COMPLETED'"
check "wpa_supplicant joined the AP (WPA2-PSK) in $(wifi_since "$T0") s"
wifi_poll 5 "the AP reporting the station" grep -q '^joined ' "$AP_OUT"
cl_ns ping -c 3 -W 3 192.168.55.1 >/dev/null || wifi_fail "no ping from the client to the AP"
check "the client pings the AP over the link"

# Another passphrase: the AP drops message 2 (MIC), resends message 1 and
# refuses the station after four, naming the cause; the client never
# completes.
cl_cli set_network 0 psk '"not-the-passphrase"' >/dev/null
cl_cli disconnect >/dev/null
cl_cli reassociate >/dev/null
wifi_poll 20 "the AP refusing the wrong passphrase" \
	grep -q "most likely has another passphrase" "$AP_OUT"
cl_cli status | grep -q '^wpa_state=COMPLETED' && wifi_fail "a wrong passphrase completed"
check "a client with another passphrase is refused: $(grep -o 'refused: .*' "$AP_OUT" | tail -1)"

# Back with the right one; then a group key rotation (every 8 s): the
# AP's ARP broadcast after it still reaches the client.
cl_cli set_network 0 psk "\"$PASS\"" >/dev/null
cl_cli reassociate >/dev/null
wifi_poll 20 "wpa_supplicant COMPLETED again" sh -c "ip netns exec $CL_NS wpa_cli -p $CL_CTRL \
	-i $CLIF status | grep -q '^wpa_state=COMPLETED'"
n=$(grep -c "rotates its group key" "$AP_OUT" || true)
wifi_poll 20 "a group key rotation" sh -c "[ \$(grep -c 'rotates its group key' $AP_OUT) -gt $n ]"
wifi_poll 10 "the group handshake" grep -q "group key .* acknowledged" "$AP_OUT"
ap_ns ip neigh flush dev "$APIF"
ap_ns ping -c 3 -W 3 192.168.55.2 >/dev/null || wifi_fail "no ping from the AP after the rekey"
check "after a group key rotation the AP's ARP broadcast reaches the client (ping AP -> client)"

kill "$AP_PID"
wifi_poll 10 "the AP stopping" grep -q '^stopped' "$AP_OUT"
grep -q '^stopped (SIGTERM)' "$AP_OUT" || wifi_fail "the AP stopped otherwise: $(grep '^stopped' "$AP_OUT")"
check "the AP stops on SIGTERM (STOP_AP)"
