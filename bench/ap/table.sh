# shellcheck shell=bash
# bench/ap/table.sh - the access point bench's table, sourced by guest.sh
# after the rounds (VALS, NS, SKIP, FAILED, ROUNDS, CLIENTS are its). The
# medians, ratios and cells are bench/wifi-connect's (table.sh there,
# sourced), with hostapd and iwd in the peers' columns.
#
# Goals: each time at most hostapd's; each memory figure with clients at
# most iwd's plus the floor difference, the part of joind's memory that is
# the stack it is built on rather than joind: the floor program's after
# PBKDF2 + HMAC (GLib, GDBus and OpenSSL owning a name and doing nothing)
# minus iwd's own idle figure in the same boot (iwd with the radio in
# station mode, no network known).

# shellcheck source=SCRIPTDIR/../wifi-connect/table.sh
source "$JOIND_SOURCE_ROOT/bench/wifi-connect/table.sh"

# ap_goal GOAL JOIND HOSTAPD IWD: VERDICT, "met" or "MISSED" with the
# ratio or the limit, "-" when a figure is missing; VERDICTS counts them.
ap_goal() {
	local v
	v=$(awk -v g="$1" -v j="$2" -v h="$3" -v i="$4" -v fd="${5:+${FLOOR_DIFF[$5]-}}" 'BEGIN {
		if (j == "") { print "-"; exit }
		if (g == "hostapd") { if (h == "") { print "-"; exit }
			printf "%s (%.2fx hostapd)\n", j <= h ? "met" : "MISSED", h ? j / h : 0; exit }
		if (i == "" || fd == "") { print "-"; exit }
		printf "%s (<= %d: iwd %+d)\n", j <= i + fd ? "met" : "MISSED", i + fd, fd
	}')
	[[ $v == - ]] || VERDICTS[${v%% *}]=$((VERDICTS[${v%% *}] + 1))
	VERDICT=$v
}

ap_row() { # METRIC LABEL [GOAL [FLOOR-KEY]]
	cells_of "$1"
	VERDICT=""
	[[ -z ${3-} ]] || ap_goal "$3" "${MED[@]}" "${4-}"
	line "$2" "${CELLS[@]}" "$(ratio "${MED[0]}" "${MED[1]}")" "$(ratio "${MED[0]}" "${MED[2]}")" \
		"$VERDICT"
}

# FLOOR_DIFF[rss|anon]: the floor after PBKDF2 + HMAC minus iwd idle.
declare -A FLOOR_DIFF
floor_diffs() {
	local m f i
	for m in rss anon; do
		f=$(median "$ROW:${m}_idle,floor") i=$(median "$ROW:${m}_idle,iwd")
		[[ -z $f || -z $i ]] || FLOOR_DIFF[$m]=$((${f%.*} - ${i%.*}))
	done
}

# over_floor METRIC: joind's median minus the floor's (rss* or anon*).
over_floor() {
	local j f
	j=$(median "$ROW:$1,joind") f=$(median "$ROW:${1%%[0-9]*}_idle,floor")
	awk -v j="$j" -v f="$f" 'BEGIN { if (j == "" || f == "") print "-"; else printf "%+d", j - f }'
}

ap_notes() {
	local k
	for k in "${!NS[@]}"; do echo "n/a: ${k#*:}: ${NS[$k]}"; done | sort
	for k in "${!FAILED[@]}"; do echo "given up: ${k#*,}: ${FAILED[$k]}"; done | sort
	cat <<'TXT'
(a): from just before the start request is sent (bench/ap/ap-request,
already connected: StartProfile to joind or iwd, ENABLE on hostapd's
control socket) to the first beacon of the new BSS on mac80211_hwsim's
hwsim0 (bench/ap/beacon-watch: the kernel's receive time), after a stop
and a second of silence; the same channel, SSID and passphrase for the
three, none scanning for a channel.
(b): the client's (wpa_supplicant 2.10 on wlan1) own stamps (-t), from
its "Associated with" to "WPA: Key negotiation completed" (pairwise and
group keys installed): the AP's side of the 4-way handshake with the
client's in between; the line under it from "SME: Trying to
authenticate". (c): smaps_rollup's Rss (VmRSS) and Anonymous (RssAnon),
exact, 2 s after the clients are connected. idle: joind and iwd with the
radio in station mode, no network known; floor: bench/footprint/floor.c
after one PBKDF2 + HMAC, through bench/footprint/probe.
TXT
	echo "Every value, in order of the rounds:"
	for k in $(printf '%s\n' "${!VALS[@]}" | sort); do echo "  $k: ${VALS[$k]}"; done
}

print_ap_table() {
	ALL_DAEMONS=(joind hostapd iwd)
	echo "bench/ap: mac80211_hwsim, qemu TCG; medians of $ROUNDS rounds"
	echo "(hostapd $(hostapd -v 2>&1 | grep -o 'v[0-9.]*' | head -n 1), iwd $(/usr/libexec/iwd --version), client $(wpa_supplicant -v | grep -o 'v[0-9.]*' | head -n 1 | sed 's/^/wpa_supplicant /'))"
	medians
	floor_diffs
	echo
	line metric joind hostapd iwd j/hostapd j/iwd verdict
	ap_row start "(a) start -> first beacon, ms" hostapd
	ap_row keys "(b) association -> keys installed (client), ms" hostapd
	ap_row join "    authentication -> keys installed, ms"
	ap_row rss_idle "idle, station mode: VmRSS, KiB"
	ap_row anon_idle "idle, station mode: RssAnon, KiB"
	ap_row rss1 "(c) VmRSS, 1 client, KiB" memory rss
	ap_row anon1 "(c) RssAnon, 1 client, KiB" memory anon
	ap_row rss8 "(c) VmRSS, $CLIENTS clients, KiB" memory rss
	ap_row anon8 "(c) RssAnon, $CLIENTS clients, KiB" memory anon
	line "    floor after PBKDF2 + HMAC: VmRSS / RssAnon, KiB" \
		"$(median "$ROW:rss_idle,floor")/$(median "$ROW:anon_idle,floor")" "" "" "" "" ""
	line "    floor difference (floor - iwd idle), KiB" \
		"${FLOOR_DIFF[rss]:--}/${FLOOR_DIFF[anon]:--}" "" "" "" "" ""
	line "    joind over the floor, 1 / $CLIENTS clients: VmRSS, KiB" "$(over_floor rss1)/$(over_floor rss8)" \
		"" "" "" "" ""
	line "    joind over the floor, 1 / $CLIENTS clients: RssAnon, KiB" \
		"$(over_floor anon1)/$(over_floor anon8)" "" "" "" "" ""
	echo
	echo "goals: ${VERDICTS[met]} met, ${VERDICTS[MISSED]} missed (medians; one run, no timed assertion)"
	echo
	ap_notes
}
