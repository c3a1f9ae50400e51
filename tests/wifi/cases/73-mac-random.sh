# shellcheck shell=bash
# 73-mac-random.sh - MAC address randomisation (main.conf's
# AddressRandomization): in network mode joind joins each network with an
# address of its own, locally administered, that the access point sees,
# the same after a restart and different on another network, also when
# the change comes right after a disconnection; stopping joind puts the
# permanent address back, once mode picks one random address at start,
# and disabled leaves the address alone. Every link carries a ping.
# Asserted on sysfs, the access point's station table, joind's
# diagnostics and traffic.
# The access points (joind-mr-open, open; joind-mr-wpa2, WPA2-PSK) run on
# wlan5 (channel 6), its phy in a namespace of its own, so that the ping
# crosses the air.

MR_NS=joind-mr
MR_PHY=$(cat /sys/class/net/wlan5/phy80211/name)

mr_ns() { ip netns exec "$MR_NS" "$@"; }
mr_addr() { cat /sys/class/net/wlan2/address; }
# mr_diag KEY: the station's diagnostics value for KEY.
mr_diag() { wifi_diag -r ".devices[] | select(.name == \"wlan2\") | .details.$1"; }
# mr_seen IFACE ADDR: the access point's interface IFACE has the station
# ADDR in its station table.
mr_seen() { mr_ns iw dev "$1" station get "$2" >/dev/null 2>&1; }

# shellcheck disable=SC2317 # called through wifi_poll
mr_ap_up() {
	local info
	for i in wlan5 wlan5-1; do
		info=$(mr_ns iw dev "$i" info 2>/dev/null) || return 1
		grep -q "type AP" <<<"$info" || return 1
	done
}

# mr_ping AP-IFACE: five answers from wlan2 to the access point's side.
# The access point forgets the station's earlier addresses first.
mr_ping() {
	local out got
	mr_ns ip neigh flush dev "$1"
	mr_ns ip addr add 10.9.7.1/24 dev "$1" || wifi_fail "ip addr add on $1"
	ip addr add 10.9.7.2/24 dev wlan2 || wifi_fail "ip addr add on wlan2"
	out=$(mr_ns ping -n -q -c 5 -i 0.2 -w 15 10.9.7.2 2>&1) || true
	mr_ns ip addr del 10.9.7.1/24 dev "$1"
	ip addr del 10.9.7.2/24 dev wlan2
	MR_PING=$(grep 'packets transmitted' <<<"$out") || true
	# Five answers at least: late ones for requests sent while a lost
	# link came back arrive together and count too.
	got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' <<<"$MR_PING")
	((${got:-0} >= 5)) || wifi_fail "ping via $1: ${MR_PING:-$out}"
}

mr_join() {
	local path
	path=$(jw -t 40 object "$NET" "Device=$DEV" "Name=$1") || wifi_fail "$1 not listed"
	wifi_connect "$path" "$1"
}
mr_leave() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
}

# ----------------------------------------------------------- access points ---
ip netns add "$MR_NS"
iw phy "$MR_PHY" set netns name "$MR_NS" || wifi_fail "cannot move $MR_PHY into $MR_NS"
cat >"$WORK/hostapd-mr.conf" <<EOF2
ctrl_interface=/run/hostapd-mr
interface=wlan5
driver=nl80211
hw_mode=g
channel=6
ssid=joind-mr-open

bss=wlan5-1
bssid=02:00:00:00:05:11
ssid=joind-mr-wpa2
wpa=2
wpa_key_mgmt=WPA-PSK
wpa_passphrase=$PASS
rsn_pairwise=CCMP
EOF2
mr_ns hostapd -B -P "$WORK/hostapd-mr.pid" -f "$LOGDIR/hostapd-mr.log" "$WORK/hostapd-mr.conf" ||
	wifi_fail "hostapd mr did not start"
wifi_poll 30 "hostapd mr beaconing" mr_ap_up

# ------------------------------------------------------------ network mode ---
perm=$(mr_addr)
wifi_restart_joind_with AddressRandomization=network
mr_join joind-mr-open
open_addr=$(mr_addr)
[[ $open_addr != "$perm" ]] || wifi_fail "network mode: joined joind-mr-open with the permanent address"
(((0x${open_addr:0:2} & 3) == 2)) || wifi_fail "$open_addr is not a locally administered unicast address"
mr_seen wlan5 "$open_addr" || wifi_fail "hostapd has no station $open_addr"
[[ $(mr_diag address) == "$open_addr" && $(mr_diag permanent_address) == "$perm" &&
	$(mr_diag address_randomization) == network ]] ||
	wifi_fail "diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details | {address, permanent_address, address_randomization}')"
