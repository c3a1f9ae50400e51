# shellcheck shell=bash
# ft-roam-lib.sh - what the FT-PSK cases (60-ft-*) share, sourced by them
# after roam-lib.sh: an FT-PSK only network (FT_SSID, default joind-ft;
# mobility domain a1b2) from wlan4 (channel 6) and wlan5 (channel 11),
# joined with an initial mobility domain association, and hostapd's view of
# the station. A case whose access points differ from the others' in what
# they advertise takes its own FT_SSID: the kernel's scan table may still
# hold an earlier case's beacons for the same BSSID and SSID.

# ft_conf NAME IFACE CHANNEL R1KH [CONFIG-LINE...]: a hostapd configuration
# for the network. FT_GENERATE_LOCAL (default 1) is ft_psk_generate_local:
# 1 lets each access point derive the PMK-R1 from the passphrase itself, 0
# makes it ask the R0KH over RRB. FT_OVER_DS (default 0) is ft_over_ds,
# the MDE's "FT over the DS" bit. The CONFIG-LINEs follow.
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
# AKMSuiteSelector of the station in hostapd's table ("00-0f-ac-4").
ft_sta_akm() { roam_cli "$1" "$2" sta "$ROAM_STA" | sed -n 's/^AKMSuiteSelector=//p'; }
# ft_4way_count NAME IFACE: the 4-way handshakes the access point completed,
# from its log (hostapd logs "IFACE: STA ... pairwise key handshake
# completed" for each one, none for FT); FT_LOG names the log of a hostapd
# that runs both access points.
ft_4way_count() {
	grep -c "^$2: .*pairwise key handshake completed" "$LOGDIR/hostapd-${FT_LOG:-$1}.log" || true
}
ft_conn() { wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.connection | $1"; }
# The roamer's record of its moves in GetDiagnostics (.last: the newest
# first).
ft_roams() { wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.roams | $1"; }

# ft_join: joind-ft beaconing from ft1 (wlan4) and ft2 (wlan5), already
# started by the case; joind joins it from a dropped profile. Sets
# ROAM_NET, ROAM_STA, ROAM_FROM, ROAM_TO and ROAM_TO_BSSID as roam_setup
# does, and checks hostapd's and GetDiagnostics' view of FT-PSK.
ft_join() {
	local ssid=${FT_SSID:-joind-ft} akm
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
	akm=$(ft_sta_akm "${ROAM_FROM[@]}")
	[[ $akm == 00-0f-ac-4 ]] || wifi_fail "${ROAM_FROM[0]} lists the station with AKM '$akm', not FT-PSK"
	ft_conn '.security == "ft-psk" and .mobility_domain == "a1b2"' >/dev/null ||
		wifi_fail "GetDiagnostics does not say ft-psk in mobility domain a1b2: $(ft_conn .)"
	# The 4-way handshake counts can tell: the initial association's is in
	# the log.
	(($(ft_4way_count "${ROAM_FROM[@]}") >= 1)) ||
		wifi_fail "${ROAM_FROM[0]}'s log shows no 4-way handshake for the initial association"
	check "FT-only $ssid joined through ${ROAM_FROM[1]} in $TOOK s: hostapd sees FT-PSK, diagnostics ft-psk, a1b2"
}

# ft_roam_to_target: a manual roam to ROAM_TO, watched (roam-lib.sh): the
# station ends on it, authorized with FT-PSK, never disconnected on the
# way. Sets FT_4WAY, the 4-way handshakes the target ran meanwhile.
ft_roam_to_target() {
	local before akm
	before=$(ft_4way_count "${ROAM_TO[@]}")
	# The target heard (a case first in its boot may have scanned before
	# the second access point beaconed) and heard lately.
	jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
	jw -t 30 object net.joind.Station1 Scanning=false >/dev/null || wifi_fail "still scanning"
	roam_watch_start
	"$BUILD/client/joinctl" station wlan2 roam "$ROAM_TO_BSSID" >/dev/null ||
		wifi_fail "joinctl station wlan2 roam $ROAM_TO_BSSID"
	roam_watch_check
	akm=$(ft_sta_akm "${ROAM_TO[@]}")
	[[ $akm == 00-0f-ac-4 ]] || wifi_fail "${ROAM_TO[0]} lists the station with AKM '$akm', not FT-PSK"
	roam_cli "${ROAM_TO[@]}" sta "$ROAM_STA" | grep -q '^flags=.*\[AUTHORIZED\]' ||
		wifi_fail "${ROAM_TO[0]} does not list the station authorized"
	FT_4WAY=$(($(ft_4way_count "${ROAM_TO[@]}") - before))
}

ft_teardown() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null || wifi_fail "Disconnect()"
	wifi_stop_hostapd ft1
	wifi_stop_hostapd ft2
	rm -f "$WORK/state/${FT_SSID:-joind-ft}.psk"
}
