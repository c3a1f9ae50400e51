#!/bin/bash
# bench/nm-connect/run.sh - NetworkManager 1.42 (wifi.backend=iwd) getting
# onto a WPA2-PSK network through joind's iwd-compat front end and through
# the real iwd 2.3, in the same VM boot.
#
# Run from the build directory, on demand (not part of CI):
#     ../bench/nm-connect/run.sh [ROUNDS]
# ROUNDS defaults to 7. It boots the test VM once (tests/vm/run-in-vm.sh)
# with the wifi suite's fixture (tests/wifi/run-all.sh) and runs
# tests/wifi/cases/91-nm-differential.sh with NM_BENCH_ONLY=1: the timing
# half only (bench/nm-connect/measure.sh says what is measured), without
# the functional runs against iwd. Prints one line per daemon and figure:
# the median and every round, in seconds; the case's log is
# meson-logs/wifi/cases/91-nm-differential.log. About 1 minute per round
# under TCG, plus the boot.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
[[ -x core/joind && -d plugins && -x tests/wifi/joind-wait ]] ||
	{ echo "run from the build directory, after meson compile" >&2; exit 2; }
[[ ${1:-7} =~ ^[1-9][0-9]*$ ]] || { echo "usage: run.sh [ROUNDS]" >&2; exit 2; }
for tool in hostapd /usr/libexec/iwd NetworkManager nmcli busctl jq; do
	command -v "$tool" >/dev/null || { echo "$tool missing (scripts/install-deps)" >&2; exit 2; }
done

rm -rf meson-logs/wifi
mkdir -p meson-logs/wifi/cases
"$src/tests/vm/run-in-vm.sh" -t $((600 + ${1:-7} * 120)) -m 1024 -s "$src" \
	-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" \
	-e "NM_BENCH_ONLY=1" -e "NM_BENCH_ROUNDS=${1:-7}" \
	-- "$src/tests/wifi/run-all.sh" 91-nm-differential >&2
read -r rc _ <meson-logs/wifi/cases/91-nm-differential.result
((rc == 0)) || { echo "the measurement failed: meson-logs/wifi/cases/91-nm-differential.log" >&2; exit 1; }
cat meson-logs/wifi/nm-connect.txt