[[ $(stat -c %a "$WORK/state/address-secret") == 600 ]] || wifi_fail "address-secret is not 0600"
mr_ping wlan5
check "network mode: joind-mr-open joined as $open_addr (permanent $perm), hostapd's station, diagnostics agree; secret 0600; ping: $MR_PING"

mr_leave
wifi_stop_joind
[[ $(mr_addr) == "$perm" ]] || wifi_fail "joind stopped: the address is $(mr_addr), not the permanent $perm"
wifi_start_joind --same-config
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2 after the restart"
# joind-mr-open is known now: autoconnect joins it.
open=$(jw -t 40 object "$NET" "Device=$DEV" Name=joind-mr-open) || wifi_fail "joind-mr-open not listed"
jw -t 40 object net.joind.Station1 State=connected "ConnectedNetwork=$open" >/dev/null ||
	wifi_fail "autoconnect did not join joind-mr-open after the restart"
[[ $(mr_addr) == "$open_addr" ]] || wifi_fail "after a restart joind-mr-open got $(mr_addr), not $open_addr"
mr_seen wlan5 "$open_addr" || wifi_fail "the access point has no station $open_addr"
mr_ping wlan5
check "joind stopped: the permanent address is back; restarted: joind-mr-open joined as $open_addr again; ping: $MR_PING"

# Autoconnect joins the only known network after the restart.
mr_leave
rm -f "$WORK/state/joind-mr-open.open"
(
	umask 077
	printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/joind-mr-wpa2.psk"
)
wifi_restart_joind_same
wpa2=$(jw -t 40 object "$NET" "Device=$DEV" Name=joind-mr-wpa2) || wifi_fail "joind-mr-wpa2 not listed"
jw -t 40 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "autoconnect did not join joind-mr-wpa2"
wpa2_addr=$(mr_addr)
[[ $wpa2_addr != "$open_addr" && $wpa2_addr != "$perm" ]] ||
	wifi_fail "joind-mr-wpa2 got $wpa2_addr (joind-mr-open's $open_addr, permanent $perm)"
mr_seen wlan5-1 "$wpa2_addr" || wifi_fail "hostapd has no station $wpa2_addr on joind-mr-wpa2"
mr_ping wlan5-1
check "another network, another address: autoconnect joined joind-mr-wpa2 as $wpa2_addr (WPA2 keyed with it); ping: $MR_PING"

# The address changes straight after the disconnection: the interface is
# down for it, before the authentication.
mr_leave
mr_join joind-mr-open
[[ $(mr_addr) == "$open_addr" ]] || wifi_fail "after joind-mr-wpa2, joind-mr-open got $(mr_addr), not $open_addr"
mr_seen wlan5 "$open_addr" || wifi_fail "the access point has no station $open_addr"
mr_ping wlan5
check "right after leaving joind-mr-wpa2: joind-mr-open joined as $open_addr again; ping: $MR_PING"

mr_leave
rm -f "$WORK/state/joind-mr-wpa2.psk" "$WORK/state/joind-mr-open.open"
wifi_restart_joind_default
wifi_restart_joind_with AddressRandomization=once
once_addr=$(mr_addr)
if [[ $once_addr == "$perm" ]] || (((0x${once_addr:0:2} & 3) != 2)); then
	wifi_fail "once mode: the address at start is $once_addr (permanent $perm)"
fi
mr_join joind-mr-open
[[ $(mr_addr) == "$once_addr" ]] || wifi_fail "once mode: joined with $(mr_addr), not $once_addr"
mr_seen wlan5 "$once_addr" || wifi_fail "the access point has no station $once_addr"
mr_ping wlan5
check "once mode: a random address $once_addr from the start, joind-mr-open joined with it; ping: $MR_PING"

mr_leave
rm -f "$WORK/state/joind-mr-open.open"
wifi_restart_joind_default
mr_join joind-mr-open
[[ $(mr_addr) == "$perm" ]] || wifi_fail "disabled: joined with $(mr_addr), not $perm"
mr_seen wlan5 "$perm" || wifi_fail "hostapd has no station $perm"
mr_ping wlan5
check "disabled mode joins with the permanent address $perm; ping: $MR_PING"
mr_leave
rm -f "$WORK/state/joind-mr-open.open"

# ------------------------------------------------------------------ cleanup ---
wifi_stop_hostapd mr
mr_ns iw phy "$MR_PHY" set netns 1 || wifi_fail "cannot move $MR_PHY back"
ip netns del "$MR_NS"
unset -f mr_ns mr_addr mr_diag mr_seen mr_ap_up mr_ping mr_join mr_leave
