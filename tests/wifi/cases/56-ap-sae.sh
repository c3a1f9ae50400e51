# shellcheck shell=bash
# 56-ap-sae.sh - the access point room as a WPA3 AP (SAE responder, MFP
# required) and as a WPA2/WPA3 transition AP: wpa_supplicant joins with
# SAE hunting and pecking, then hash-to-element, and pings; on the
# transition AP an SAE client and a WPA2 client join at once, the first
# staying while the second joins, and cannot reach each other (client
# isolation).

# shellcheck source=../ap-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ap-lib.sh"
ap_setup 56 2

sae_network() {
	printf '%s\n' 'ssid="joind-wpa3-hot"' key_mgmt=SAE ieee80211w=2 proto=RSN \
		pairwise=CCMP group=CCMP "sae_password=\"$PASS\"" scan_freq=2462
}

ap_start joind-wpa3-hot "$PASS" 11 0 wpa3
check "AP room started a WPA3 (SAE) BSS on channel 11"
for pwe in 0 1; do
	T0=$(wifi_now)
	ap_client 1 "$(sae_network)" "sae_pwe=$pwe"
	ap_client_completed 1
	ap_ping 1
	how=$( ((pwe)) && echo hash-to-element || echo "hunting and pecking")
	grep "authenticated (SAE" "$AP_OUT" | tail -1 | grep -q "$how" ||
		wifi_fail "the AP's last SAE line is not $how: $(grep 'authenticated (SAE' "$AP_OUT" | tail -1)"
	check "SAE ($how) joined and pinged in $(wifi_since "$T0") s"
	kill "$(cat "$WORK/ap56-cl1.pid")"
	rm -f "$WORK/ap56-cl1.pid"
	sleep 1
done
grep -q "group 19" "$AP_OUT" || wifi_fail "no group 19 exchange in the AP's log"
ap_stop

ap_start joind-wpa3-hot "$PASS" 11 0 wpa2-wpa3
ap_client 1 "$(sae_network)"
ap_client_completed 1
ap_client 2 "ssid=\"joind-wpa3-hot\"
key_mgmt=WPA-PSK
proto=RSN
pairwise=CCMP
group=CCMP
psk=\"$PASS\"
scan_freq=2462"
ap_client_completed 2
ap_ping 2
ap_ping 1
ap_cli 1 status | grep -q '^key_mgmt=SAE' || wifi_fail "client 1 is not on SAE"
ap_cli 2 status | grep -q '^key_mgmt=WPA2-PSK' || wifi_fail "client 2 is not on WPA2-PSK"
check "transition AP: an SAE and a WPA2-PSK client joined together and both ping"
grep -q "keeps its stations apart" "$AP_OUT" || wifi_fail "no client isolation: $(grep 'stations apart' "$AP_OUT")"
ap_in 1 ping -c 2 -W 2 192.168.56.3 >/dev/null && wifi_fail "client 1 reached client 2 through the AP"
check "client isolation: the two clients do not reach each other"
ap_stop
