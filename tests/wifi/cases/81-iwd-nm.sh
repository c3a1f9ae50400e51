# shellcheck shell=bash
# 81-iwd-nm.sh - NetworkManager 1.42 (Debian's) driving joind through iwd's
# D-Bus API (plugins/iwd-compat), as on a GNOME desktop with
# wifi.backend=iwd: udev for NetworkManager's device discovery, joind
# restarted with [General] IwdCompatibility=true, NetworkManager with polkit
# off and only wlan2 managed. nmcli dev wifi list (SSIDs, security), a
# WPA2-PSK connection (IP off: no DHCP server in the scene) up, down and up
# again, joind connected on its own API each time, NetworkManager's iwd
# profile in joind's state directory, and con delete leaving the network
# forgotten.

ST=net.joind.Station1
KN=net.joind.KnownNetwork1
NM_LOG=$LOGDIR/nm.log

# NetworkManager and udev go with the case, failed or not (wifi_reset knows
# neither).
nm_cleanup() {
	[[ ! -e $WORK/nm.pid ]] || kill "$(cat "$WORK/nm.pid")" 2>/dev/null || true
	rm -f "$WORK/nm.pid" /etc/NetworkManager/conf.d/joind-test.conf
	udevadm control --exit 2>/dev/null || true
}
trap nm_cleanup EXIT

wifi_start_iwd_compat

# NetworkManager learns of interfaces from udev.
/lib/systemd/systemd-udevd --daemon || wifi_fail "systemd-udevd"
# Network interfaces only: a full trigger does not settle in time under TCG.
udevadm trigger --action=add --subsystem-match=net || wifi_fail "udevadm trigger"
udevadm settle -t 60 || wifi_fail "udevadm settle"
mkdir -p /etc/NetworkManager/conf.d /run/NetworkManager /var/lib/NetworkManager
cat >/etc/NetworkManager/conf.d/joind-test.conf <<EOF
[main]
auth-polkit=false
plugins=keyfile
[keyfile]
unmanaged-devices=except:interface-name:wlan2
[device]
wifi.backend=iwd
EOF
NetworkManager --no-daemon >"$NM_LOG" 2>&1 &
echo $! >"$WORK/nm.pid"
wifi_poll 60 "NetworkManager on the bus" nmcli -t general status
wifi_poll 60 "NetworkManager to see wlan2 through iwd" \
	sh -c 'nmcli -t -f DEVICE,TYPE,STATE dev | grep -qE "^wlan2:wifi:(disconnected|unavailable)"'
nmcli dev set wlan2 managed yes || wifi_fail "nmcli dev set wlan2 managed yes"
wifi_poll 60 "wlan2 disconnected (usable) in NetworkManager" \
	sh -c 'nmcli -t -f DEVICE,STATE dev | grep -qx "wlan2:disconnected"'
check "NetworkManager (wifi.backend=iwd) manages wlan2 through joind's net.connman.iwd"

nmcli dev wifi rescan ifname wlan2 || true
wifi_poll 60 "nmcli dev wifi list to show joind-wpa2" \
	sh -c 'nmcli -t -f SSID,SECURITY dev wifi list ifname wlan2 | grep -qx "joind-wpa2:WPA2"'
list=$(nmcli -t -f SSID,SECURITY dev wifi list ifname wlan2)
grep -qx "joind-open:" <<<"$list" || wifi_fail "nmcli: joind-open is not open: $list"
check "nmcli dev wifi list: joind-wpa2 WPA2, joind-open open"

nmcli con add type wifi con-name jw2 ifname wlan2 ssid joind-wpa2 wifi-sec.key-mgmt wpa-psk \
	wifi-sec.psk "$PASS" ipv4.method disabled ipv6.method disabled >/dev/null ||
	wifi_fail "nmcli con add"
t=$(wifi_now)
nmcli con up jw2 || wifi_fail "nmcli con up jw2: $(tail -n 20 "$NM_LOG")"
took=$(wifi_since "$t")
wpa2=$(jw -t 5 object net.joind.Network1 "Device=$DEV" Name=joind-wpa2 Type=psk) ||
	wifi_fail "joind-wpa2 not on joind's API"
jw -t 10 object $ST State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "NetworkManager says up, joind is not connected"
[[ -e $WORK/state/joind-wpa2.psk ]] || wifi_fail "NetworkManager wrote no joind-wpa2.psk"
jw -t 5 object $KN Name=joind-wpa2 >/dev/null || wifi_fail "joind does not know joind-wpa2"
check "nmcli con up (WPA2-PSK) in ${took} s: joind connected; NetworkManager's profile known"

nmcli con down jw2 || wifi_fail "nmcli con down jw2"
jw -t 20 object $ST State=disconnected >/dev/null || wifi_fail "joind still connected"
nmcli con up jw2 || wifi_fail "nmcli con up jw2 (again)"
jw -t 20 object $ST State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "joind not connected again"
check "nmcli con down, con up: joind follows"

nmcli con delete jw2 || wifi_fail "nmcli con delete jw2"
jw -t 20 object $ST State=disconnected >/dev/null || wifi_fail "still connected after delete"
jw -t 20 no-object $KN Name=joind-wpa2 >/dev/null || wifi_fail "joind still knows joind-wpa2"
check "nmcli con delete: disconnected, joind-wpa2 forgotten"

nm_cleanup
wifi_stop_iwd_compat
