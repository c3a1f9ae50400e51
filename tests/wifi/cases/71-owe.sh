# shellcheck shell=bash
# tests/wifi/cases/71-owe.sh - sourced by run-all.sh (see the comment above
# its loop): OWE (RFC 8110) and the transition rules of an open network,
# asserted on D-Bus (Type, Security, errors), on the diagnostics'
# connection (security, owe_group, mfp), on the profile and on traffic.
#   - an OWE network (wpa_key_mgmt=OWE, MFP required): Type open, Security
#     owe; joind connects with group 19; a ping across the link
#   - an OWE transition-mode pair: an open BSS naming a hidden OWE BSS that
#     says Transition Disable (Enhanced Open): one open network listed
#     (Security owe), none for the hidden SSID; Connect() joins the OWE BSS;
#     a ping; the profile keeps DisabledTransitionModes=open
#   - a plain open network whose profile says DisabledTransitionModes=open:
#     Connect() refused (NotFound: no access point of it that the rule
#     allows), nothing associated
# hostapd 2.10 on an emulated CPU answers an OWE association later than the
# kernel waits (a tenth of a second), takes the kernel's repeated requests
# for new associations and keys with the last one's Diffie-Hellman answer,
# which joind never reads: joind associates again with a new key pair
# (connect.c), or ends a link whose handshake the access point started over
# with that key and reconnects (keying.c). The ping waits for that.
# The access points run on wlan5 (channel 4; its phy in a namespace of its
# own, so that the ping crosses the air).

OWE_NS=joind-owe
OWE_PHY=$(cat /sys/class/net/wlan5/phy80211/name)
OWE_HIDDEN_BSSID=02:00:00:00:05:02

owe_ns() { ip netns exec "$OWE_NS" "$@"; }

# shellcheck disable=SC2317 # called through wifi_poll
owe_ap_up() {
	local info
	for i in wlan5 wlan5-1 wlan5-2; do
		info=$(owe_ns iw dev "$i" info 2>/dev/null) || return 1
		grep -q "type AP" <<<"$info" || return 1
	done
}

# Connect(), asked again (twice at most) when it fails with Failed: the
# access point's Diffie-Hellman work in the association, on an emulated
# CPU shared with other VMs, can outlast what the kernel waits for its
# answer even after joind's own retries. OWE_TRIES says how many it took.
owe_connect_call() {
	local t out
	t=$(wifi_now)
	for OWE_TRIES in 1 2 3; do
		# A scan under way takes the radio off channel at times.
		jw -t 20 object net.joind.Station1 Scanning=false >/dev/null || wifi_fail "still scanning"
		out=$(jcall --object-path "$1" --method net.joind.Network1.Connect 2>&1) && break
		grep -q 'net.joind.Error.Failed' <<<"$out" || wifi_fail "Connect() $2: $out"
		[[ $OWE_TRIES -lt 3 ]] || wifi_fail "Connect() $2 failed 3 times: $out"
		jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
			wifi_fail "$2: not disconnected after a failed Connect()"
	done
	TOOK=$(wifi_since "$t")
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$1" >/dev/null ||
		wifi_fail "$2: State is not connected / ConnectedNetwork is not $1"
}

# owe_connect NAME GROUP BSSID AP-INTERFACE: Connect(), a ping (the link
# carries traffic), then the link's facts.
owe_connect() {
	local path conn sta
	path=$(jw -t 40 object "$NET" "Device=$DEV" "Name=$1" Type=open Security=owe) ||
		wifi_fail "$1 not listed as Type open, Security owe"
	owe_connect_call "$path" "$1"
	owe_ping "$4"
	jw -t 20 object net.joind.Station1 State=connected "ConnectedNetwork=$path" >/dev/null ||
		wifi_fail "$1: not connected after the ping"
	conn=$(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection') ||
		wifi_fail "$1: no connection in the diagnostics"
	jq -e ".security == \"owe\" and .owe_group == $2 and .mfp and .bssid == \"$3\"" \
		<<<"$conn" >/dev/null || wifi_fail "$1: want OWE group $2 via $3, MFP: $conn"
	# The access point's station entry (iw's link needs the scan table's).
	sta=$(iw dev wlan2 station dump)
	grep -qi "station $3" <<<"$sta" || wifi_fail "$1: no station entry for $3: $sta"
	grep -qE 'authorized:\s*yes' <<<"$sta" || wifi_fail "$1: port not authorized: $sta"
}

owe_disconnect() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "not disconnected after Disconnect()"
	rm -f "$WORK/state/$1.open"
}

