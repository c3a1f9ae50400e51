# shellcheck shell=bash
# 81-iwd-nm.sh - NetworkManager 1.42 (Debian's) driving joind through iwd's
# D-Bus API (plugins/iwd-compat), as on a GNOME desktop with
# wifi.backend=iwd: udev for NetworkManager's device discovery, joind
# restarted with [General] IwdCompatibility=true, NetworkManager with polkit
# off and only wlan2 managed. nmcli radio wifi off and on, dev wifi rescan
# and list (SSIDs, security), an open network up and deleted, a WPA2-PSK
# network whose secret NetworkManager's agent supplies (IP off: no DHCP
# server in the scene): a wrong one (missing secrets, nothing saved), the
# right one, con down and up, con modify autoconnect no, con delete
# (forgotten). Every check reads net.connman.iwd or nmcli -t, so
# 91-nm-differential runs this file against the real iwd too
# (NM_DAEMON=iwd); against joind, its own API is checked as well.

NMD=net.connman.iwd.Device
NMS=net.connman.iwd.Station
NMK=net.connman.iwd.KnownNetwork
NM_PASS=$WORK/nm-pass
NM_WRONG=$WORK/nm-wrong

# NetworkManager, udev (and iwd) go with the case, failed or not
# (wifi_reset knows none of them).
trap nm_cleanup EXIT

nm_daemon_start
nm_start
nm_wait_state 60 30
check "NetworkManager (wifi.backend=iwd) manages wlan2 through $NM_DAEMON's net.connman.iwd"

nmcli radio wifi off || wifi_fail "nmcli radio wifi off"
nm_wait_state 30 20
iwd_wait 10 "$IDEV" $NMD Powered false
[[ $(nmcli -t -f WIFI radio) == disabled ]] || wifi_fail "nmcli radio: $(nmcli -t radio)"
nmcli radio wifi on || wifi_fail "nmcli radio wifi on"
iwd_wait 10 "$IDEV" $NMD Powered true
nm_wait_state 60 30
check "nmcli radio wifi off: unavailable, Device.Powered false; on: powered, disconnected"

# NetworkManager asks for the scan (Station.Scan) and lists what the
# daemon's GetOrderedNetworks returns once Scanning falls again.
nm_list() { nmcli -t -f SSID,SECURITY dev wifi list ifname wlan2 --rescan no; }
nmcli dev wifi rescan ifname wlan2 || wifi_fail "nmcli dev wifi rescan"
wifi_poll 60 "nmcli dev wifi list to show joind-wpa2 and joind-eap" \
	bash -c 'l=$(nmcli -t -f SSID,SECURITY dev wifi list ifname wlan2 --rescan no);
		grep -qx "joind-wpa2:WPA2" <<<"$l" && grep -qx "joind-eap:WPA2 802.1X" <<<"$l"'
list=$(nm_list)
grep -qx "joind-open:" <<<"$list" || wifi_fail "nmcli: joind-open is not open: $list"
grep -qx "joind-sae:WPA2" <<<"$list" || wifi_fail "nmcli: joind-sae is not a PSK network: $list"
grep -q "^joind-hidden:" <<<"$list" && wifi_fail "nmcli lists the hidden network: $list"
check "nmcli dev wifi rescan and list: joind-open open, joind-wpa2 and joind-sae WPA2, joind-eap 802.1X"

# An open network: NetworkManager's .open profile makes it known.
open_net=$IDEV/$(iwd_hex joind-open)_open
nmcli con add type wifi con-name jopen ifname wlan2 ssid joind-open \
	ipv4.method disabled ipv6.method disabled >/dev/null || wifi_fail "nmcli con add jopen"
nmcli con up jopen || wifi_fail "nmcli con up jopen"
iwd_is "$IDEV" $NMS State connected || wifi_fail "NetworkManager says up, $NM_DAEMON is not connected"
iwd_is "$IDEV" $NMS ConnectedNetwork "$open_net" || wifi_fail "not connected to joind-open"
[[ -e $NM_STATE_DIR/joind-open.open ]] || wifi_fail "NetworkManager wrote no joind-open.open"
iwd_is "/net/connman/iwd/$(iwd_hex joind-open)_open" $NMK Name joind-open ||
	wifi_fail "no KnownNetwork for joind-open"
if [[ $NM_DAEMON == joind ]]; then
	jw -t 5 object net.joind.Station1 State=connected >/dev/null || wifi_fail "joind: not connected"
fi
nmcli con delete jopen || wifi_fail "nmcli con delete jopen"
iwd_wait 20 "$IDEV" $NMS State disconnected
wifi_poll 10 "joind-open.open removed" test ! -e "$NM_STATE_DIR/joind-open.open"
check "nmcli con up (open network): connected, NetworkManager's .open known; con delete"

