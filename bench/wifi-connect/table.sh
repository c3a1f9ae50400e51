# shellcheck shell=bash
# bench/wifi-connect/table.sh - the results table, sourced by guest.sh
# after the rounds (VALS, NS, SKIP, ROWS, DAEMONS and LEARNED are its).

# MEDS[KEY]: the median of VALS[KEY], all in one awk (a process costs a
# good part of a second in the emulated guest).
declare -A MEDS
medians() {
	local k v
	while read -r k v; do MEDS[$k]=$v; done < <(
		for k in "${!VALS[@]}"; do echo "$k ${VALS[$k]}"; done | awk '{
			n = NF - 1
			for (i = 2; i <= NF; i++) v[i - 1] = $i
			for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
			}
			printf "%s %.6g\n", $1, n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}')
}
median() { echo "${MEDS[$1]-}"; } # of VALS[KEY], or empty
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"
		else if (a / b < 0.1) printf "%.4f", a / b; else printf "%.2f", a / b }'
}
line() { printf '%-54s %9s %9s %9s %8s %8s  %s\n' "$@"; }

# The goals (the issues' Benchmark sections): every time to connected, and
# the CPU of an SAE or OWE exchange, at most the faster peer's (peer); the
# CPU from start to connected and the time from exec to the name on the
# bus at most iwd's (iwd); no wakeups idle (zero);
# per daemon ratios: PMKSA reconnection at most half a full-EAP one (half),
# H2E's CPU below hunting and pecking's (below), a fast transition's roam
# at most a third of a reassociation's (third); an absolute bound (maxN).
# verdict GOAL JOIND IWD WPA_S: VERDICT is "met", "MISSED", or "-" when a
# figure is missing, with the ratio; VERDICTS counts them.
declare -A VERDICTS=([met]=0 [MISSED]=0)
verdict() {
	local v
	v=$(awk -v g="$1" -v j="$2" -v i="${3-}" -v w="${4-}" 'BEGIN {
		if (j == "") { print "-"; exit }
		if (g == "peer") { if (i == "" && w == "") { print "-"; exit }
			b = i == "" ? w : w == "" ? i : (i < w ? i : w); ok = j <= b; r = b ? j / b : 0
			n = i == "" ? "wpa_s, iwd n/s" : w == "" ? "iwd, wpa_s n/s" : "the faster peer"
			printf "%s (%.2fx %s)\n", ok ? "met" : "MISSED", r, n; exit }
		if (g == "iwd") { if (i == "") { print "-"; exit }
			printf "%s (%.2fx iwd)\n", j <= i ? "met" : "MISSED", i ? j / i : 0; exit }
		if (g == "zero") { print j == 0 ? "met (0)" : "MISSED (not 0)"; exit }
		if (g == "half") { print j <= 0.5 ? "met (<= 0.5)" : "MISSED (> 0.5)"; exit }
		if (g == "below") { print j < 1 ? "met (< 1)" : "MISSED (>= 1)"; exit }
		if (g == "third") { print j <= 1 / 3 ? "met (<= 0.33)" : "MISSED (> 0.33)"; exit }
		if (g ~ /^max/) { m = substr(g, 4) + 0
			printf "%s (<= +%d)\n", j <= m ? "met" : "MISSED", m; exit }
	}')
	[[ $v == - ]] || VERDICTS[${v%% *}]=$((VERDICTS[${v%% *}] + 1))
	VERDICT=$v
}

# cells_of METRIC: MED (the three medians, "" where none) and CELLS (what
# is printed: the median, n/s, or -), for ROW.
cells_of() {
	local d v
	MED=() CELLS=()
	for d in "${ALL_DAEMONS[@]}"; do
		v=$(median "$ROW:$1,$d")
		if [[ -n ${NS[$ROW:$1,$d]-} ]]; then
			v=""
			CELLS+=("n/s")
		elif [[ -z $v && -n ${SKIP[$ROW,$d]-}${FAILED[$ROW,$d]-} ]]; then
			CELLS+=("n/s")
		else
			CELLS+=("${v:--}")
		fi
		MED+=("$v")
	done
}

row() { # METRIC LABEL [GOAL]: the medians, joind's ratios to each peer, the verdict
	cells_of "$1"
	VERDICT=""
	[[ -z ${3-} ]] || verdict "$3" "${MED[@]}"
	line "$2" "${CELLS[@]}" "$(ratio "${MED[0]}" "${MED[1]}")" "$(ratio "${MED[0]}" "${MED[2]}")" \
		"$VERDICT"
}

# row_eap_skipped: in how many (p) connections hostapd began no EAP.
row_eap_skipped() {
	local d c=()
	for d in "${ALL_DAEMONS[@]}"; do
		c+=("$(tr ' ' '\n' <<<"${VALS[$ROW:eap_pmksa,$d]-}" |
			awk 'NF { n++; if ($1 == 0) k++ } END { print n ? (k + 0) "/" n : "-" }')")
	done
	line "    (p) without EAP (PMKSA used), rounds" "${c[@]}" "" "" ""
}

