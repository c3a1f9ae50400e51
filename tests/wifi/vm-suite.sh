#!/bin/bash
# tests/wifi/vm-suite.sh - the host side of the 'wifi' suite: boots the test
# VM (tests/vm/run-in-vm.sh), where tests/wifi/run-all.sh runs the cases of
# tests/wifi/cases/, and reports each case as a test of its own.
#
#   vm-suite.sh boot NAME...  meson test 'wifi-vm': one boot for the NAMEs
#                             (every case, in order); each case's outcome
#                             and log land in meson-logs/wifi/cases/.
#                             Passes when the boot ran every case, whatever
#                             their outcomes.
#   vm-suite.sh case NAME     meson test 'wifi-NAME': NAME's outcome and log
#                             from this meson run's boot; when this run had
#                             none for NAME (meson test wifi-30-hidden alone),
#                             boots the VM for NAME by itself first.
#   vm-suite.sh run [NAME...] by hand, from the build directory: one boot for
#                             the NAMEs (default every case), each log
#                             printed; fails when a case failed.
#   vm-suite.sh shares        the VM's shares for a boot (run-in-vm.sh -n)
#
# "This meson run" is the parent process: meson test starts every test
# itself, so its PID and start time name the run. Exit 77 (skipped) when
# this machine cannot boot the VM. Environment: JOIND_SOURCE_ROOT and
# JOIND_BUILD_ROOT (meson test sets both; by hand they default to this
# checkout and the current directory); JOIND_WIFI_ALL_CASES, every case with
# a test (meson sets it: the 'wifi', 'wifi-matrix' and 'soak' suites);
# JOIND_WIFI_VM_LIMIT, the VM's wall-clock limit in seconds (default 1800,
# 5400 for a boot that runs the soak; on a loaded machine raise it together
# with meson test's --timeout-multiplier); JOIND_SOAK_* (95-soak's counts)
# are handed on to the VM, and so are the sanitizer options that a
# -Db_sanitize build's test environment sets (ASAN_OPTIONS, LSAN_OPTIONS,
# UBSAN_OPTIONS, G_SLICE, G_DEBUG), so that joind built there runs in the
# VM as the other sanitized tests run it (ASAN_OPTIONS as
# JOIND_ASAN_OPTIONS, see below).
set -euo pipefail
# The VM mounts the trees at their real paths (run-in-vm.sh -s/-r).
SRC=$(realpath -e "${JOIND_SOURCE_ROOT:-$(dirname "$0")/../..}")
BUILD=$(realpath -e "${JOIND_BUILD_ROOT:-$PWD}")
OUT=$BUILD/meson-logs/wifi
RUN_IN_VM=$(cd "$(dirname "$0")/../vm" && pwd -P)/run-in-vm.sh
# shellcheck source=../vm/suite-lib.sh
source "$(dirname "$RUN_IN_VM")/suite-lib.sh"
# The checkout is shared read-only, the build directory (the current
# directory of the VM's command: logs and results land there) read-write;
# hostapd's and dbus-daemon's sockets stay on the guest's own tmpfs.
limit=1800
[[ " $* " != *" 95-soak "* ]] || limit=5400
VM_ARGS=(-t "${JOIND_WIFI_VM_LIMIT:-$limit}" -m 1024 -s "$SRC" -e "JOIND_SOURCE_ROOT=$SRC" -e "JOIND_BUILD_ROOT=$BUILD")
for var in $(compgen -v JOIND_SOAK_ || true); do
	VM_ARGS+=(-e "$var=${!var}")
done
# The test tools run there without leak checks (they free nothing at exit);
# joind gets the full options as JOIND_ASAN_OPTIONS (wifi_start_joind). The
# slow unwinder on every malloc (fast_unwind_on_malloc=0, for the GLib
# frames in the unit tests' reports) makes joind too slow for a loaded TCG
# guest: there it unwinds fast, and a report loses only GLib's frames.
if [[ -n ${ASAN_OPTIONS-} ]]; then
	VM_ARGS+=(-e "JOIND_ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=1"
		-e "ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=1:detect_leaks=0"
		-e "LSAN_OPTIONS=${LSAN_OPTIONS-}:fast_unwind_on_malloc=1")
	for var in UBSAN_OPTIONS G_SLICE G_DEBUG; do
		[[ -z ${!var-} ]] || VM_ARGS+=(-e "$var=${!var}")
	done
fi

