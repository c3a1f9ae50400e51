# tests/wifi/cases/20-security.sh - sourced by run-all.sh (see the comment
# above its loop): management frame protection, group rekeys (GTK and IGTK)
# with traffic flowing, and EAPOL over AF_PACKET.
#
# The access points run on wlan5 (channel 3), whose phy moves into a network
# namespace of its own so that a ping between the AP's interface
# (10.9.0.1) and wlan2 (10.9.0.2) crosses the air instead of the loopback.
#   wlan5    joind-sec-sha256     WPA-PSK-SHA256, MFP required
#   wlan5-1  joind-sec-rekey      WPA2-PSK, a new GTK every 5 s
#   wlan5-2  joind-sec-mfp-rekey  WPA-PSK + PSK-SHA256, MFP optional, a new
#                                 GTK and IGTK every 5 s
# Profiles say AutoConnect=false: every connect here is an explicit Connect().

SEC_NS=joind-sec
SEC_PHY=$(cat /sys/class/net/wlan5/phy80211/name)
SEC_ADDR=$(cat /sys/class/net/wlan2/address)
SEC_HOSTAPD_LOG=$LOGDIR/hostapd-sec.log

sec_ns() { ip netns exec "$SEC_NS" "$@"; }

# Every BSS of the hostapd config is beaconing (iw inside the namespace).
sec_ap_up() {
	local info
	for i in wlan5 wlan5-1 wlan5-2; do
		info=$(sec_ns iw dev "$i" info 2>/dev/null) || return 1
		grep -q "type AP" <<<"$info" && grep -q "ssid" <<<"$info" || return 1
	done
}

sec_ssid_profile() {
	(
		umask 077
		printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$PASS" \
			>"$WORK/state/$1.psk"
	)
	jw -t 10 object $NET "Device=$DEV" "Name=$1" 'KnownNetwork!=/' >/dev/null ||
		wifi_fail "$1: the profile was not picked up"
}

# sec_connect SSID: Connect() from the profile; sets SEC_PATH (results go
# through globals: wifi_fail inside $(...) would lose its message).
sec_connect() {
	SEC_PATH=$(jw -t 40 object $NET "Device=$DEV" "Name=$1" Type=psk) || wifi_fail "$1 not listed"
	sec_ssid_profile "$1"
	jcall --object-path "$SEC_PATH" --method $NET.Connect >/dev/null ||
		wifi_fail "Connect() $1 failed"
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$SEC_PATH" >/dev/null ||
		wifi_fail "$1: State is not connected"
	grep -q "SSID: $1" <<<"$(iw dev wlan2 link)" || wifi_fail "$1: iw: wlan2 not associated"
}

sec_disconnect() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "not disconnected after Disconnect()"
	rm -f "$WORK/state/$1.psk"
}

# sec_ping AP-IFACE COUNT: ping wlan2 from the AP's side, COUNT packets
# 0.2 s apart, while the AP forgets its neighbour entry every 2 s so that
# ARP requests (broadcasts, encrypted with the current GTK) must reach the
# station throughout. Sets SEC_PING (ping's summary line); fails on any loss.
sec_ping() {
	local iface=$1 count=$2 out flusher
	sec_ns ip addr add 10.9.0.1/24 dev "$iface" || wifi_fail "ip addr add on $iface"
	ip addr add 10.9.0.2/24 dev wlan2 || wifi_fail "ip addr add on wlan2"
	sec_ns ip neigh flush dev "$iface" || true
	ip neigh flush dev wlan2 || true
	(
		for _ in $(seq $((count / 10))); do
			sleep 2
			sec_ns ip neigh flush dev "$iface" || true
		done
	) &
	flusher=$!
	out=$(sec_ns ping -n -q -i 0.2 -c "$count" -w $((count / 5 + 10)) 10.9.0.2 2>&1) || true
	kill "$flusher" 2>/dev/null
	wait "$flusher" 2>/dev/null || true
	sec_ns ip addr del 10.9.0.1/24 dev "$iface"
	ip addr del 10.9.0.2/24 dev wlan2
	SEC_PING=$(grep 'packets transmitted' <<<"$out") || true
	grep -q " $count received, 0% packet loss" <<<"$SEC_PING" ||
		wifi_fail "ping via $iface: ${SEC_PING:-$out}"
}

