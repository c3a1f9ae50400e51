# shellcheck shell=bash
# tests/wifi/ft-lib.sh - what the fast transition cases (60-ft-*, 64-ft-sae,
# 65-ft-8021x*) and bench/roam share, sourced after roam-lib.sh (bench/roam
# uses the RRB path and the key holders only): the access points, hostapd's
# view of the station, the join and the roam.
#
# FT-PSK (60-ft-*): an FT-PSK only network (FT_SSID, default joind-ft;
# mobility domain a1b2) from wlan4 (channel 6) and wlan5 (channel 11). A
# case whose access points differ from the others' in what they advertise
# takes its own FT_SSID: the kernel's scan table may still hold an earlier
# case's beacons for the same BSSID and SSID.
#
# The path between the two access points that FT-SAE, FT-802.1X and FT
# over the DS with two processes need: the target gets the station's
# PMK-R1 from the first access point over RRB frames (ethertype 0x890d)
# on the bridge hostapd's bridge= names. Two hostapd processes on one
# bridge do not hear each other: a frame one sends through the bridge
# goes out of the bridge's ports (over the air, where it is dropped),
# never up to the other's socket on the same bridge. So each access point
# has a bridge of its own, br-ft1 and br-ft2, and a veth pair joins the
# two: what one sends crosses the pair and comes up on the other bridge.
#   FT_RRB_EXEC  a prefix for the commands ("ip netns exec NS" when the
#                access points run in a namespace; empty otherwise)

FT_RRB_EXEC=${FT_RRB_EXEC-}
FT_RRB_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

# ---- the access points ------------------------------------------------------------

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

# ft_conf NAME IFACE CHANNEL R1KH [CONFIG-LINE...]: a hostapd configuration
# for the FT-PSK network. FT_GENERATE_LOCAL (default 1) is
# ft_psk_generate_local: 1 lets each access point derive the PMK-R1 from
# the passphrase itself, 0 makes it ask the R0KH over RRB. FT_OVER_DS
# (default 0) is ft_over_ds, the MDE's "FT over the DS" bit. The
# CONFIG-LINEs follow.
ft_conf() {
	cat <<EOF2
interface=$2
driver=nl80211
hw_mode=g
channel=$3
ssid=${FT_SSID:-joind-ft}
wpa=2
wpa_key_mgmt=FT-PSK
rsn_pairwise=CCMP
wpa_passphrase=$PASS
mobility_domain=a1b2
ft_psk_generate_local=${FT_GENERATE_LOCAL:-1}
ft_over_ds=${FT_OVER_DS:-0}
nas_identifier=$1.joind.test
r1_key_holder=$4
EOF2
	printf '%s\n' "${@:5}"
}
# ft_ap NAME IFACE CHANNEL R1KH [CONFIG-LINE...]: a hostapd of its own.
ft_ap() { wifi_start_hostapd "$1" < <(ft_conf "$@"); }

# ---- hostapd's view of the station ------------------------------------------------

# ft_sta_line NAME IFACE KEY: KEY= of hostapd's view of the station (its
# sta command), e.g. sae_group or AKMSuiteSelector ("00-0f-ac-4").
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

# ft_4way_count NAME IFACE: the 4-way handshakes the access point completed,
# from its log (hostapd logs "IFACE: STA ... pairwise key handshake
# completed" for each one, none for FT); FT_LOG names the log of a hostapd
# that runs both access points.
ft_4way_count() {
	grep -c "^$2: .*pairwise key handshake completed" "$LOGDIR/hostapd-${FT_LOG:-$1}.log" || true
}

# ---- joind's view ------------------------------------------------------------------

