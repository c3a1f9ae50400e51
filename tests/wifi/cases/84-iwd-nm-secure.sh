# shellcheck shell=bash
# 84-iwd-nm-secure.sh - NetworkManager 1.42 (wifi.backend=iwd, as in
# 81-iwd-nm) onto WPA3-Personal and WPA2-Enterprise through joind's iwd
# API, each from a connection NetworkManager saved and mirrored into the
# daemon's StateDirectory:
#   - SAE only (wlan5 in a namespace of its own, channel 3): the daemon's
#     Network Type is psk, so NetworkManager's connection is wpa-psk and
#     its file <ssid>.psk; joind joins with SAE (diagnostics), and a ping
#     from the access point crosses the air to NetworkManager's address
#   - PEAP/MSCHAPv2 (tests/wifi/eap-ap.sh's joind-ent on wlan6): the
#     server certificate checked against the CA NetworkManager names and
#     its domain; NetworkManager gives up on 802.1X unless the
#     KnownNetwork appears within 2 s of its <ssid>.8021x: that time is
#     reported; then connected, authorized on the AP, a ping; the same
#     network without a CA refused with iwd's Failed (joind only)
# Each connection is then taken down and deleted: file and KnownNetwork
# gone. In CI: about 130 s of VM time on a loaded 2-core machine.

NMS=net.connman.iwd.Station
NMK=net.connman.iwd.KnownNetwork
NMN=net.connman.iwd.Network
SEC_NS=joind-nm-sae
SEC_PHY=$(cat /sys/class/net/wlan5/phy80211/name)

# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"

sec_ns() { ip netns exec "$SEC_NS" "$@"; }

# shellcheck disable=SC2317 # called through wifi_poll
sec_ap_up() { sec_ns iw dev wlan5 info 2>/dev/null | grep -q "type AP"; }

sec_sae_ap() {
	ip netns add "$SEC_NS"
	iw phy "$SEC_PHY" set netns name "$SEC_NS" || wifi_fail "cannot move $SEC_PHY into $SEC_NS"
	cat >"$WORK/hostapd-nmsae.conf" <<EOF2
ctrl_interface=/run/hostapd-nmsae
interface=wlan5
driver=nl80211
hw_mode=g
channel=3
ssid=joind-nm-sae
wpa=2
wpa_key_mgmt=SAE
ieee80211w=2
rsn_pairwise=CCMP
sae_password=$PASS
EOF2
	sec_ns hostapd -B -P "$WORK/hostapd-nmsae.pid" -f "$LOGDIR/hostapd-nmsae.log" \
		"$WORK/hostapd-nmsae.conf" || wifi_fail "hostapd nmsae did not start"
	wifi_poll 30 "hostapd nmsae beaconing" sec_ap_up
}

# sec_ping NS-CMD AP-IFACE ADDRESS: five pings from the access point's
# namespace to NetworkManager's address on wlan2 (ADDRESS.2), across the
# air; SEC_PING the summary.
sec_ping() {
	local ns=$1 iface=$2 net=$3 out
	$ns ip addr add "$net.1/24" dev "$iface" || wifi_fail "ip addr add on $iface"
	out=$($ns ping -n -q -c 5 -i 0.2 -w 15 "$net.2" 2>&1) || true
	$ns ip addr del "$net.1/24" dev "$iface"
	SEC_PING=$(grep 'packets transmitted' <<<"$out") || true
	grep -q " 5 received, 0% packet loss" <<<"$SEC_PING" || wifi_fail "ping via $iface: ${SEC_PING:-$out}"
}

# sec_up CON NET KNOWN TIMEOUT: nmcli con up CON, then NetworkManager
# activated and the daemon connected to NET, whose KnownNetwork is KNOWN;
# SEC_TOOK the seconds con up took.
sec_up() {
	local t
	t=$(wifi_now)
	nmcli -w "$4" con up "$1" >/dev/null || wifi_fail "nmcli con up $1"
	SEC_TOOK=$(wifi_since "$t")
	nm_wait_state 10 100 "$1"
	iwd_is "$IDEV" $NMS State connected || wifi_fail "NetworkManager says up, $NM_DAEMON is not connected"
	iwd_is "$IDEV" $NMS ConnectedNetwork "$2" || wifi_fail "not connected to $2"
	iwd_is "$2" $NMN KnownNetwork "$3" || wifi_fail "Network.KnownNetwork: $(iwd_get "$2" $NMN KnownNetwork)"
}

