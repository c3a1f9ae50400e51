# shellcheck shell=bash
# 20-networkd.sh - systemd-networkd takes an address over joind's link: a
# .network file for wlan1 with DHCP=yes, joind connects to a WPA2 access
# point on wlan0 (a profile in /var/lib/joind, as an admin writes it),
# dnsmasq on the AP side leases an address, and the AP answers pings
# through it. After the access point restarts, networkd holds an address
# again; how long that took after the AP beaconed is reported, not
# asserted (a loaded host stretches it: 15 s was seen), within the poll's
# 30 s.
AP_ADDR=10.77.0.1
AP_NS=joind-sys-ap
sys_start
# The access point's radio in a network namespace of its own, so that the
# station's packets to its address cross the air instead of the loopback.
if [[ ! -e /run/netns/$AP_NS ]]; then
	ip netns add "$AP_NS"
	iw phy "$(cat /sys/class/net/wlan0/phy80211/name)" set netns name "$AP_NS" ||
		wifi_fail "cannot move wlan0's radio into $AP_NS"
fi
ap() { ip netns exec "$AP_NS" "$@"; }
ap ip link set lo up
ap ip addr add "$AP_ADDR/24" dev wlan0
cat >"$WORK/hostapd-sys.conf" <<EOF2
ctrl_interface=/run/hostapd-sys
interface=wlan0
driver=nl80211
hw_mode=g
channel=1
ssid=joind-sys
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=system-suite-secret
EOF2
ap_enabled() { ap hostapd_cli -p /run/hostapd-sys -i wlan0 status | grep -qx state=ENABLED; }
start_ap() {
	ap hostapd -B -P "$WORK/hostapd-sys.pid" -f "$LOGDIR/hostapd-sys.log" "$WORK/hostapd-sys.conf" ||
		wifi_fail "hostapd did not start"
	wifi_poll 30 "hostapd beaconing" ap_enabled
}
stop_ap() {
	local pid
	pid=$(cat "$WORK/hostapd-sys.pid")
	kill "$pid"
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}
start_ap
ap dnsmasq --conf-file=/dev/null --port=0 --interface=wlan0 --bind-interfaces \
	--dhcp-range=10.77.0.10,10.77.0.50,2m --dhcp-leasefile="$WORK/dnsmasq.leases" \
	--pid-file="$WORK/dnsmasq.pid" --log-dhcp --log-facility="$LOGDIR/dnsmasq.log" ||
	wifi_fail "dnsmasq did not start"

mkdir -p /etc/systemd/network
cat >/etc/systemd/network/50-joind-wlan1.network <<EOF2
[Match]
Name=wlan1

[Network]
DHCP=yes
EOF2
systemctl start systemd-networkd.service || wifi_fail "systemd-networkd did not start"

printf '[Security]\nPassphrase=system-suite-secret\n' >/var/lib/joind/joind-sys.psk
chmod 600 /var/lib/joind/joind-sys.psk
jw -t 60 object net.joind.Station1 State=connected >/dev/null || wifi_fail "joind did not connect to joind-sys"
wifi_step "joind connected wlan1 to joind-sys"

# A leased (finite lifetime) IPv4 address in the AP's subnet.
lease_addr() {
	ip -j -4 addr show dev wlan1 |
		jq -er '.[0].addr_info[]? | select(.valid_life_time < 4294967295) | .local' |
		grep '^10\.77\.0\.'
}
wifi_poll 30 "a DHCP address on wlan1" lease_addr
wifi_step "networkd leased $(lease_addr) ($(networkctl status wlan1 --no-pager | sed -n 's/^ *State: //p'))"
ping -c 3 -W 2 -I wlan1 "$AP_ADDR" >"$WORK/ping" || wifi_fail "no ping to $AP_ADDR: $(cat "$WORK/ping")"
wifi_step "ping $AP_ADDR: $(grep -o '[0-9]* received' "$WORK/ping")"

stop_ap
jw -t 30 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "joind did not notice the AP going"
wifi_step "AP gone: wlan1 disconnected, address $(lease_addr || echo none)"
t=$(wifi_now)
start_ap
took_beacon=$(wifi_since "$t")
t=$(wifi_now)
wifi_poll 30 "a DHCP address on wlan1 after the AP restart" lease_addr
took=$(wifi_since "$t")
ping -c 1 -W 2 -I wlan1 "$AP_ADDR" >/dev/null || wifi_fail "no ping after the AP restart"
wifi_step "AP back (beaconing after $took_beacon s): address $(lease_addr) after $took s"
