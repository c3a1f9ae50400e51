# shellcheck shell=bash
# tests/wifi/cases/70-sae.sh - sourced by run-all.sh (see the comment above
# its loop): WPA3-Personal (SAE) through joind's SME, asserted on the
# diagnostics' connection (security, sae_group, sae_h2e) and on traffic.
#   - hunting and pecking (sae_pwe=0), group 19; a ping across the link
#   - hash-to-element only (sae_pwe=1) with sae_groups=20: the access point
#     refuses 19 (status 77), joind offers 20
#   - both (sae_pwe=2) with sae_groups=21: joind uses H2E, group 21
#   - a transition network (WPA-PSK SAE): one psk network, joined with SAE
#   - a wrong passphrase: AuthenticationFailed (the fixture's joind-sae)
# The access points run on wlan5 (channel 3; its phy in a namespace of its
# own, so that the ping crosses the air). Profiles say AutoConnect=false.

SAE_NS=joind-sae
SAE_PHY=$(cat /sys/class/net/wlan5/phy80211/name)

sae_ns() { ip netns exec "$SAE_NS" "$@"; }

# shellcheck disable=SC2317 # called through wifi_poll
sae_ap_up() {
	local info
	for i in wlan5 wlan5-1 wlan5-2 wlan5-3; do
		info=$(sae_ns iw dev "$i" info 2>/dev/null) || return 1
		grep -q "type AP" <<<"$info" && grep -q "ssid" <<<"$info" || return 1
	done
}

sae_profile() {
	(
		umask 077
		printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$2" \
			>"$WORK/state/$1.psk"
	)
	jw -t 10 object $NET "Device=$DEV" "Name=$1" 'KnownNetwork!=/' >/dev/null ||
		wifi_fail "$1: the profile was not picked up"
}

# sae_connect SSID GROUP H2E(true|false): Connect() from the profile, then
# the link's SAE facts from the diagnostics.
sae_connect() {
	local path conn
	path=$(jw -t 40 object $NET "Device=$DEV" "Name=$1" Type=psk) || wifi_fail "$1 not listed as psk"
	sae_profile "$1" "$PASS"
	wifi_connect "$path" "$1"
	conn=$(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection') ||
		wifi_fail "$1: no connection in the diagnostics"
	jq -e --argjson h2e "$3" '.security == (if $h2e then "sae-h2e" else "sae" end)' \
		<<<"$conn" >/dev/null || wifi_fail "$1: want security sae(-h2e): $conn"
	jq -e ".sae_group == $2 and .sae_h2e == $3 and .mfp" <<<"$conn" \
		>/dev/null || wifi_fail "$1: want SAE group $2, H2E $3, MFP: $conn"
	grep -qE 'authorized:\s*yes' <<<"$(iw dev wlan2 station get "$(iw dev wlan2 link |
		sed -n 's/^Connected to \([0-9a-f:]*\).*/\1/p')")" || wifi_fail "$1: port not authorized"
}

sae_disconnect() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "not disconnected after Disconnect()"
	rm -f "$WORK/state/$1.psk"
}

sae_ping() {
	local out
	sae_ns ip addr add 10.9.7.1/24 dev "$1" || wifi_fail "ip addr add on $1"
	ip addr add 10.9.7.2/24 dev wlan2 || wifi_fail "ip addr add on wlan2"
	out=$(sae_ns ping -n -q -c 5 -i 0.2 -w 15 10.9.7.2 2>&1) || true
	sae_ns ip addr del 10.9.7.1/24 dev "$1"
	ip addr del 10.9.7.2/24 dev wlan2
	SAE_PING=$(grep 'packets transmitted' <<<"$out") || true
	grep -q " 5 received, 0% packet loss" <<<"$SAE_PING" || wifi_fail "ping via $1: ${SAE_PING:-$out}"
}

