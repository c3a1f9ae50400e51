# shellcheck shell=bash
# bench/common/idle.sh - a daemon's wakeups while idle, the same way for
# every bench that counts them (sourced by the benches' guest scripts).
#
#   thread_counts PID >FILE       one line per thread: "TID NAME SWITCHES
#                                 RUN-NS" (voluntary context switches and
#                                 schedstat run time so far)
#   idle_deltas BEFORE AFTER      "SWITCHES RUN-MS EXITED-NAMES" between two
#                                 such files

# Deltas are taken thread by thread, so that a thread ending in between
# does not take its counts with it (a sum over /proc/PID/task would then
# shrink).
thread_counts() {
	local t
	for t in /proc/"$1"/task/*; do
		echo "${t##*/} $(tr -d ' ' <"$t/comm") $(awk '/^voluntary_ctxt_switches:/ { print $2 }' \
			"$t/status") $(cut -d' ' -f1 "$t/schedstat")"
	done 2>/dev/null
}
# A thread that ended counts one wakeup (its last), its run time is not
# known.
idle_deltas() {
	awk 'NR == FNR { w[$1] = $3; r[$1] = $4; n[$1] = $2; next }
		{ dw += $3 - w[$1]; dr += $4 - r[$1]; seen[$1] = 1 }
		END { for (t in w) if (!(t in seen)) { dw++; gone = gone n[t] "," }
			printf "%d %.1f %s\n", dw, dr / 1e6, gone == "" ? "-" : gone }' "$1" "$2"
}
