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
line() { printf '%-54s %9s %9s %9s %8s %8s\n' "$@"; }

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

row() { # METRIC LABEL: the medians and joind's ratios to each peer
	cells_of "$1"
	line "$2" "${CELLS[@]}" "$(ratio "${MED[0]}" "${MED[1]}")" "$(ratio "${MED[0]}" "${MED[2]}")"
}

# row_eap_skipped: in how many (p) connections hostapd began no EAP.
row_eap_skipped() {
	local d c=()
	for d in "${ALL_DAEMONS[@]}"; do
		c+=("$(tr ' ' '\n' <<<"${VALS[$ROW:eap_pmksa,$d]-}" |
			awk 'NF { n++; if ($1 == 0) k++ } END { print n ? (k + 0) "/" n : "-" }')")
	done
	line "    (p) without EAP (PMKSA used), rounds" "${c[@]}" "" ""
}

# row_per_daemon LABEL A B: per daemon, the median of A over the median of B.
row_per_daemon() {
	local d c=()
	for d in "${ALL_DAEMONS[@]}"; do
		c+=("$(ratio "$(median "$ROW:$2,$d")" "$(median "$ROW:$3,$d")")")
	done
	line "$1" "${c[@]}" "" ""
}

row_h2e_vs_hnp() { # per daemon, H2E's (s) over hunting and pecking's
	local d c=()
	for d in "${ALL_DAEMONS[@]}"; do
		c+=("$(ratio "$(median "h2e:cpu_connect,$d")" "$(median "hnp:cpu_connect,$d")")")
	done
	line "    (s) H2E / hunting and pecking, per daemon" "${c[@]}" "" ""
}

section() { # ROW: its title and rows
	ROW=$1
	echo
	echo "${ROW_TITLE[$ROW]} -- $SSID_OF"
	case ${ROW_PART[$ROW]} in
	psk)
		row start "(a) start -> connected, ms"
		row connect "(b) Connect() -> connected, ms"
		row cpu_connect "(s) CPU of (b), schedstat run time, ms"
		row reconnect "(c) AP beaconing -> reconnected, ms"
		row rss "(d) VmRSS after connect, KiB"
		row anon "(d) RssAnon after connect, KiB"
		row cpu_start "(e) CPU start -> connected, ms"
		row sched_start "    same, schedstat run time, ms"
		row cpu_idle "(e) CPU in ${IDLE} s idle connected, ms"
		row sched_idle "    same, schedstat run time, ms"
		row wakeups "(e) wakeups in ${IDLE} s idle"
		;;
	eap)
		row start "(a) start -> connected (full EAP), ms"
		row connect "(b) Connect() -> connected, full EAP, ms"
		row pmksa "(p) Connect() -> connected, PMKSA, ms"
		row_eap_skipped
		row_per_daemon "    (p) / (b): PMKSA vs full EAP, per daemon" pmksa connect
		[[ $ROW != peap ]] || row reconnect "(c) AP beaconing -> reconnected (full EAP), ms"
		row cpu_connect "(s) CPU of (b), schedstat run time, ms"
		row cpu_pmksa "(s) CPU of (p), schedstat run time, ms"
		;;
	*)
		row start "(a) start -> connected, ms"
		row connect "(b) Connect() -> connected, AP's PMKSA flushed, ms"
		row pmksa "(p) Connect() -> connected, PMKSA if cached, ms"
		row cpu_connect "(s) CPU of (b), schedstat run time, ms"
		[[ $ROW != h2e || " ${ROWS[*]} " != *" hnp "* ]] || row_h2e_vs_hnp
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
(a) from the daemon's exec, (b) and (p) from just before the connect call,
(c) from hostapd's AP-ENABLED, to the connected signal's arrival at gdbus
monitor. (b) on every row but WPA2-PSK: hostapd's PMKSA cache flushed
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
	line metric joind iwd wpa_s j/iwd j/wpa_s
	for r in "${ROWS[@]}"; do
		SSID_OF=${ROW_SSID[$r]}
		section "$r"
	done
	echo
	notes
}
