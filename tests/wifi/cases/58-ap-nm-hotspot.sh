# shellcheck shell=bash
# 58-ap-nm-hotspot.sh - GNOME's hotspot path: NetworkManager 1.42 with
# wifi.backend=iwd runs `nmcli dev wifi hotspot` on wlan2 through the iwd
# front end (Device.Mode ap, AccessPoint.Start), with its shared IPv4
# (dnsmasq on 10.42.0.0/24). wpa_supplicant on a radio of its own in a
# namespace of its own joins, takes a lease from NetworkManager's dnsmasq
# (busybox udhcpc) and pings the AP's address; `nmcli con down` stops the
# AP, the device is back in station mode and the daemon autoconnects to
# the network NetworkManager knows. Every check reads D-Bus (net.connman.iwd,
# and net.joind against joind), nmcli -t or the lease, so it runs against
# the real iwd 2.3 too (NM_DAEMON=iwd, 90-iwd-differential).

# shellcheck source=../ap-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ap-lib.sh"
NMD=net.connman.iwd.Device
NMS=net.connman.iwd.Station
NMA=net.connman.iwd.AccessPoint
HS_SSID=joind-hotspot58
AP_NN=58
AP_CLIENTS=0
hs_cleanup() {
	ap_cleanup
	nm_cleanup
}
trap hs_cleanup EXIT

