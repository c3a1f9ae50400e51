# shellcheck shell=bash
# bench/ap/table.sh - the access point bench's table, sourced by guest.sh
# after the rounds (VALS, NS, SKIP, FAILED, ROUNDS, CLIENTS are its). The
# medians, ratios and cells are bench/wifi-connect's (table.sh there,
# sourced), with hostapd and iwd in the peers' columns.
#
# Goals: each time at most hostapd's; each memory figure with clients at
# most iwd's plus the floor difference: what joind's required stack costs
# more than iwd's before either daemon does anything, each floor program
# after PBKDF2 + HMAC in the same boot (bench/footprint/floor.c: GLib,
# GDBus and OpenSSL owning a name; floor-ell.c: the same on ELL). The goal
# holds when joind's own part (joind - its floor) is at most iwd's (iwd -
# its floor).

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

# FLOOR_DIFF[rss|anon]: joind's floor minus iwd's, both after PBKDF2 + HMAC.
declare -A FLOOR_DIFF
floor_diffs() {
	local m f e
	for m in rss anon; do
		f=$(median "$ROW:${m}_idle,floor") e=$(median "$ROW:${m}_idle,floor-ell")
		[[ -z $f || -z $e ]] || FLOOR_DIFF[$m]=$((${f%.*} - ${e%.*}))
	done
}

# over_floor DAEMON FLOOR METRIC: the daemon's median minus its floor's
# (METRIC rss* or anon*).
over_floor() {
	local d f
	d=$(median "$ROW:$3,$1") f=$(median "$ROW:${3%%[0-9]*}_idle,$2")
	awk -v d="$d" -v f="$f" 'BEGIN { if (d == "" || f == "") print "-"; else printf "%+d", d - f }'
}

# slot_bounds DAEMON: where its start -> beaconing lies once the wait for
# the beacon slot is taken off, "LOW-HIGH" ms: a first beacon t after the
# request means the BSS beaconed by t, and, when t is over an interval
# (guest.sh's BEACON_INTERVAL_US), that it missed the slot an interval
# before; "-" when its rounds disagree (it varies more than the slots do).
slot_bounds() {
	awk -v v="${VALS[$ROW:start,$1]-}" -v slot="$BEACON_INTERVAL_US" 'BEGIN {
		n = split(v, t, " "); if (!n) { print "-"; exit }
		lo = 0; hi = t[1]; slot /= 1000
		for (i = 1; i <= n; i++) { if (t[i] - slot > lo) lo = t[i] - slot; if (t[i] < hi) hi = t[i] }
		if (lo > hi) print "-"; else printf "%.0f-%.0f\n", lo, hi
	}'
}

ap_notes() {
	local k
	for k in "${!NS[@]}"; do echo "n/a: ${k#*:}: ${NS[$k]}"; done | sort
	for k in "${!FAILED[@]}"; do echo "given up: ${k#*,}: ${FAILED[$k]}"; done | sort
	cat <<'TXT'
(a): from just before the start request is sent (bench/ap/ap-request,
already connected: StartProfile to joind or iwd, ENABLE on hostapd's
control socket) to the first beacon of the new BSS on mac80211_hwsim's
hwsim0 (bench/ap/air-watch: the kernel's receive time), after a stop
and a second of silence; the same channel, SSID and passphrase for the
three, none scanning for a channel.
(b): the client's (wpa_supplicant 2.10 on wlan1) own stamps (-t), from
its "Associated with" to "WPA: Key negotiation completed" (pairwise and
group keys installed): the AP's side of the 4-way handshake with the
client's in between; the line under it from "SME: Trying to
authenticate". The turns under it: the same handshakes dated on the air
by bench/ap/air-watch, each side's time between the frames it answers,
and the client's from its message 4 to its own stamp of the keys.
(c): smaps_rollup's Rss (VmRSS) and Anonymous (RssAnon),
exact, 2 s after the clients are connected. idle: joind and iwd with the
radio in station mode, no network known; floors: bench/footprint/floor.c
(joind's stack) and floor-ell.c (iwd's) after one PBKDF2 + HMAC, through
bench/footprint/probe.
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
	line "    start -> beaconing, the slot's wait off, ms" "$(slot_bounds joind)" \
		"$(slot_bounds hostapd)" "$(slot_bounds iwd)" "" "" ""
	ap_row keys "(b) association -> keys installed (client), ms" hostapd
	ap_row join "    authentication -> keys installed, ms"
	ap_row ap_turns "    in (b), the AP's turns (resp -> 1, 2 -> 3), ms"
	ap_row client_turns "    in (b), the client's turns (1 -> 2, 3 -> 4), ms"
	ap_row client_install "    in (b), the client after message 4 (its keys), ms"
	ap_row assoc_turn "    association request -> response (the AP), ms"
	ap_row rss_idle "idle, station mode: VmRSS, KiB"
	ap_row anon_idle "idle, station mode: RssAnon, KiB"
	ap_row rss1 "(c) VmRSS, 1 client, KiB" memory rss
	ap_row anon1 "(c) RssAnon, 1 client, KiB" memory anon
	ap_row rss8 "(c) VmRSS, $CLIENTS clients, KiB" memory rss
	ap_row anon8 "(c) RssAnon, $CLIENTS clients, KiB" memory anon
	line "    floors after PBKDF2 + HMAC: VmRSS / RssAnon, KiB" \
		"$(median "$ROW:rss_idle,floor")/$(median "$ROW:anon_idle,floor")" "" \
		"$(median "$ROW:rss_idle,floor-ell")/$(median "$ROW:anon_idle,floor-ell")" "" "" ""
	line "    floor difference (joind's floor - iwd's), KiB" \
		"${FLOOR_DIFF[rss]:--}/${FLOOR_DIFF[anon]:--}" "" "" "" "" ""
	line "    own part (over its floor), 1 client: VmRSS, KiB" "$(over_floor joind floor rss1)" "" \
		"$(over_floor iwd floor-ell rss1)" "" "" ""
	line "    own part (over its floor), 1 client: RssAnon, KiB" "$(over_floor joind floor anon1)" \
		"" "$(over_floor iwd floor-ell anon1)" "" "" ""
	echo
	echo "goals: ${VERDICTS[met]} met, ${VERDICTS[MISSED]} missed (medians; one run, no timed assertion)"
	echo
	ap_notes
}
