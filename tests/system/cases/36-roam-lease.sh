# shellcheck shell=bash
# 36-roam-lease.sh - a DHCP lease systemd-networkd holds survives a roam.
# 20-networkd's access point becomes two BSSes of one network on its radio,
# bridged to the DHCP server behind them (as an office's access points
# share one LAN); joind moves wlan1 from one to the other with a manual
# roam. What joind(8) promises: the link and its addresses stay, so
# networkd keeps the same address without asking dnsmasq for a new lease,
# Station1 says roaming and never disconnected, and the access point
# answers pings through the new BSS. The kernel drops the carrier between
# the two BSSes (mac80211 leaves the old one when authentication to the
# new one starts), so the .network file says IgnoreCarrierLoss=3s, as
# joind(8) tells an admin of such a network to.
AP_ADDR=10.77.0.1
AP_NS=joind-sys-ap
ap() { ip netns exec "$AP_NS" "$@"; }
sys_start
[[ -e /run/netns/$AP_NS ]] || wifi_fail "no access point: 36-roam-lease runs after 20-networkd"

stop_pid() {
	local pid
	pid=$(cat "$1")
	kill "$pid" 2>/dev/null || true
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}
# 20's one BSS and its DHCP server give way to two BSSes on a bridge.
stop_pid "$WORK/hostapd-sys.pid"
stop_pid "$WORK/dnsmasq.pid"
ap ip addr flush dev wlan0
ap ip link add br-ap type bridge
ap ip addr add "$AP_ADDR/24" dev br-ap
ap ip link set br-ap up
bss1=$(ap cat /sys/class/net/wlan0/address)
bss2=${bss1%:*}:$(printf '%02x' $((0x${bss1##*:} + 1)))
bss_conf() { # SSID section of one BSS
	printf 'ssid=joind-sys\nbridge=br-ap\nwpa=2\nwpa_key_mgmt=WPA-PSK\n'
	printf 'rsn_pairwise=CCMP\nwpa_passphrase=system-suite-secret\n'
}
{
	printf 'ctrl_interface=/run/hostapd-roam\ninterface=wlan0\ndriver=nl80211\n'
	printf 'hw_mode=g\nchannel=1\n'
	bss_conf
	printf 'bss=wlan0_1\nbssid=%s\n' "$bss2"
	bss_conf
} >"$WORK/hostapd-roam.conf"
ap hostapd -B -P "$WORK/hostapd-roam.pid" -f "$LOGDIR/hostapd-roam.log" "$WORK/hostapd-roam.conf" ||
	wifi_fail "hostapd with two BSSes did not start: $(tail -n 5 "$LOGDIR/hostapd-roam.log")"
# The same lease file: the address networkd held is handed out again; a
# 10-minute lease, so that no renewal (at half of it) falls into the case.
ap dnsmasq --conf-file=/dev/null --port=0 --interface=br-ap --bind-interfaces \
	--dhcp-range=10.77.0.10,10.77.0.50,10m --dhcp-leasefile="$WORK/dnsmasq.leases" \
	--pid-file="$WORK/dnsmasq.pid" --log-dhcp --log-facility="$LOGDIR/dnsmasq-roam.log" ||
	wifi_fail "dnsmasq on br-ap did not start"
wifi_step "joind-sys on two BSSes, $bss1 (wlan0) and $bss2 (wlan0_1), bridged to dnsmasq"

mkdir -p /etc/systemd/network/50-joind-wlan1.network.d
printf '[Network]\nIgnoreCarrierLoss=3s\n' >/etc/systemd/network/50-joind-wlan1.network.d/roam.conf
networkctl reload || wifi_fail "networkctl reload"

lease_addr() {
	ip -j -4 addr show dev wlan1 |
		jq -er '.[0].addr_info[]? | select(.valid_life_time < 4294967295) | .local' |
		grep '^10\.77\.0\.'
}
pings() { ping -c 1 -W 2 -I wlan1 "$AP_ADDR" >/dev/null; }
jw -t 60 object net.joind.Station1 State=connected >/dev/null || wifi_fail "wlan1 did not reconnect"
wifi_poll 30 "a DHCP address on wlan1 through the bridge" lease_addr
wifi_poll 20 "a ping to $AP_ADDR through the bridge" pings
addr=$(lease_addr)
from=$(joinctl -j station wlan1 show | jq -r '.connected_access_point // empty')
case $from in
"$bss1") to=$bss2 ;;
"$bss2") to=$bss1 ;;
*) wifi_fail "connected through '$from', neither $bss1 nor $bss2" ;;
esac
acks=$(grep -c DHCPACK "$LOGDIR/dnsmasq-roam.log" || true)
# networkd's own count of the address's configurations: a lost carrier or a
# new lease would show as a new address object with a fresh lifetime.
life=$(ip -j -4 addr show dev wlan1 | jq -r '.[0].addr_info[] | select(.local == "'"$addr"'") | .valid_life_time')
wifi_step "networkd holds $addr (valid $life s) through $from"

# The access point's neighbour entry, made by the pings above: a roam keeps
# it (joind turns the flush on carrier loss off for the move, through the
# unit's one writable corner of /proc/sys), so no packet waits for ARP.
neigh() { ip -j neigh show to "$AP_ADDR" dev wlan1 | jq -r '.[0].state[0] // empty'; }
before_neigh=$(neigh)
[[ -n $before_neigh ]] || wifi_fail "no neighbour entry for $AP_ADDR before the roam"
dev=$(jw -t 10 object net.joind.Station1 State=connected)
gdbus monitor --system --dest net.joind --object-path "$dev" >"$WORK/roam-monitor.txt" 2>&1 &
monitor=$!
sleep 0.5
t=$(wifi_now)
joinctl station wlan1 roam "$to" >/dev/null || wifi_fail "joinctl station wlan1 roam $to"
on_target() { [[ $(joinctl -j station wlan1 show | jq -r '.connected_access_point // empty') == "$to" ]]; }
wifi_poll 30 "wlan1 connected through $to" on_target
jw -t 10 object net.joind.Station1 State=connected >/dev/null || wifi_fail "not connected after the roam"
took=$(wifi_since "$t")
after_neigh=$(neigh)
[[ -n $after_neigh && $after_neigh != FAILED && $after_neigh != INCOMPLETE ]] ||
	wifi_fail "the roam flushed $AP_ADDR's neighbour entry ($before_neigh -> '${after_neigh:-none}')"
[[ $(cat /proc/sys/net/ipv4/conf/wlan1/arp_evict_nocarrier) == 1 ]] ||
	wifi_fail "arp_evict_nocarrier was not given back after the roam"
ping -c 3 -W 2 -I wlan1 "$AP_ADDR" >"$WORK/ping" || wifi_fail "no ping after the roam: $(cat "$WORK/ping")"
sleep 1
kill "$monitor" 2>/dev/null || true
wait "$monitor" 2>/dev/null || true
grep -q "'State': <'roaming'>" "$WORK/roam-monitor.txt" ||
	wifi_fail "Station1.State never said roaming: $(cat "$WORK/roam-monitor.txt")"
if grep -E "'State': <'(disconnected|connecting|disconnecting)'>" "$WORK/roam-monitor.txt"; then
	wifi_fail "the station reported a disconnection during the roam"
fi
[[ $(lease_addr) == "$addr" ]] || wifi_fail "the address changed across the roam: $addr -> $(lease_addr)"
now=$(ip -j -4 addr show dev wlan1 | jq -r '.[0].addr_info[] | select(.local == "'"$addr"'") | .valid_life_time')
((now <= life)) || wifi_fail "the address was configured anew across the roam (valid $life s -> $now s)"
after=$(grep -c DHCPACK "$LOGDIR/dnsmasq-roam.log" || true)
((after == acks)) || wifi_fail "networkd asked dnsmasq for a lease during the roam ($acks -> $after DHCPACKs)"
[[ $(networkctl status wlan1 --no-pager | sed -n 's/^ *State: //p') == routable* ]] ||
	wifi_fail "networkd no longer calls wlan1 routable: $(networkctl status wlan1 --no-pager)"
wifi_step "roamed $from -> $to in $took s: neighbour entry kept ($before_neigh -> $after_neigh), $addr kept (valid $life -> $now s), no new DHCPACK, ping $(grep -o '[0-9]* received' "$WORK/ping")"