# sec_down_delete CON SSID TYPE: con down and delete; the daemon
# disconnected, NetworkManager's file and the KnownNetwork gone.
sec_down_delete() {
	local known
	known=/net/connman/iwd/$(iwd_hex "$2")_$3
	nmcli -w 30 con down "$1" >/dev/null || wifi_fail "nmcli con down $1"
	iwd_wait 20 "$IDEV" $NMS State disconnected
	nmcli con delete "$1" >/dev/null || wifi_fail "nmcli con delete $1"
	wifi_poll 20 "$2's KnownNetwork to go" sh -c "! busctl --system get-property \
		net.connman.iwd $known $NMK Name >/dev/null 2>&1"
	[[ ! -e $NM_STATE_DIR/$2.$3 ]] || wifi_fail "$NM_STATE_DIR/$2.$3 is still there"
}

# sec_known_after FILE PATH: seconds from FILE's last change (its rename
# into place) until the KnownNetwork PATH answers, polled every 0.1 s.
sec_known_after() {
	local end=$(($(date +%s) + 10))
	until iwd_is "$2" $NMK Type 8021x; do
		(($(date +%s) < end)) || wifi_fail "no KnownNetwork $2 for $1"
		sleep 0.1
	done
	awk -v now="$(date +%s.%N)" -v then="$(stat -c %.9Z "$1")" \
		'BEGIN { printf "%.2f", now - then }'
}

# NetworkManager and udev go with the case, failed or not.
trap nm_cleanup EXIT

ent_setup
sec_sae_ap
wifi_step "SAE AP up on $SEC_PHY (wlan5, channel 3) in netns $SEC_NS"
nm_daemon_start
nm_start
nm_wait_state 60 30
nmcli dev wifi rescan ifname wlan2 || wifi_fail "nmcli dev wifi rescan"
wifi_poll 60 "nmcli dev wifi list to show joind-nm-sae and joind-ent" \
	bash -c 'l=$(nmcli -t -f SSID,SECURITY dev wifi list ifname wlan2 --rescan no);
		grep -qx "joind-nm-sae:WPA2" <<<"$l" && grep -qx "joind-ent:WPA2 802.1X" <<<"$l"'
check "nmcli dev wifi list: joind-nm-sae (SAE only) as WPA2, joind-ent as 802.1X"

# ---------------------------------------------------------------- SAE ---
sae_net=$IDEV/$(iwd_hex joind-nm-sae)_psk
sae_known=/net/connman/iwd/$(iwd_hex joind-nm-sae)_psk
sae_file=$NM_STATE_DIR/joind-nm-sae.psk
nmcli con add type wifi con-name jsae ifname wlan2 ssid joind-nm-sae wifi-sec.key-mgmt wpa-psk \
	wifi-sec.psk "$PASS" connection.autoconnect no ipv4.method manual \
	ipv4.addresses 10.9.8.2/24 ipv6.method disabled >/dev/null || wifi_fail "nmcli con add jsae"
wifi_poll 10 "NetworkManager's $sae_file" test -e "$sae_file"
grep -qx "Passphrase=$PASS" "$sae_file" || wifi_fail "$sae_file: no Passphrase"
iwd_wait 10 "$sae_known" $NMK Name joind-nm-sae
sec_up jsae "$sae_net" "$sae_known" 60
if [[ $NM_DAEMON == joind ]]; then
	wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection |
		(.security | startswith("sae")) and .mfp' >/dev/null ||
		wifi_fail "joind did not join with SAE: $(wifi_diag -c '.devices[] |
			select(.name == "wlan2") | .details.connection')"
	grep -q "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached joind's log"
fi
sec_ping sec_ns wlan5 10.9.8
check "nmcli con up (wpa-psk connection, SAE-only network) in ${SEC_TOOK} s: connected with SAE, $(basename "$sae_file") with the passphrase, KnownNetwork; ping: $SEC_PING"
sec_down_delete jsae joind-nm-sae psk
check "SAE: con down, con delete: disconnected, file and KnownNetwork gone"

# ----------------------------------------------------------- PEAP ---
ent_net=$IDEV/$(iwd_hex joind-ent)_8021x
ent_known=/net/connman/iwd/$(iwd_hex joind-ent)_8021x
ent_file=$NM_STATE_DIR/joind-ent.8021x
nmcli con add type wifi con-name jpeap ifname wlan2 ssid joind-ent wifi-sec.key-mgmt wpa-eap \
	802-1x.eap peap 802-1x.phase2-auth mschapv2 802-1x.anonymous-identity anonymous@auth.test \
	802-1x.identity peapuser 802-1x.password peappass 802-1x.ca-cert "$ENT_PKI/ca.pem" \
	802-1x.domain-match auth.test connection.autoconnect no ipv4.method manual \
	ipv4.addresses 10.9.6.2/24 ipv6.method disabled >/dev/null || wifi_fail "nmcli con add jpeap"