# row_per_daemon LABEL A B GOAL: per daemon, the median of A over the
# median of B (A and B are ROW:METRIC), and joind's verdict.
row_per_daemon() {
	local d c=()
	for d in "${ALL_DAEMONS[@]}"; do
		c+=("$(ratio "$(median "$2,$d")" "$(median "$3,$d")")")
	done
	verdict "$4" "${c[0]/-/}"
	line "$1" "${c[@]}" "" "" "$VERDICT"
}

# row_floor METRIC NAME LIMIT: the floor program's figure, bare and after
# PBKDF2 + HMAC, and joind's excess over the latter against LIMIT (KiB).
row_floor() {
	local f fc j over
	f=$(median "$ROW:$1,floor") fc=$(median "$ROW:$1,floor-crypto") j=$(median "$ROW:$1,joind")
	line "    floor / floor after PBKDF2 + HMAC, $2" "${f:--}/${fc:--}" "" "" "" "" ""
	over=$(awk -v j="$j" -v f="$fc" 'BEGIN { if (j != "" && f != "") print j - f }')
	verdict "max$3" "$over"
	line "    joind over the floor after PBKDF2 + HMAC, $2" "${over:+$(printf '%+d' "$over")}" \
		"" "" "" "" "$VERDICT"
}

section() { # ROW: its title and rows
	ROW=$1
	echo
	echo "${ROW_TITLE[$ROW]} -- $SSID_OF"
	case ${ROW_PART[$ROW]} in
	psk)
		row start "(a) start -> connected, ms" peer
		row name "(a) start: exec -> name on the bus, ms" iwd
		line "    floor / after PBKDF2 + HMAC: exec -> name, ms" \
			"$(median "$ROW:name,floor")/$(median "$ROW:name,floor-crypto")" "" "" "" "" ""
		row connect "(b) Connect() -> connected, ms" peer
		row cpu_connect "(s) CPU of (b), schedstat run time, ms"
		row reconnect "(c) AP beaconing -> reconnected, ms" peer
		row rss "(d) VmRSS after connect (smaps_rollup Rss), KiB"
		row anon "(d) RssAnon after connect (smaps_rollup Anonymous), KiB"
		row rss_status "    VmRSS as /proc/PID/status reads it, KiB"
		row anon_status "    RssAnon as /proc/PID/status reads it, KiB"
		row_floor rss VmRSS 1024
		row_floor anon RssAnon 300
		row cpu_start "(e) CPU start -> connected, ms" iwd
		row sched_start "    same, schedstat run time, ms" iwd
		line "    floor / after PBKDF2 + HMAC: exec -> name, CPU ms" \
			"$(median "$ROW:cpu_start,floor")/$(median "$ROW:cpu_start,floor-crypto")" "" "" "" "" ""
		row cpu_idle "(e) CPU in ${IDLE} s idle connected, ms"
		row sched_idle "    same, schedstat run time, ms"
		row wakeups "(e) wakeups in ${IDLE} s idle" zero
		;;
	eap)
		row start "(a) start -> connected (full EAP), ms" peer
		row connect "(b) Connect() -> connected, full EAP, ms" peer
		row pmksa "(p) Connect() -> connected, PMKSA, ms" peer
		row_eap_skipped
		row_per_daemon "    (p) / (b): PMKSA vs full EAP, per daemon" "$ROW:pmksa" "$ROW:connect" half
		[[ $ROW != peap ]] || row reconnect "(c) AP beaconing -> reconnected (full EAP), ms" peer
		row cpu_connect "(s) CPU of (b), schedstat run time, ms"
		row cpu_pmksa "(s) CPU of (p), schedstat run time, ms"
		;;
	*)
		row start "(a) start -> connected, ms" peer
		row connect "(b) Connect() -> connected, AP's PMKSA flushed, ms" peer
		row pmksa "(p) Connect() -> connected, PMKSA if cached, ms" peer
		row cpu_connect "(s) CPU of (b), schedstat run time, ms" peer
		[[ $ROW != h2e || " ${ROWS[*]} " != *" hnp "* ]] ||
			row_per_daemon "    (s) H2E / hunting and pecking, per daemon" \
				h2e:cpu_connect hnp:cpu_connect below
		row cpu_pmksa "(s) CPU of (p), schedstat run time, ms"
		;;
	esac
}