sec_hostapd_count() { grep -c "^$1: STA $SEC_ADDR WPA: $2 key handshake completed" "$SEC_HOSTAPD_LOG" || true; }

# sec_rekey_case SSID AP-IFACE MFP(0|1): connected through several group
# rekeys with traffic flowing; counts them on both sides.
sec_rekey_case() {
	local ssid=$1 iface=$2 mfp=$3 ap0 gtk0 igtk0 ap1 gtk1 igtk1 ap_sta figures
	sec_connect "$ssid"
	ap0=$(sec_hostapd_count "$iface" group)
	gtk0=$(log_count 'wlan2: rekey: new group key \(GTK\)')
	igtk0=$(log_count 'wlan2: rekey: new group management key \(IGTK\)')
	sec_ping "$iface" 90
	ap1=$(sec_hostapd_count "$iface" group)
	gtk1=$(log_count 'wlan2: rekey: new group key \(GTK\)')
	igtk1=$(log_count 'wlan2: rekey: new group management key \(IGTK\)')
	((ap1 - ap0 >= 3)) || wifi_fail "$ssid: hostapd logged $((ap1 - ap0)) group key handshakes, want >= 3"
	((gtk1 - gtk0 >= 3)) || wifi_fail "$ssid: joind installed $((gtk1 - gtk0)) new GTKs, want >= 3"
	figures="hostapd: $((ap1 - ap0)) group key handshakes, joind: $((gtk1 - gtk0)) new GTKs"
	if ((mfp)); then
		((igtk1 - igtk0 >= 3)) || wifi_fail "$ssid: joind installed $((igtk1 - igtk0)) new IGTKs, want >= 3"
		figures+=", $((igtk1 - igtk0)) new IGTKs"
	fi
	jw -t 1 object net.joind.Station1 State=connected "ConnectedNetwork=$SEC_PATH" >/dev/null ||
		wifi_fail "$ssid: the link went down during the rekeys"
	ap_sta=$(sec_ns iw dev "$iface" station get "$SEC_ADDR") || wifi_fail "$ssid: AP lost the station"
	grep -qE 'authorized:\s*yes' <<<"$ap_sta" || wifi_fail "$ssid: AP: station not authorized"
	((mfp)) && ! grep -qE 'MFP:\s*yes' <<<"$ap_sta" && wifi_fail "$ssid: AP: no MFP"
	grep -E "wlan2: (SET_KEY|NEW_KEY): " "$JOIND_LOG" && wifi_fail "$ssid: a key command failed"
	check "$ssid: link up through the rekeys ($figures); ping AP -> station across them: $SEC_PING"
	sec_disconnect "$ssid"
}

# ----------------------------------------------------------- access points ---
ip netns add "$SEC_NS"
iw phy "$SEC_PHY" set netns name "$SEC_NS" || wifi_fail "cannot move $SEC_PHY into $SEC_NS"
cat >"$WORK/hostapd-sec.conf" <<EOF
ctrl_interface=/run/hostapd-sec
interface=wlan5
driver=nl80211
hw_mode=g
channel=3
ssid=joind-sec-sha256
wpa=2
wpa_key_mgmt=WPA-PSK-SHA256
ieee80211w=2
rsn_pairwise=CCMP
wpa_passphrase=$PASS

bss=wlan5-1
bssid=02:00:00:00:05:01
ssid=joind-sec-rekey
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS
wpa_group_rekey=5

bss=wlan5-2
bssid=02:00:00:00:05:02
ssid=joind-sec-mfp-rekey
wpa=2
wpa_key_mgmt=WPA-PSK WPA-PSK-SHA256
ieee80211w=1
rsn_pairwise=CCMP
wpa_passphrase=$PASS
wpa_group_rekey=5
EOF
sec_ns hostapd -B -P "$WORK/hostapd-sec.pid" -f "$SEC_HOSTAPD_LOG" "$WORK/hostapd-sec.conf" ||
	wifi_fail "hostapd sec did not start"