# ft_conn JQ: the connected link's diagnostics (JQ's value printed; false
# or null fails).
ft_conn() { wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.connection | $1"; }
# The roamer's record of its moves in GetDiagnostics (.last: the newest
# first).
ft_roams() { wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.roams | $1"; }

# ---- the join and the roam ---------------------------------------------------------

# ft_joined AKM WORD: after the first association, hostapd ROAM_FROM lists
# the station authorized with AKM, GetDiagnostics says WORD in mobility
# domain a1b2, and ROAM_FROM's log has the 4-way handshake (so that the
# count ft_roamed checks on ROAM_TO can tell).
ft_joined() {
	ft_check_akm "${ROAM_FROM[@]}" "$1"
	ft_conn ".security == \"$2\" and .mobility_domain == \"a1b2\"" >/dev/null ||
		wifi_fail "GetDiagnostics does not say $2 in mobility domain a1b2: $(ft_conn .)"
	(($(ft_4way_count "${ROAM_FROM[@]}") >= 1)) ||
		wifi_fail "${ROAM_FROM[0]}'s log shows no 4-way handshake for the first association"
}

# ft_join: the FT-PSK network beaconing from ft1 (wlan4) and ft2 (wlan5),
# already started by the case; joind joins it from a dropped profile. Sets
# ROAM_NET, ROAM_STA, ROAM_FROM, ROAM_TO and ROAM_TO_BSSID as roam_setup
# does, and checks hostapd's and GetDiagnostics' view of FT-PSK.
ft_join() {
	local ssid=${FT_SSID:-joind-ft}
	wifi_step "$ssid (FT-PSK only, mobility domain a1b2) beaconing on wlan4 and wlan5"
	# Found before it is known, so that autoconnect does not race the scan.
	jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
	jw -t 40 count 1 $NET "Device=$DEV" Name="$ssid" Type=psk >/dev/null ||
		wifi_fail "$ssid not listed as a psk network"
	printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/$ssid.psk"
	ROAM_NET=$(jw -t 40 count 1 $NET "Device=$DEV" Name="$ssid" Type=psk 'KnownNetwork!=/') ||
		wifi_fail "$ssid not listed as a known psk network"
	wifi_connect "$ROAM_NET" "$ssid"
	ROAM_STA=$(cat /sys/class/net/wlan2/address)
	roam_find_sta ft1 wlan4 ft2 wlan5
	ft_joined 00-0f-ac-4 ft-psk
	check "FT-only $ssid joined through ${ROAM_FROM[1]} in $TOOK s: hostapd sees FT-PSK, diagnostics ft-psk, a1b2"
}

# ft_roam: joinctl's manual roam to ROAM_TO, watched (roam-lib.sh): the
# station ends on it, never disconnected on the way. A scan first, so
# that the target was heard lately (a case first in its boot may have
# scanned before the second access point beaconed); one may still miss
# its beacon (joind then does not know it: the roam is refused and
# nothing changes): up to three scans for it. Sets FT_4WAY, the 4-way
# handshakes the target ran meanwhile.
ft_roam() {
	local i out before
	before=$(ft_4way_count "${ROAM_TO[@]}")
	for i in 1 2 3; do
		jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
		jw -t 30 object net.joind.Station1 Scanning=false >/dev/null || wifi_fail "still scanning"
		((i > 1)) || roam_watch_start
		out=$("$BUILD/client/joinctl" station wlan2 roam "$ROAM_TO_BSSID" 2>&1) && break
		grep -q 'NotFound' <<<"$out" && ((i < 3)) || wifi_fail "after scan $i: $out"
	done
	roam_watch_check
	FT_4WAY=$(($(ft_4way_count "${ROAM_TO[@]}") - before))
}

# ft_roamed AKM WORD: after ft_roam, hostapd ROAM_TO lists the station
# authorized with AKM and ran no 4-way handshake with it; GetDiagnostics
# says FT over the air with WORD.
ft_roamed() {
	ft_check_akm "${ROAM_TO[@]}" "$1"
	((FT_4WAY == 0)) ||
		wifi_fail "${ROAM_TO[0]} ran a 4-way handshake with the station: the roam was no fast transition"
	ft_conn ".transition == \"FT over the air\" and .security == \"$2\"" >/dev/null ||
		wifi_fail "GetDiagnostics does not say FT over the air with $2: $(ft_conn .)"
}

ft_teardown() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null || wifi_fail "Disconnect()"
	wifi_stop_hostapd ft1
	wifi_stop_hostapd ft2
	rm -f "$WORK/state/${FT_SSID:-joind-ft}.psk"
}