# ----------------------------------------------------------- access points ---
ip netns add "$SAE_NS"
iw phy "$SAE_PHY" set netns name "$SAE_NS" || wifi_fail "cannot move $SAE_PHY into $SAE_NS"
cat >"$WORK/hostapd-sae.conf" <<EOF2
ctrl_interface=/run/hostapd-sae
interface=wlan5
driver=nl80211
hw_mode=g
channel=3
ssid=joind-sae-hnp
wpa=2
wpa_key_mgmt=SAE
ieee80211w=2
rsn_pairwise=CCMP
sae_password=$PASS
sae_pwe=0
sae_groups=19 20 21

bss=wlan5-1
bssid=02:00:00:00:05:01
ssid=joind-sae-h2e
wpa=2
wpa_key_mgmt=SAE
ieee80211w=2
rsn_pairwise=CCMP
sae_password=$PASS
sae_pwe=1
sae_groups=20

bss=wlan5-2
bssid=02:00:00:00:05:02
ssid=joind-sae-both
wpa=2
wpa_key_mgmt=SAE
ieee80211w=2
rsn_pairwise=CCMP
sae_password=$PASS
sae_pwe=2
sae_groups=21

bss=wlan5-3
bssid=02:00:00:00:05:03
ssid=joind-sae-mixed
wpa=2
wpa_key_mgmt=WPA-PSK SAE
ieee80211w=1
rsn_pairwise=CCMP
wpa_passphrase=$PASS
EOF2
sae_ns hostapd -B -P "$WORK/hostapd-sae.pid" -f "$LOGDIR/hostapd-sae.log" "$WORK/hostapd-sae.conf" ||
	wifi_fail "hostapd sae did not start"
wifi_poll 30 "hostapd sae beaconing" sae_ap_up
wifi_step "SAE APs up on $SAE_PHY (wlan5, channel 3) in netns $SAE_NS"

# ------------------------------------------------------------------ SAE ---
sae_connect joind-sae-hnp 19 false
sae_ping wlan5
check "SAE hunting and pecking, group 19: connected in ${TOOK}s, MFP; ping: $SAE_PING"
sae_disconnect joind-sae-hnp

sae_connect joind-sae-h2e 20 true
check "SAE hash-to-element (sae_pwe=1), group 20 after the AP refused 19: connected in ${TOOK}s"
sae_disconnect joind-sae-h2e

sae_connect joind-sae-both 21 true
check "SAE with sae_pwe=2: hash-to-element, group 21: connected in ${TOOK}s"
sae_disconnect joind-sae-both

jw -t 40 object $NET "Device=$DEV" Name=joind-sae-mixed Type=psk Security=wpa2-wpa3 >/dev/null ||
	wifi_fail "joind-sae-mixed: not Type psk, Security wpa2-wpa3"
jw -t 5 object $NET "Device=$DEV" Name=joind-sae-h2e Security=wpa3-sae >/dev/null ||
	wifi_fail "joind-sae-h2e: Security is not wpa3-sae"
sae_connect joind-sae-mixed 19 false
check "transition network (WPA-PSK SAE): Type psk, Security wpa2-wpa3, joined with SAE in ${TOOK}s"
sae_disconnect joind-sae-mixed

# ------------------------------------------------------- wrong passphrase ---
path=$(jw -t 40 object $NET "Device=$DEV" Name=joind-sae Type=psk) || wifi_fail "joind-sae not listed"
sae_profile joind-sae not-the-passphrase
out=$(jcall --object-path "$path" --method $NET.Connect 2>&1) &&
	wifi_fail "Connect() with a wrong passphrase succeeded"
grep -q 'net.joind.Error.AuthenticationFailed' <<<"$out" ||
	wifi_fail "wrong passphrase: want AuthenticationFailed, got: $out"
jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "wrong passphrase: the station is not disconnected"
rm -f "$WORK/state/joind-sae.psk"
check "wrong passphrase: ${out#*AuthenticationFailed: }"

# ------------------------------------------------------------------ cleanup ---
wifi_stop_hostapd sae
sae_ns iw phy "$SAE_PHY" set netns 1 || wifi_fail "cannot move $SAE_PHY back"
ip netns del "$SAE_NS"
unset -f sae_ns sae_ap_up sae_profile sae_connect sae_disconnect sae_ping
