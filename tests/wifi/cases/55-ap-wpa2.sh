# shellcheck shell=bash
# 55-ap-wpa2.sh - the access point room (plugins/wifi/ap, driven alone by
# tests/wifi/ap-room until the D-Bus API starts it inside joind) on a radio
# of its own: WPA2-PSK on channel 6; wpa_supplicant on a second radio
# joins and pings the AP over the air; the same client with another
# passphrase is refused and the AP says why; after a group key rotation
# the AP's broadcasts (ARP) still reach the client; SIGTERM stops the BSS.

# shellcheck source=../ap-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ap-lib.sh"
ap_setup 55 1

T0=$(wifi_now)
ap_start joind-hotspot "$PASS" 6 8
grep -q '^started 2437$' "$AP_OUT" || wifi_fail "not on channel 6: $(grep '^started' "$AP_OUT")"
check "AP room started a WPA2 BSS on channel 6 in $(wifi_since "$T0") s"
ap_in ap iw dev "$APIF" info | grep -q "ssid joind-hotspot" || wifi_fail "iw shows no SSID"

T0=$(wifi_now)
ap_client 1 "ssid=\"joind-hotspot\"
key_mgmt=WPA-PSK
proto=RSN
pairwise=CCMP
group=CCMP
psk=\"$PASS\"
scan_freq=2437"
ap_client_completed 1
check "wpa_supplicant joined the AP (WPA2-PSK) in $(wifi_since "$T0") s"
wifi_poll 5 "the AP reporting the station" grep -q '^joined ' "$AP_OUT"
ap_ping 1
check "the client pings the AP over the link"

# Another passphrase: the AP drops message 2 (MIC), resends message 1 and
# refuses the station after four, naming the cause; the client never
# completes.
ap_cli 1 set_network 0 psk '"not-the-passphrase"' >/dev/null
ap_cli 1 disconnect >/dev/null
ap_cli 1 reassociate >/dev/null
wifi_poll 20 "the AP refusing the wrong passphrase" \
	grep -q "most likely has another passphrase" "$AP_OUT"
ap_cli 1 status | grep -q '^wpa_state=COMPLETED' && wifi_fail "a wrong passphrase completed"
check "a client with another passphrase is refused: $(grep -o 'refused: .*' "$AP_OUT" | tail -1)"

# Back with the right one; then a group key rotation (every 8 s): the
# AP's ARP broadcast after it still reaches the client.
ap_cli 1 set_network 0 psk "\"$PASS\"" >/dev/null
ap_cli 1 reassociate >/dev/null
ap_client_completed 1
n=$(grep -c "rotates its group key" "$AP_OUT" || true)
wifi_poll 20 "a group key rotation" sh -c "[ \$(grep -c 'rotates its group key' $AP_OUT) -gt $n ]"
wifi_poll 10 "the group handshake" grep -q "group key .* acknowledged" "$AP_OUT"
ap_in ap ip neigh flush dev "$APIF"
ap_in ap ping -c 3 -W 3 192.168.55.2 >/dev/null || wifi_fail "no ping from the AP after the rekey"
check "after a group key rotation the AP's ARP broadcast reaches the client (ping AP -> client)"

# Both roles are joind's: the fixture's joind (station on wlan2, in the
# root namespace, on the same simulated medium) joins the AP as a second
# client while the first stays.
printf '[Security]\nPassphrase=%s\n\n[Settings]\nAutoConnect=false\n' "$PASS" \
	>"$WORK/state/joind-hotspot.psk"
hot=$(jw -t 40 object $NET "Device=$DEV" Name=joind-hotspot Type=psk) ||
	wifi_fail "joind's station does not list joind-hotspot"
wifi_connect "$hot" joind-hotspot
wifi_poll 5 "the AP reporting joind's station" grep -q "^joined $(cat /sys/class/net/wlan2/address)" "$AP_OUT"
ap_ping 1
check "joind's station joined joind's AP in $TOOK s while the first client stayed"
jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "Disconnect() failed"
wifi_poll 10 "the AP seeing joind's station leave" grep -q "^left $(cat /sys/class/net/wlan2/address)" "$AP_OUT"

ap_stop
check "the AP stops on SIGTERM (STOP_AP)"
