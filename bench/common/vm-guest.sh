# shellcheck shell=bash
# bench/common/vm-guest.sh - what the guest scripts of the benches that boot
# the test VM share, sourced at their top with BENCH_NAME set: BUILD,
# LOGDIR (meson-logs/bench-NAME, emptied), WORK (guest-only scratch),
# tests/wifi/lib.sh, joind's log on WORK, a wifi_fail that keeps WORK's
# logs, TZ and LC_ALL.
#
#   bench_guest_joind      joind from bench-NAME-install (bench_install on
#                          the host) into the guest's root: JOIND_BIN,
#                          JOIND_PLUGINS

: "${JOIND_BUILD_ROOT:?}" "${JOIND_SOURCE_ROOT:?}" "${JOIND_VM:?run through run.sh}" "${BENCH_NAME:?}"
export BUILD=$JOIND_BUILD_ROOT
export LOGDIR=$BUILD/meson-logs/bench-$BENCH_NAME
export WORK=/tmp/joind-bench-$BENCH_NAME
rm -rf "$LOGDIR"
# shellcheck source=SCRIPTDIR/../../tests/wifi/lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/lib.sh"
# Logs stay on the guest's tmpfs while measuring (a write to the 9p share is
# a round trip to the host) and are copied out at the end; TZ keeps log
# timestamps from reading /etc/localtime over 9p.
JOIND_LOG=$WORK/joind.log
eval "lib_$(declare -f wifi_fail)"
wifi_fail() {
	cp "$WORK"/*.log "$LOGDIR/" 2>/dev/null || true
	lib_wifi_fail "$@"
}
export TZ=UTC
export LC_ALL=C # a dot in $EPOCHREALTIME

# tar, not cp: the staged lib/ must merge into the root's lib -> usr/lib
# symbolic link (merged /usr), which cp refuses to overwrite.
bench_guest_joind() {
	local staged=$BUILD/bench-$BENCH_NAME-install
	tar -C "$staged" -cf - . | tar -C / -xf - --keep-directory-symlink
	JOIND_BIN=$(cd "$staged" && find . -path '*bin/joind' -type f)
	JOIND_BIN=${JOIND_BIN#.}
	JOIND_PLUGINS=$(dirname "$(cd "$staged" && find . -name joind-wifi.plugin)")
	JOIND_PLUGINS=${JOIND_PLUGINS#.}
	[[ -x $JOIND_BIN && -d $JOIND_PLUGINS ]] || wifi_fail "no installed joind in $staged"
}
