# shellcheck shell=bash
# 91-nm-differential.sh - the NetworkManager scenarios of 81-iwd-nm,
# 83-iwd-nm-events and 84-iwd-nm-secure, unchanged, against the real iwd 2.3 (Debian's
# /usr/libexec/iwd, a state directory of its own, wlan2 only) in place of
# joind: they check iwd's D-Bus contract as NetworkManager uses it, not
# joind's reading of it. Then the time from nmcli to connected, joind and
# iwd in the same boot (bench/nm-connect/measure.sh: medians of
# NM_BENCH_ROUNDS, default 3). On demand only (wifi_matrix_cases): about 6
# minutes under TCG. bench/nm-connect/run.sh runs the timing alone
# (NM_BENCH_ONLY=1) with more rounds.

# shellcheck source=../../../bench/nm-connect/measure.sh
source "$JOIND_SOURCE_ROOT/bench/nm-connect/measure.sh"

if [[ -z ${NM_BENCH_ONLY-} ]]; then
	for script in 81-iwd-nm 83-iwd-nm-events 84-iwd-nm-secure; do
		wifi_step "$script against iwd 2.3"
		(
			# shellcheck disable=SC2034 # read by the sourced scripts
			NM_DAEMON=iwd ENT_KEY_ALG=rsa
			# shellcheck source=/dev/null
			source "$CASES/$script.sh"
		)
		check "$script passes against iwd 2.3"
	done
fi

rm -f "$LOGDIR/nm-connect.txt"
for daemon in joind iwd; do
	nm_bench "$daemon" "${NM_BENCH_ROUNDS:-3}"
done
check "nmcli to connected, joind and iwd: figures above (nothing asserted on them)"