nm_daemon_start
nm_start
nm_wait_state 60 30
[[ $(iwd_get "${IDEV%/*}" net.connman.iwd.Adapter SupportedModes | jq -c .) == *'"ap"'* ]] ||
	wifi_fail "SupportedModes: $(iwd_get "${IDEV%/*}" net.connman.iwd.Adapter SupportedModes)"

# A network NetworkManager knows, with its secret (iwd's autoconnect,
# NetworkManager's default): the daemon joins it by itself, and again
# once the hotspot is down.
wpa2_net=$IDEV/$(iwd_hex joind-wpa2)_psk
nmcli con add type wifi con-name jw2 ifname wlan2 ssid joind-wpa2 wifi-sec.key-mgmt wpa-psk \
	wifi-sec.psk "$PASS" ipv4.method disabled ipv6.method disabled >/dev/null ||
	wifi_fail "nmcli con add jw2"
iwd_wait 60 "$IDEV" $NMS ConnectedNetwork "$wpa2_net"
nm_wait_state 30 100 jw2
check "NetworkManager (wifi.backend=iwd) on $NM_DAEMON: wlan2 joined joind-wpa2"

T0=$(wifi_now)
nmcli -w 60 dev wifi hotspot ifname wlan2 con-name hs58 ssid "$HS_SSID" password "$PASS" ||
	wifi_fail "nmcli dev wifi hotspot"
took=$(wifi_since "$T0")
nm_wait_state 10 100 hs58
iwd_is "$IDEV" $NMD Mode ap || wifi_fail "Device.Mode $(iwd_get "$IDEV" $NMD Mode)"
iwd_is "$IDEV" $NMD Powered true || wifi_fail "not powered in AP mode"
iwd_is "$IDEV" $NMA Started true || wifi_fail "AccessPoint.Started $(iwd_get "$IDEV" $NMA Started)"
iwd_is "$IDEV" $NMA Name "$HS_SSID" || wifi_fail "AccessPoint.Name $(iwd_get "$IDEV" $NMA Name)"
freq=$(iwd_get "$IDEV" $NMA Frequency)
[[ $freq =~ ^24[0-9][0-9]$ ]] || wifi_fail "AccessPoint.Frequency $freq"
[[ -z $(iwd_get "$IDEV" $NMS State) ]] || wifi_fail "Station is still there in AP mode"
[[ $(nmcli -g ipv4.method con show hs58) == shared ]] ||
	wifi_fail "hs58's ipv4.method: $(nmcli -g ipv4.method con show hs58)"
ip -4 -o addr show dev wlan2 | grep -q ' 10\.42\.0\.1/24 ' ||
	wifi_fail "NetworkManager's shared address is not on wlan2: $(ip -4 -o addr show dev wlan2)"
if [[ $NM_DAEMON == joind ]]; then
	jw -t 5 object net.joind.Device1 Name=wlan2 Mode=ap >/dev/null || wifi_fail "joind: not in AP mode"
	jw -t 5 object net.joind.AccessPoint1 Started=true "Name=$HS_SSID" Security=wpa2-psk >/dev/null ||
		wifi_fail "joind's AccessPoint1 is not a started WPA2 AP called $HS_SSID"
	grep -q "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached joind's log"
fi
check "nmcli dev wifi hotspot in $took s: Mode ap, AccessPoint started on $freq MHz, 10.42.0.1/24"

# The client takes its address from NetworkManager's dnsmasq: udhcpc's
# script writes the lease and puts the address on the interface.
AP_CLIENTS=1
CLIF=()
CLIF[1]=$(ap_radio joindcl58_1 "$(ap_ns_of 1)")
ap_in 1 ip link set "${CLIF[1]}" up
# shellcheck disable=SC2016 # udhcpc's variables, expanded by the script
printf '%s\n' '#!/bin/sh' '[ "$1" = bound ] || exit 0' \
	"echo \"\$ip\" >$WORK/hs58-lease" 'ip addr add "$ip/$mask" dev "$interface"' \
	>"$WORK/hs58-udhcpc"
chmod +x "$WORK/hs58-udhcpc"
T0=$(wifi_now)
ap_client 1 "ssid=\"$HS_SSID\"
key_mgmt=WPA-PSK
proto=RSN
psk=\"$PASS\""
ap_client_completed 1
ap_in 1 busybox udhcpc -i "${CLIF[1]}" -n -q -t 10 -T 2 -s "$WORK/hs58-udhcpc" >/dev/null 2>&1 ||
	wifi_fail "no DHCP lease from NetworkManager's dnsmasq"
lease=$(cat "$WORK/hs58-lease")
[[ $lease =~ ^10\.42\.0\.([0-9]+)$ && ${BASH_REMATCH[1]} -gt 1 ]] || wifi_fail "lease: $lease"
clmac=$(ap_in 1 cat "/sys/class/net/${CLIF[1]}/address")
grep -qi " $clmac $lease " /var/lib/NetworkManager/dnsmasq-wlan2.leases ||
	wifi_fail "dnsmasq's leases: $(cat /var/lib/NetworkManager/dnsmasq-wlan2.leases)"
ap_in 1 ping -c 3 -W 3 10.42.0.1 >/dev/null || wifi_fail "no ping from the client to 10.42.0.1"
if [[ $NM_DAEMON == joind ]]; then
	stations=$(busctl --system --json=short get-property net.joind "$(jw -t 5 object \
		net.joind.AccessPoint1 Started=true)" net.joind.AccessPoint1 Stations | jq -r '.data[]')
	[[ ${stations,,} == "${clmac,,}" ]] || wifi_fail "AccessPoint1.Stations: $stations"
fi
check "wpa_supplicant joined, leased $lease from NetworkManager's dnsmasq and pinged 10.42.0.1 in $(wifi_since "$T0") s"

T0=$(wifi_now)
nmcli -w 30 con down hs58 || wifi_fail "nmcli con down hs58"
iwd_wait 20 "$IDEV" $NMD Mode station
[[ -z $(iwd_get "$IDEV" $NMA Started) ]] || wifi_fail "AccessPoint is still there in station mode"
iwd_wait 60 "$IDEV" $NMS ConnectedNetwork "$wpa2_net"
nm_wait_state 30 100 jw2
if [[ $NM_DAEMON == joind ]]; then
	jw -t 5 object net.joind.Device1 Name=wlan2 Mode=station >/dev/null || wifi_fail "joind: not in station mode"
	jw -t 5 no-object net.joind.AccessPoint1 >/dev/null || wifi_fail "joind: AccessPoint1 still there"
fi
check "nmcli con down: station mode again, rejoined joind-wpa2 by itself in $(wifi_since "$T0") s"

# NetworkManager removes the profile it wrote into the daemon's state:
# the next case finds no network known.
nmcli con delete jw2 hs58 >/dev/null || wifi_fail "nmcli con delete jw2 hs58"
wifi_poll 10 "joind-wpa2.psk removed" test ! -e "$NM_STATE_DIR/joind-wpa2.psk"
hs_cleanup
trap - EXIT
nm_daemon_stop
