#!/bin/bash
# tests/system/system-suite.sh - the host side of the 'system' suite: builds
# the Debian packages (scripts/build-deb, nocheck), boots the test VM with
# Debian's systemd as PID 1 (tests/vm/run-in-vm.sh -P, guest-init.sh), where
# the packages are installed with dpkg and run-cases.sh runs the cases of
# tests/system/cases/ as a systemd service, and reports each case as a test.
#
#   system-suite.sh boot NAME...  meson test 'system-vm': the packages, then
#                                 one boot for the NAMEs; outcomes and logs
#                                 land in meson-logs/system/. Passes when
#                                 the packages built and the boot ran every
#                                 case, whatever their outcomes.
#   system-suite.sh case NAME     meson test 'system-NAME': NAME's outcome
#                                 from this meson run's boot (one boot for
#                                 NAME alone when this run had none).
#   system-suite.sh lintian       meson test 'system-lintian': lintian over
#                                 the packages this run's boot built.
#
# Exit 77 (skipped) where the VM cannot boot. Environment: JOIND_SOURCE_ROOT,
# JOIND_BUILD_ROOT (meson test sets both); JOIND_SYSTEM_REV, the commit to
# package (default: the checkout as it is); JOIND_SYSTEM_DEBS, a directory
# of packages built already (scripts/build-deb -o) to use instead;
# JOIND_SYSTEM_VM_LIMIT, the VM's
# wall-clock limit in seconds (default 600).
set -euo pipefail
SRC=$(realpath -e "${JOIND_SOURCE_ROOT:-$(dirname "$0")/../..}")
BUILD=$(realpath -e "${JOIND_BUILD_ROOT:-$PWD}")
OUT=$BUILD/meson-logs/system
RUN_IN_VM=$SRC/tests/vm/run-in-vm.sh
# shellcheck source=../vm/suite-lib.sh
source "$SRC/tests/vm/suite-lib.sh"

usage() {
	sed -n '/^#   system-suite.sh boot/,/^#$/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

can_boot() {
	command -v qemu-system-x86_64 >/dev/null && ls /boot/vmlinuz-* >/dev/null 2>&1 &&
		command -v hostapd >/dev/null && [[ -x /lib/systemd/systemd ]] &&
		command -v dpkg-buildpackage >/dev/null
}

# build_debs: the packages of the checkout's tracked files as they are
# (uncommitted edits included) or JOIND_SYSTEM_REV, without their unit
# suite or test programs.
build_debs() {
	local t0=$SECONDS
	rm -rf "$OUT/debs"
	if [[ -n ${JOIND_SYSTEM_DEBS-} ]]; then
		cp -r "$JOIND_SYSTEM_DEBS" "$OUT/debs"
		echo "system: the packages of $JOIND_SYSTEM_DEBS (JOIND_SYSTEM_DEBS)"
		return 0
	fi
	"$SRC/scripts/build-deb" -r "${JOIND_SYSTEM_REV:-WORKTREE}" -n -L -o "$OUT/debs" >"$OUT/build-deb.log" 2>&1 || {
		tail -n 40 "$OUT/build-deb.log"
		echo "system: the package build failed; its log: $OUT/build-deb.log"
		return 1
	}
	echo "system: packages built in $((SECONDS - t0)) s: $(cd "$OUT/debs" && echo ./*.deb)"
}

# boot_vm RUN-ID NAME...: packages, then one boot for the NAMEs.
boot_vm() {
	vm_new_run "$@"
	shift
	can_boot || vm_skipped "system: qemu, a guest kernel, hostapd, systemd or dpkg-dev" \
		"missing (scripts/install-deps); skipped" || return
	build_debs | tee "$OUT/console.txt"
	((PIPESTATUS[0] == 0)) || { echo 1 >"$OUT/status"; return 1; }
	vm_boot system $# -P -t "${JOIND_SYSTEM_VM_LIMIT:-600}" -m 1024 -s "$SRC" \
		-l "$OUT/kernel-console.txt" -e "JOIND_SOURCE_ROOT=$SRC" -e "JOIND_BUILD_ROOT=$BUILD" \
		-e "JOIND_SYSTEM_OUT=$OUT" -- "$SRC/tests/system/guest-init.sh" "$@"
}

# report NAME: this run's outcome for NAME, with its log.
report() {
	local name=$1 rc secs status
	status=$(cat "$OUT/status" 2>/dev/null || echo none)
	[[ $status != 77 ]] || { echo "system-$name: the VM cannot boot here; skipped"; exit 77; }
	if ! read -r rc secs 2>/dev/null <"$OUT/cases/$name.result"; then
		echo "system-$name: the VM boot (status $status) ended before $name ran; its console:"
		tail -n 60 "$OUT/console.txt" 2>/dev/null || true
		tail -n 30 "$OUT/kernel-console.txt" 2>/dev/null || true
		exit 1
	fi
	cat "$OUT/cases/$name.log"
	echo "system-$name: $secs s inside the shared VM boot; logs in $OUT"
	((rc == 0)) || { echo "system-$name: FAILED"; exit 1; }
}

(($# > 0)) || usage
mode=$1
shift
mkdir -p "$BUILD/meson-logs"
exec 9>"$BUILD/meson-logs/system.lock"
flock 9
case $mode in
boot)
	(($# > 0)) || usage
	# Every file needs a test (JOIND_SYSTEM_ALL_CASES, set by meson); by
	# hand, any NAMEs boot.
	for f in "$SRC"/tests/system/cases/[0-9]*.sh; do
		f=${f##*/}
		printf '%s\n' ${JOIND_SYSTEM_ALL_CASES:-${f%.sh}} | grep -qxF "${f%.sh}" ||
			{ echo "system-vm: cases/$f has no test: add it to tests/system/meson.build"; exit 1; }
	done
	set +e
	boot_vm "$(vm_run_id)" "$@"
	rc=$?
	set -e
	((rc != 77)) || exit 77
	((rc == 0)) || { echo "system-vm: the VM run failed (status $rc): see its console above"; exit 1; }
	for name in "$@"; do
		[[ -e $OUT/cases/$name.result ]] || { echo "system-vm: $name did not run"; exit 1; }
	done
	;;
case)
	(($# == 1)) && [[ -r $SRC/tests/system/cases/$1.sh ]] || usage
	if [[ $(cat "$OUT/run" 2>/dev/null) != "$(vm_run_id)" ]] || ! grep -qxF "$1" "$OUT/wanted"; then
		echo "system-$1: no VM boot of this meson run covered it; booting one for it alone"
		boot_vm "$(vm_run_id)" "$1" >/dev/null || true
	fi
	report "$1"
	;;
lintian)
	changes=$(ls "$OUT"/debs/joind_*.changes 2>/dev/null | tail -n 1)
	if [[ -z $changes ]]; then
		[[ $(cat "$OUT/status" 2>/dev/null) != 77 ]] || exit 77
		echo "system-lintian: no packages from this run's boot (meson test --suite system builds them)"
		exit 1
	fi
	command -v lintian >/dev/null || { echo "system-lintian: lintian missing (scripts/install-deps)"; exit 1; }
	lintian --fail-on error,warning --info "$changes"
	echo "system-lintian: $(basename "$changes"): no error, no warning"
	;;
*) usage ;;
esac