# WPA2-PSK with the secret not saved by NetworkManager (psk-flags 2): its
# profile file carries none and makes the network known at once; the
# daemon asks NetworkManager's agent, which asks nmcli's (passwd-file),
# and saves the secret once connected.
wpa2_net=$IDEV/$(iwd_hex joind-wpa2)_psk
wpa2_known=/net/connman/iwd/$(iwd_hex joind-wpa2)_psk
wpa2_file=$NM_STATE_DIR/joind-wpa2.psk
printf '802-11-wireless-security.psk:%s\n' "$PASS" >"$NM_PASS"
printf '802-11-wireless-security.psk:%s\n' not-the-passphrase >"$NM_WRONG"
nmcli con add type wifi con-name jw2 ifname wlan2 ssid joind-wpa2 wifi-sec.key-mgmt wpa-psk \
	wifi-sec.psk-flags 2 ipv4.method disabled ipv6.method disabled >/dev/null ||
	wifi_fail "nmcli con add jw2"
wifi_poll 10 "NetworkManager's joind-wpa2.psk" test -e "$wpa2_file"
grep -qE '^(Passphrase|PreSharedKey)=' "$wpa2_file" && wifi_fail "a secret in $wpa2_file"
iwd_wait 20 "$wpa2_known" $NMK Name joind-wpa2
out=$(nmcli -w 60 con up jw2 passwd-file "$NM_WRONG" 2>&1) &&
	wifi_fail "con up with a wrong passphrase succeeded: $out"
grep -q "Secrets were required, but not provided" <<<"$out" ||
	wifi_fail "con up with a wrong passphrase: $out"
iwd_wait 20 "$IDEV" $NMS State disconnected
grep -qE '^(Passphrase|PreSharedKey)=' "$wpa2_file" && wifi_fail "the wrong passphrase was saved"
check "wrong passphrase from NetworkManager's agent: no-secrets failure, disconnected, nothing saved"

t=$(wifi_now)
nmcli -w 60 con up jw2 passwd-file "$NM_PASS" || wifi_fail "nmcli con up jw2"
took=$(wifi_since "$t")
nm_wait_state 10 100 jw2
iwd_is "$IDEV" $NMS ConnectedNetwork "$wpa2_net" || wifi_fail "not connected to joind-wpa2"
grep -qE '^(Passphrase|PreSharedKey)=' "$wpa2_file" || wifi_fail "$wpa2_file: the secret not saved"
iwd_is "$wpa2_net" net.connman.iwd.Network KnownNetwork "$wpa2_known" ||
	wifi_fail "Network.KnownNetwork: $(iwd_get "$wpa2_net" net.connman.iwd.Network KnownNetwork)"
if [[ $NM_DAEMON == joind ]]; then
	jw -t 5 object net.joind.KnownNetwork1 Name=joind-wpa2 >/dev/null ||
		wifi_fail "joind does not know joind-wpa2"
	grep -q "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached joind's log"
fi
check "nmcli con up (WPA2-PSK, the agent's secret) in ${took} s: connected, KnownNetwork"

nmcli -w 30 con down jw2 || wifi_fail "nmcli con down jw2"
iwd_wait 20 "$IDEV" $NMS State disconnected
nm_wait_state 20 30
nmcli -w 60 con up jw2 passwd-file "$NM_PASS" || wifi_fail "nmcli con up jw2 (again)"
nm_wait_state 10 100 jw2
iwd_is "$IDEV" $NMS ConnectedNetwork "$wpa2_net" || wifi_fail "not connected again"
check "nmcli con down, con up: the daemon follows"

# NetworkManager rewrites its profile file on every change, here without
# the secret it does not keep (the daemon saved one): the network stays
# known with the new settings, its secret asked again at the next connect.
nmcli con modify jw2 connection.autoconnect no || wifi_fail "nmcli con modify"
iwd_wait 20 "$wpa2_known" $NMK AutoConnect false
grep -qx 'AutoConnect=false' "$wpa2_file" || wifi_fail "$wpa2_file: no AutoConnect=false"
grep -qE '^(Passphrase|PreSharedKey)=' "$wpa2_file" && wifi_fail "NetworkManager kept the secret"
if [[ $NM_DAEMON == joind ]]; then
	jw -t 5 object net.joind.KnownNetwork1 Name=joind-wpa2 AutoConnect=false >/dev/null ||
		wifi_fail "joind's KnownNetwork1 does not say AutoConnect=false"
fi
check "nmcli con modify autoconnect no (file without a secret): AutoConnect false, and in the file"

nmcli con delete jw2 || wifi_fail "nmcli con delete jw2"
iwd_wait 20 "$IDEV" $NMS State disconnected
# (Introspecting a path that has no object succeeds; reading a property
# of it fails.)
wifi_poll 20 "the joind-wpa2 KnownNetwork to go" sh -c "! busctl --system get-property \
	net.connman.iwd $wpa2_known $NMK Name >/dev/null 2>&1"
[[ ! -e $wpa2_file ]] || wifi_fail "$wpa2_file is still there"
if [[ $NM_DAEMON == joind ]]; then
	jw -t 5 no-object net.joind.KnownNetwork1 Name=joind-wpa2 >/dev/null ||
		wifi_fail "joind still knows joind-wpa2"
fi
check "nmcli con delete: disconnected, joind-wpa2 forgotten (object and file gone)"

nm_cleanup
nm_daemon_stop
