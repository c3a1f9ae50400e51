# shellcheck shell=bash
# bench/roam/table.sh - the roaming bench's table, sourced by guest.sh after
# the roams (VALS, NS, SKIP, FAILED, ROWS, ROUNDS, IDLE are its). The
# medians, ratios, cells and verdicts are bench/wifi-connect's (table.sh
# there, sourced): a time's goal is at most the faster of iwd and
# wpa_supplicant ("peer"), the idle wakeups' zero.

# shellcheck source=SCRIPTDIR/../wifi-connect/table.sh
source "$JOIND_SOURCE_ROOT/bench/wifi-connect/table.sh"

# roam_rows PREFIX WHAT: one roam's rows.
roam_rows() {
	row "${1}detect" "detection: signal step -> first scan, ms$2" peer
	row "${1}cqm" "    kernel: step -> CQM low event, ms"
	row "${1}react" "    daemon: CQM low event -> first scan, ms" peer
	row "${1}search" "    search: first scan -> auth at the target, ms"
	if [[ $ROW == ftds ]]; then
		row "${1}roam" "roam time: FT Request -> AP-STA-CONNECTED, ms$2" peer
		row "${1}overds" "    roams over the DS (1) or the air (0)"
	else
		row "${1}roam" "roam time: auth -> AP-STA-CONNECTED, ms$2" peer
	fi
	row "${1}total" "    step -> AP-STA-CONNECTED, ms" peer
	row "${1}gap" "data gap: longest without ping replies, ms$2" peer
	! row_uses_radius "$ROW" || row "${1}eap" "    RADIUS Access-Requests per roam"
}

roam_section() {
	ROW=$1
	echo
	echo "${ROW_TITLE[$ROW]} -- ${ROW_SSID[$ROW]}"
	row connect "fresh connect: start -> AP-STA-CONNECTED, ms"
	if [[ $ROW == tls ]]; then
		roam_rows first_ " (1st, full EAP)"
	fi
	roam_rows "" ""
	# Fast transition's goals: a roam at most a third of the PSK
	# reassociation's on the same run, a data gap at most 200 ms.
	if [[ $ROW == ft* ]]; then
		row_per_daemon "    roam time / PSK reassociation's roam time" "$ROW:roam" psk:roam third
		row gap "    data gap at most 200 ms (joind)" max200
	fi
	[[ $ROW != psk ]] || row wakeups "wakeups in ${IDLE} s idle connected" zero
	[[ $ROW != psk ]] || row sched_idle "    CPU in that time, schedstat run time, ms"
}

roam_notes() {
	local k
	for k in "${!NS[@]}"; do echo "n/s: ${k#*:}: ${NS[$k]} (row ${k%%:*})"; done | sort
	for k in "${!FAILED[@]}"; do echo "given up: ${k#*,} on row ${k%,*}: ${FAILED[$k]}"; done | sort
	cat <<'TXT'
Sources, the same for the three daemons: the step is the write to the
access point's hwsim rx_rssi (-80 dBm heard, from the normal level);
detection ends at the first scan the kernel starts on the station after
it (iw event -t, nl80211 TRIGGER_SCAN); auth and AP-STA-CONNECTED are the
target hostapd's own stamps (-t; the first "authentication OK" for the
station, the port authorised: 4-way handshake done or FT reassociation;
over the DS the roam starts at the FT Request's arrival at the access
point left, in its debug output);
the data gap comes from ping -D every 10 ms to a host bridged behind both
access points. The 802.1X row's measured roams each have a PMKSA at their
target (the first roam to each ran full EAP: "1st" rows); RADIUS
Access-Requests 0 means the PMKSA was used. wakeups: voluntary context
switches of every thread over the idle time (pings stopped), once per
daemon after its last PSK roam.
TXT
	grep -h 'roamed ' "$WORK/joind.log" 2>/dev/null | sed 's/^/joind: /' || true
	echo "Every value, in order of the roams:"
	for k in $(printf '%s\n' "${!VALS[@]}" | sort); do echo "  $k: ${VALS[$k]}"; done
}

print_roam_table() {
	echo "bench/roam: mac80211_hwsim, qemu TCG; medians of $ROUNDS roams per row and daemon"
	echo "(iwd $(/usr/libexec/iwd --version), $(wpa_supplicant -v | grep -o 'v[0-9.]*' | head -n 1 | sed 's/^/wpa_supplicant /'), hostapd $(hostapd -v 2>&1 | grep -o 'v[0-9.]*' | head -n 1))"
	medians
	line metric joind iwd wpa_s j/iwd j/wpa_s verdict
	local r
	for r in "${ROWS[@]}"; do roam_section "$r"; done
	echo
	echo "goals: ${VERDICTS[met]} met, ${VERDICTS[MISSED]} missed (medians; one run, no timed assertion)"
	echo
	roam_notes
}
