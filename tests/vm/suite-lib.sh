# shellcheck shell=bash
# tests/vm/suite-lib.sh - what the host sides of the VM suites share
# (sourced by tests/wifi/vm-suite.sh and tests/system/system-suite.sh).
# Needs BUILD (the build directory, the VM's current directory), OUT (the
# suite's folder in meson-logs) and RUN_IN_VM (run-in-vm.sh).
#
#   vm_run_id                      names this meson run: meson test starts
#                                  every test itself, so its PID and start
#                                  time (field 22 of /proc/PID/stat; the
#                                  command name before it may hold spaces)
#   vm_new_run RUN-ID NAME...      a fresh OUT for one boot of this run
#                                  that runs the NAMEs (OUT/run, OUT/wanted)
#   vm_skipped TEXT...             TEXT printed and kept in OUT/console.txt,
#                                  status 77 (skipped) kept and returned
#   vm_boot LABEL N ARG...         run-in-vm.sh ARG... from BUILD for N
#                                  cases: the console printed and appended
#                                  to OUT/console.txt, the status kept in
#                                  OUT/status and returned, the wall time
#                                  printed

vm_run_id() {
	echo "$PPID-$(sed 's/.*) //' "/proc/$PPID/stat" | cut -d' ' -f20)"
}

vm_new_run() {
	rm -rf "$OUT"
	mkdir -p "$OUT/cases"
	echo "$1" >"$OUT/run"
	shift
	printf '%s\n' "$@" >"$OUT/wanted"
}

vm_skipped() {
	echo "$*" | tee "$OUT/console.txt"
	echo 77 >"$OUT/status"
	return 77
}

vm_boot() {
	local label=$1 n=$2 rc start
	shift 2
	start=$(date +%s.%N)
	set +e
	(cd "$BUILD" && "$RUN_IN_VM" "$@") 2>&1 | tee -a "$OUT/console.txt"
	rc=${PIPESTATUS[0]}
	set -e
	echo "$rc" >"$OUT/status"
	awk -v a="$(date +%s.%N)" -v b="$start" -v n="$n" -v l="$label" \
		'BEGIN { printf "%s: %d case(s) in %.1f s of VM wall time (boot included)\n", l, n, a - b }' |
		tee -a "$OUT/console.txt"
	return "$rc"
}