usage() {
	sed -n '/^#   vm-suite.sh boot/,/^#$/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

all_cases() {
	local f
	for f in "$SRC"/tests/wifi/cases/[0-9]*.sh; do
		f=${f##*/}
		echo "${f%.sh}"
	done
}

can_boot() {
	command -v qemu-system-x86_64 >/dev/null && ls /boot/vmlinuz-* >/dev/null 2>&1 &&
		command -v hostapd >/dev/null
}

# boot_vm RUN-ID NAME...: a fresh meson-logs/wifi for one boot that runs the
# NAMEs; its console is printed and kept in console.txt. Returns the VM's
# status (77 when it cannot boot).
boot_vm() {
	vm_new_run "$@"
	shift
	can_boot ||
		vm_skipped "wifi: qemu, a guest kernel or hostapd missing (scripts/install-deps); skipped" ||
		return
	vm_boot wifi $# "${VM_ARGS[@]}" -- "$SRC/tests/wifi/run-all.sh" "$@"
}

# summary NAME...: one line per case; fails when a case failed or has no
# outcome.
summary() {
	local name bad=0 rc secs checks
	echo "wifi: case results (seconds inside the one VM boot):"
	for name in "$@"; do
		if read -r rc secs checks 2>/dev/null <"$OUT/cases/$name.result"; then
			printf '  %-20s %-6s %6s s  %3s checks\n' "$name" \
				"$( ((rc == 0)) && echo ok || echo FAILED)" "$secs" "$checks"
			((rc == 0)) || bad=1
		else
			printf '  %-20s not run (the boot ended before it)\n' "$name"
			bad=1
		fi
	done
	return $bad
}

# report NAME: this run's outcome for NAME, with its log.
report() {
	local name=$1 rc secs checks status
	status=$(cat "$OUT/status" 2>/dev/null || echo none)
	[[ $status != 77 ]] || { echo "wifi-$name: the VM cannot boot here; skipped"; exit 77; }
	if ! read -r rc secs checks 2>/dev/null <"$OUT/cases/$name.result"; then
		echo "wifi-$name: the VM boot (status $status) ended before $name ran; its console:"
		tail -n 60 "$OUT/console.txt" 2>/dev/null || true
		exit 1
	fi
	cat "$OUT/cases/$name.log"
	echo "wifi-$name: $checks checks in $secs s inside the shared VM boot;" \
		"logs in $OUT (joind.log, hostapd-*.log, console.txt)"
	((rc == 0)) || { echo "wifi-$name: FAILED"; exit 1; }
	exit 0
}

(($# > 0)) || usage
mode=$1
shift
if [[ $mode == shares ]]; then
	cd "$BUILD"
	exec "$RUN_IN_VM" -n "${VM_ARGS[@]}"
fi
mkdir -p "$BUILD/meson-logs"
# One VM run at a time per build directory; a case test reads the results
# only after the boot that wrote them has finished.
exec 9>"$BUILD/meson-logs/wifi.lock"
flock 9
case $mode in
boot)
	(($# > 0)) || usage
	cases=("$@")
	# Every file needs a test in one of the two suites (JOIND_WIFI_ALL_CASES,
	# set by meson, names both); by hand, the NAMEs given.
	known=${JOIND_WIFI_ALL_CASES:-${cases[*]}}
	for name in $(all_cases); do
		printf '%s\n' $known | grep -qxF "$name" ||
			{ echo "wifi-vm: cases/$name.sh has no test: add it to tests/wifi/meson.build"; exit 1; }
	done
	set +e
	boot_vm "$(vm_run_id)" "${cases[@]}"
	rc=$?
	set -e
	((rc != 77)) || exit 77
	summary "${cases[@]}" || true
	((rc == 0)) || { echo "wifi-vm: the VM run failed (status $rc): see its console above"; exit 1; }
	for name in "${cases[@]}"; do
		[[ -e $OUT/cases/$name.result ]] || { echo "wifi-vm: $name did not run"; exit 1; }
	done
	;;
case)
	(($# == 1)) || usage
	name=$1
	[[ -r $SRC/tests/wifi/cases/$name.sh ]] || usage
	if [[ $(cat "$OUT/run" 2>/dev/null) != "$(vm_run_id)" ]] || ! grep -qxF "$name" "$OUT/wanted"; then
		echo "wifi-$name: no VM boot of this meson run covered it; booting one for it alone"
		boot_vm "$(vm_run_id)" "$name" >/dev/null || true
	fi
	report "$name"
	;;
run)
	(($# > 0)) || mapfile -t cases < <(all_cases)
	(($# == 0)) || cases=("$@")
	set +e
	boot_vm "manual-$$" "${cases[@]}"
	rc=$?
	set -e
	((rc != 77)) || exit 77
	for name in "${cases[@]}"; do
		[[ ! -e $OUT/cases/$name.log ]] || { echo "======== $name"; cat "$OUT/cases/$name.log"; }
	done
	summary "${cases[@]}" && ((rc == 0))
	;;
*) usage ;;
esac