wifi_poll 10 "NetworkManager's $ent_file" test -e "$ent_file"
# The time is reported, not asserted (an emulated guest on a busy host
# stretches it); NetworkManager's own wait is exercised by con up below,
# which fails when it gave up on the KnownNetwork.
known_after=$(sec_known_after "$ent_file" "$ent_known")
for want in 'EAP-Method=PEAP' "EAP-PEAP-CACert=$ENT_PKI/ca.pem" 'EAP-PEAP-ServerDomainMask=auth.test' \
	'EAP-PEAP-Phase2-Method=MSCHAPV2' 'EAP-PEAP-Phase2-Identity=peapuser'; do
	grep -qxF "$want" "$ent_file" || wifi_fail "$ent_file lacks $want: $(grep -v Password "$ent_file")"
done
check "nmcli con add (PEAP, CA and domain): $(basename "$ent_file") mirrored, KnownNetwork in ${known_after} s"

sec_up jpeap "$ent_net" "$ent_known" 120
grep -qE 'authorized:\s*yes' <<<"$(ent_ns iw dev wlan6 station get "$ENT_ADDR")" ||
	wifi_fail "PEAP: the AP has not authorized the station"
if [[ $NM_DAEMON == joind ]]; then
	ent_link '(.security == "8021x") and (.eap_method == "PEAP") and
		(.eap_identity == "anonymous@auth.test") and (.server_subject | contains("CN=auth.test"))' ||
		wifi_fail "PEAP: $(wifi_diag -c '.devices[] | select(.name == "wlan2") | .details.connection')"
	grep -q peappass "$JOIND_LOG" && wifi_fail "the password reached joind's log"
fi
sec_ping ent_ns wlan6 10.9.6
check "nmcli con up (PEAP/MSCHAPv2, the server checked against NetworkManager's CA and domain) in ${SEC_TOOK} s: connected, authorized on the AP; ping: $SEC_PING"
sec_down_delete jpeap joind-ent 8021x
check "PEAP: con down, con delete: disconnected, file and KnownNetwork gone"

# Without a CA, iwd would accept any server; joind refuses before the
# credentials leave, and NetworkManager gets iwd's Failed with the sentence
# that names the way through. (iwd itself connects: joind only.)
if [[ $NM_DAEMON == joind ]]; then
	nmcli con add type wifi con-name jnoca ifname wlan2 ssid joind-ent wifi-sec.key-mgmt wpa-eap \
		802-1x.eap peap 802-1x.phase2-auth mschapv2 802-1x.identity peapuser \
		802-1x.password peappass connection.autoconnect no ipv4.method manual \
		ipv4.addresses 10.9.6.2/24 ipv6.method disabled >/dev/null || wifi_fail "nmcli con add jnoca"
	wifi_poll 10 "NetworkManager's $ent_file" test -e "$ent_file"
	grep -q CACert "$ent_file" && wifi_fail "$ent_file names a CA: $(grep CACert "$ent_file")"
	sec_known_after "$ent_file" "$ent_known" >/dev/null
	nmcli -w 60 con up jnoca >/dev/null 2>&1 && wifi_fail "nmcli con up succeeded without a CA"
	iwd_wait 20 "$IDEV" $NMS State disconnected
	out=$(gdbus call --system --dest net.connman.iwd --object-path "$ent_net" \
		--method $NMN.Connect 2>&1) && wifi_fail "Network.Connect without a CA: $out"
	[[ $out == *net.connman.iwd.Failed* && $out == *ServerKeyPin=* && $out == *CACert* ]] ||
		wifi_fail "Network.Connect without a CA: $out"
	grep -q peappass "$JOIND_LOG" && wifi_fail "the password reached joind's log"
	nmcli con delete jnoca >/dev/null || wifi_fail "nmcli con delete jnoca"
	wifi_poll 20 "$ent_file to go" test ! -e "$ent_file"
	check "PEAP without a CA: nmcli con up fails; Network.Connect answers net.connman.iwd.Failed naming ServerKeyPin and CACert"
fi

nm_cleanup
nm_daemon_stop
ent_teardown
wifi_stop_hostapd nmsae
sec_ns iw phy "$SEC_PHY" set netns 1 || wifi_fail "cannot move $SEC_PHY back"
ip netns del "$SEC_NS"