owe_ping() {
	local out got
	owe_ns ip addr add 10.9.8.1/24 dev "$1" || wifi_fail "ip addr add on $1"
	ip addr add 10.9.8.2/24 dev wlan2 || wifi_fail "ip addr add on wlan2"
	# -w: until five answers came; a link lost to the access point's
	# restart comes back through autoconnect meanwhile.
	out=$(owe_ns ping -n -q -c 5 -i 0.2 -w 20 10.9.8.2 2>&1) || true
	owe_ns ip addr del 10.9.8.1/24 dev "$1"
	ip addr del 10.9.8.2/24 dev wlan2
	OWE_PING=$(grep 'packets transmitted' <<<"$out") || true
	# Five answers at least: late ones for requests sent while a lost
	# link came back arrive together and count too.
	got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' <<<"$OWE_PING")
	((${got:-0} >= 5)) || wifi_fail "ping via $1: ${OWE_PING:-$out}"
}

# A plain open network whose profile disables the open transition mode:
# Connect() is refused before anything is sent.
owe_refused_open() {
	local path out
	path=$(jw -t 40 object "$NET" "Device=$DEV" Name=joind-open Type=open Security=open) ||
		wifi_fail "joind-open not listed as Type open, Security open"
	printf '[Settings]\nDisabledTransitionModes=open\n' >"$WORK/state/joind-open.open"
	jw -t 10 object net.joind.KnownNetwork1 Name=joind-open Type=open >/dev/null ||
		wifi_fail "the joind-open profile was not loaded"
	out=$(jcall --object-path "$path" --method net.joind.Network1.Connect 2>&1) &&
		wifi_fail "Connect() joind-open succeeded although its profile disables open"
	grep -q 'net.joind.Error.NotFound' <<<"$out" || wifi_fail "Connect() joind-open: $out"
	jw -t 5 object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "not disconnected after the refusal"
	rm -f "$WORK/state/joind-open.open"
	OWE_REFUSAL=$(sed -n "s/.*NotFound: //p" <<<"$out")
}

# ----------------------------------------------------------- access points ---
ip netns add "$OWE_NS"
iw phy "$OWE_PHY" set netns name "$OWE_NS" || wifi_fail "cannot move $OWE_PHY into $OWE_NS"
cat >"$WORK/hostapd-owe.conf" <<EOF2
ctrl_interface=/run/hostapd-owe
interface=wlan5
driver=nl80211
hw_mode=g
channel=4
ssid=joind-owe
wpa=2
wpa_key_mgmt=OWE
ieee80211w=2
rsn_pairwise=CCMP

bss=wlan5-1
bssid=02:00:00:00:05:01
ssid=joind-owe-open
owe_transition_ifname=wlan5-2

bss=wlan5-2
bssid=$OWE_HIDDEN_BSSID
ssid=joind-owe-hidden
ignore_broadcast_ssid=1
wpa=2
wpa_key_mgmt=OWE
ieee80211w=2
rsn_pairwise=CCMP
transition_disable=0x08
owe_transition_ifname=wlan5-1
EOF2
owe_ns hostapd -B -P "$WORK/hostapd-owe.pid" -f "$LOGDIR/hostapd-owe.log" "$WORK/hostapd-owe.conf" ||
	wifi_fail "hostapd owe did not start"
wifi_poll 30 "hostapd owe beaconing" owe_ap_up
wifi_step "OWE APs up on $OWE_PHY (wlan5, channel 4) in netns $OWE_NS"

# ------------------------------------------------------------------ OWE ---
owe_connect joind-owe 19 "$(owe_ns cat /sys/class/net/wlan5/address)" wlan5
check "OWE network: Type open, Security owe; connected with group 19 in ${TOOK}s (Connect() calls: $OWE_TRIES), MFP; ping: $OWE_PING"
owe_disconnect joind-owe

# ------------------------------------------------------- transition mode ---
owe_connect joind-owe-open 19 "$OWE_HIDDEN_BSSID" wlan5-2
jw -t 1 count 0 "$NET" "Device=$DEV" Name=joind-owe-hidden >/dev/null ||
	wifi_fail "the hidden OWE BSS is listed as a network of its own"
jw -t 1 count 1 "$NET" "Device=$DEV" Name=joind-owe-open >/dev/null ||
	wifi_fail "joind-owe-open is not listed once"
grep -qx 'DisabledTransitionModes=open' "$WORK/state/joind-owe-open.open" ||
	wifi_fail "joind-owe-open.open lacks DisabledTransitionModes=open: $(cat "$WORK/state/joind-owe-open.open")"
check "OWE transition pair: one open network (Security owe), joined through the hidden OWE BSS in ${TOOK}s (Connect() calls: $OWE_TRIES); ping: $OWE_PING; Transition Disable kept: DisabledTransitionModes=open"
owe_disconnect joind-owe-open

# ------------------------------------------------- open transition disabled ---
owe_refused_open
check "joind-open with DisabledTransitionModes=open: Connect() refused (NotFound: $OWE_REFUSAL)"

# ------------------------------------------------------------------ cleanup ---
wifi_stop_hostapd owe
owe_ns iw phy "$OWE_PHY" set netns 1 || wifi_fail "cannot move $OWE_PHY back"
ip netns del "$OWE_NS"
unset -f owe_ns owe_ap_up owe_connect_call owe_connect owe_disconnect owe_ping owe_refused_open