wifi_poll 30 "hostapd sec beaconing" sec_ap_up
wifi_step "security APs up on $SEC_PHY (wlan5, channel 3) in netns $SEC_NS"

# ----------------------------------------------- PSK-SHA256 + MFP required ---
sec_connect joind-sec-sha256
ap_sta=$(sec_ns iw dev wlan5 station get "$SEC_ADDR") || wifi_fail "sha256: AP has no station"
grep -qE 'authorized:\s*yes' <<<"$ap_sta" || wifi_fail "sha256: AP: station not authorized: $ap_sta"
grep -qE 'MFP:\s*yes' <<<"$ap_sta" || wifi_fail "sha256: AP: station without MFP: $ap_sta"
sta=$(iw dev wlan2 station get 02:00:00:00:05:00)
grep -qE 'authorized:\s*yes' <<<"$sta" || wifi_fail "sha256: wlan2: port not authorized"
grep -q 'handshake with 02:00:00:00:05:00: PSK-SHA256, pairwise CCMP-128, group CCMP-128, management BIP-CMAC-128' \
	"$JOIND_LOG" || wifi_fail "sha256: no PSK-SHA256 handshake with BIP-CMAC-128 in the log"
grep -q 'wlan2: installing the group management key (IGTK), key ID [45]' "$JOIND_LOG" ||
	wifi_fail "sha256: no IGTK installed"
grep -E "wlan2: (SET_KEY|NEW_KEY): " "$JOIND_LOG" && wifi_fail "sha256: a key command failed"
check "PSK-SHA256 + MFP required: connected; AP: authorized, MFP yes; IGTK installed; iw: $(iw dev wlan2 link | head -n 1)"
sec_disconnect joind-sec-sha256

# ------------------------------------------------------------- group rekeys ---
sec_rekey_case joind-sec-rekey wlan5-1 0
sec_rekey_case joind-sec-mfp-rekey wlan5-2 1

# ------------------------------------------------- EAPOL over AF_PACKET ---
wifi_restart_joind_with ControlPortOverNL80211=false
afp0=$(log_count 'wlan2: EAPOL over AF_PACKET \(main.conf: ControlPortOverNL80211=false\)')
sec_connect joind-sec-rekey
(($(log_count 'wlan2: EAPOL over AF_PACKET \(main.conf: ControlPortOverNL80211=false\)') > afp0)) ||
	wifi_fail "AF_PACKET: the log does not show the AF_PACKET path"
grep -qE 'authorized:\s*yes' <<<"$(iw dev wlan2 station get 02:00:00:00:05:01)" ||
	wifi_fail "AF_PACKET: wlan2: port not authorized"
grep -qE 'authorized:\s*yes' <<<"$(sec_ns iw dev wlan5-1 station get "$SEC_ADDR")" ||
	wifi_fail "AF_PACKET: AP: station not authorized"
gtk0=$(log_count 'wlan2: rekey: new group key \(GTK\)')
sec_ping wlan5-1 50
gtk1=$(log_count 'wlan2: rekey: new group key \(GTK\)')
((gtk1 > gtk0)) || wifi_fail "AF_PACKET: no group rekey over the AF_PACKET socket"
check "EAPOL over AF_PACKET (ControlPortOverNL80211=false): connected, keys in, authorized; $((gtk1 - gtk0)) rekeys over the socket; ping: $SEC_PING"
sec_disconnect joind-sec-rekey
grep -q 'EAPOL socket on interface [0-9]* closed' "$JOIND_LOG" || wifi_fail "AF_PACKET: socket not closed"
wifi_restart_joind_default

# ------------------------------------------------------------------ cleanup ---
wifi_stop_hostapd sec
sec_ns iw phy "$SEC_PHY" set netns 1 || wifi_fail "cannot move $SEC_PHY back"
ip netns del "$SEC_NS"
unset -f sec_ns sec_ap_up sec_ssid_profile sec_connect sec_disconnect sec_ping \
	sec_hostapd_count sec_rekey_case