notes() {
	local k d
	for k in "${!NS[@]}"; do echo "n/s: ${k#*:}: ${NS[$k]} (row ${k%%:*})"; done | sort
	for k in "${!SKIP[@]}"; do echo "given up: ${k#*,} on row ${k%,*}: ${SKIP[$k]}"; done | sort
	for k in "${!FAILED[@]}"; do echo "failed: ${k#*,} on row ${k%,*}: ${FAILED[$k]}"; done | sort
	for ROW in "${ROWS[@]}"; do echo "profile keys after the warm-up, $ROW: ${LEARNED[$ROW]-}"; done
	cat <<'TXT'
(a) from the daemon's exec, (c) from hostapd's AP-ENABLED, to the
connected signal's arrival at gdbus monitor (exec -> name: to gdbus
monitor's line saying the name has an owner; the floor's, the probe's own
watch on a bus of its own); (b) and (p): bench-connect,
already on the bus and subscribed, from just before it sends the request
(joind Network1.Connect, iwd Network.Connect, wpa_supplicant's D-Bus
SelectNetwork) to the station's State signal (connected; wpa_supplicant:
completed) arriving to it: the same for the three, no client start-up
inside. Verdicts: joind's median against the issues' goals (times and
SAE/OWE CPU at most the faster peer's; CPU start -> connected and exec
-> name at most iwd's; no idle wakeups; PMKSA at most half of full EAP; H2E's CPU below
hunting and pecking's). (b) on every row but WPA2-PSK: hostapd's PMKSA cache flushed
first, so a full EAP authentication, SAE exchange or OWE key (a daemon
that offers a cached PMKSA is refused and falls back to it); (p):
reconnection to the same running AP (Disconnect, scan, Connect), the PMKSA
of the previous connection used where the daemon caches one; (c): hostapd
restarted, its cache empty, full EAP. (s): the daemon's CPU (schedstat run
time of every thread) over (b) or (p), scan excluded: association, the
SAE or OWE exchange or EAP, the 4-way handshake; the WPA2-PSK row's (s)
is the same without SAE/OWE/EAP. Under TCG on a loaded host the guest's
run time includes the host's preemptions of the vCPU: compare medians.
joind and iwd keep the SAE PT in the profile (see the keys above): (s) of
H2E is with the PT cached; wpa_supplicant computes it once per process and
network, so its (b) is warm too, its (a) cold.
CPU: utime+stime (/proc/PID/stat, HZ ticks); schedstat: the run time of
every thread (/proc/PID/task/*/schedstat); wakeups: voluntary context
switches of every thread.
TXT
	echo "Every value, in order of the rounds:"
	for k in $(printf '%s\n' "${!VALS[@]}" | sort); do echo "  $k: ${VALS[$k]}"; done
}

print_table() {
	echo "bench/wifi-connect: mac80211_hwsim, qemu TCG; medians of $ROUNDS rounds"
	echo "(iwd $(/usr/libexec/iwd --version), $(wpa_supplicant -v | grep -o 'v[0-9.]*' | head -n 1 | sed 's/^/wpa_supplicant /'), hostapd $(hostapd -v 2>&1 | grep -o 'v[0-9.]*' | head -n 1), joind $("$BUILD/core/joind" --version 2>/dev/null | grep -oE '[0-9][0-9.]*' | head -n 1))"
	medians
	line metric joind iwd wpa_s j/iwd j/wpa_s verdict
	for r in "${ROWS[@]}"; do
		SSID_OF=${ROW_SSID[$r]}
		section "$r"
	done
	echo
	echo "goals: ${VERDICTS[met]} met, ${VERDICTS[MISSED]} missed (medians; one run, no timed assertion)"
	echo
	notes
}

# libs_table: where joind's VmRSS after connect goes (last WPA2-PSK round),
# mapping by mapping beside the floor after PBKDF2 + HMAC and iwd, largest
# difference from the floor first; the files are guest.sh's libs-*.txt.
libs_table() {
	local d=$LOGDIR
	[[ -s $d/libs-joind.txt && -s $d/libs-floor-crypto.txt ]] || return 0
	[[ -s $d/libs-iwd.txt ]] || : >"$d/libs-iwd.txt"
	echo
	echo "VmRSS after connect by mapping, KiB (last WPA2-PSK round; floor: after PBKDF2 + HMAC)"
	printf '%-34s %7s %7s %7s %7s\n' mapping joind floor j-floor iwd
	awk 'FILENAME ~ /joind/ { j[$2] = $3; all[$2] } FILENAME ~ /floor/ { f[$2] = $3; all[$2] }
		FILENAME ~ /iwd/ { i[$2] = $3; ti += $3 }
		END {
			for (n in all) {
				tj += j[n]; tf += f[n]
				printf "%d\t%-34s %7d %7d %+7d %7s\n", j[n] - f[n], n, j[n], f[n], j[n] - f[n],
					(n in i) ? i[n] : "-"
			}
			printf "%d\t%-34s %7d %7d %+7d %7d\n", -1e9, "total", tj, tf, tj - tf, ti
		}' "$d/libs-joind.txt" "$d/libs-floor-crypto.txt" "$d/libs-iwd.txt" | sort -k1,1nr | cut -f2-
}
