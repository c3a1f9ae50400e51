# shellcheck shell=bash
# tests/wifi/ft-lib.sh - what the FT-SAE and FT-802.1X cases share
# (sourced after roam-lib.sh): hostapd's view of the station, the roam,
# and the path between the two access points that fast transition needs:
# the
# target gets the station's PMK-R1 from the first access point over RRB
# frames (ethertype 0x890d) on the bridge hostapd's bridge= names. Two
# hostapd processes on one bridge do not hear each other: a frame one
# sends through the bridge goes out of the bridge's ports (over the air,
# where it is dropped), never up to the other's socket on the same
# bridge. So each access point has a bridge of its own, br-ft1 and
# br-ft2, and a veth pair joins the two: what one sends crosses the pair
# and comes up on the other bridge.
#   FT_RRB_EXEC  a prefix for the commands ("ip netns exec NS" when the
#                access points run in a namespace; empty otherwise)

FT_RRB_EXEC=${FT_RRB_EXEC-}
FT_RRB_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

ft_rrb_up() {
	local l
	ft_rrb_down
	$FT_RRB_EXEC ip link add br-ft1 type bridge || wifi_fail "cannot make bridge br-ft1"
	$FT_RRB_EXEC ip link add br-ft2 type bridge || wifi_fail "cannot make bridge br-ft2"
	$FT_RRB_EXEC ip link add vft1 type veth peer name vft2 || wifi_fail "cannot make veth vft1"
	$FT_RRB_EXEC ip link set vft1 master br-ft1
	$FT_RRB_EXEC ip link set vft2 master br-ft2
	for l in br-ft1 br-ft2 vft1 vft2; do
		$FT_RRB_EXEC ip link set "$l" up || wifi_fail "cannot bring $l up"
	done
}

ft_rrb_down() {
	$FT_RRB_EXEC ip link del vft1 2>/dev/null || true
	$FT_RRB_EXEC ip link del br-ft1 2>/dev/null || true
	$FT_RRB_EXEC ip link del br-ft2 2>/dev/null || true
}

# ft_ap_lines N OWN-IFACE CHANNEL OTHER-IFACE SSID: access point N's (1
# or 2) hostapd lines but its AKMs and their secrets: WPA2 with CCMP,
# then the FT key holder's: mobility domain a1b2, its R0KH-ID
# apN.joind.test and R1KH-ID its own address, the other's address named
# in r0kh and r1kh with the shared key, the PMK-R1 pushed at once, its
# bridge.
ft_ap_lines() {
	local own other other_n=$((3 - $1))
	own=$($FT_RRB_EXEC cat "/sys/class/net/$2/address")
	other=$($FT_RRB_EXEC cat "/sys/class/net/$4/address")
	printf 'interface=%s\ndriver=nl80211\nhw_mode=g\nchannel=%s\nssid=%s\nwpa=2\nrsn_pairwise=CCMP\n' \
		"$2" "$3" "$5"
	cat <<EOF2
bridge=br-ft$1
mobility_domain=a1b2
ft_over_ds=0
nas_identifier=ap$1.joind.test
r1_key_holder=${own//:/}
r0kh=$other ap$other_n.joind.test $FT_RRB_KEY
r1kh=$other $other $FT_RRB_KEY
pmk_r1_push=1
EOF2
}

# ft_sta_line NAME IFACE KEY: KEY= of hostapd's view of the station (its
# sta command), e.g. sae_group.
ft_sta_line() { roam_cli "$1" "$2" sta "$ROAM_STA" | sed -n "s/^$3=//p"; }

# ft_check_akm NAME IFACE AKM: hostapd NAME lists the station authorized
# with AKM (its AKMSuiteSelector, e.g. 00-0f-ac-9).
ft_check_akm() {
	local sta akm
	sta=$(roam_cli "$1" "$2" sta "$ROAM_STA") || wifi_fail "hostapd_cli sta on $2"
	akm=$(sed -n 's/^AKMSuiteSelector=//p' <<<"$sta")
	[[ $akm == "$3" ]] || wifi_fail "$1 lists the station with AKM '$akm', not $3"
	grep -q '^flags=.*\[AUTHORIZED\]' <<<"$sta" || wifi_fail "$1 does not list the station authorized"
}

# The 4-way handshakes hostapd NAME completed, from its log (one line
# each; none for a fast transition).
ft_4way_count() { grep -c 'pairwise key handshake completed' "$LOGDIR/hostapd-$1.log" || true; }

# ft_roam: joinctl's manual roam to ROAM_TO, watched (roam-lib.sh). A
# scan may miss the target's beacon (joind then does not know it: the
# roam is refused and nothing changes): up to three scans for it.
ft_roam() {
	local i out
	jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
	roam_watch_start
	for i in 1 2 3; do
		out=$("$BUILD/client/joinctl" station wlan2 roam "$ROAM_TO_BSSID" 2>&1) && break
		grep -q 'NotFound' <<<"$out" && ((i < 3)) || wifi_fail "after scan $i: $out"
		jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
	done
	roam_watch_check
}

# ft_conn JQ: the connected link's diagnostics satisfy JQ.
ft_conn() { wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.connection | $1" >/dev/null; }
ft_conn_text() { wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection'; }

# ft_joined AKM WORD: after the first association, hostapd ROAM_FROM lists
# the station authorized with AKM, GetDiagnostics says WORD in mobility
# domain a1b2, and ROAM_FROM's log has the 4-way handshake (so that the
# count ft_roamed checks on ROAM_TO can tell); FT_4WAY_BEFORE is
# ROAM_TO's count.
ft_joined() {
	ft_check_akm "${ROAM_FROM[@]}" "$1"
	ft_conn ".security == \"$2\" and .mobility_domain == \"a1b2\"" ||
		wifi_fail "GetDiagnostics does not say $2 in mobility domain a1b2: $(ft_conn_text)"
	(($(ft_4way_count "${ROAM_FROM[0]}") >= 1)) ||
		wifi_fail "${ROAM_FROM[0]}'s log shows no 4-way handshake for the first association"
	FT_4WAY_BEFORE=$(ft_4way_count "${ROAM_TO[0]}")
}

# ft_roamed AKM WORD: after ft_roam, hostapd ROAM_TO lists the station
# authorized with AKM and ran no 4-way handshake with it; GetDiagnostics
# says FT over the air with WORD.
ft_roamed() {
	ft_check_akm "${ROAM_TO[@]}" "$1"
	(($(ft_4way_count "${ROAM_TO[0]}") == FT_4WAY_BEFORE)) ||
		wifi_fail "${ROAM_TO[0]} ran a 4-way handshake with the station: the roam was no fast transition"
	ft_conn ".transition == \"FT over the air\" and .security == \"$2\"" ||
		wifi_fail "GetDiagnostics does not say FT over the air with $2: $(ft_conn_text)"
}
