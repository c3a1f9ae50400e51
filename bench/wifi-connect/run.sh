#!/bin/bash
# bench/wifi-connect/run.sh - how fast joind gets onto a known WPA2-PSK
# network and stays there, beside iwd and wpa_supplicant (host wrapper).
#
# Run from the build directory, as root, on demand (not part of CI):
#     ../bench/wifi-connect/run.sh [ROUNDS [IDLE-SECONDS]]
# ROUNDS defaults to 5, IDLE-SECONDS to 60. It boots the test VM once
# (tests/vm/run-in-vm.sh: Debian's kernel under qemu, mac80211_hwsim) and
# runs bench/wifi-connect/guest.sh inside, which measures all three daemons
# on the same two radios and the same hostapd access point; the table is
# printed at the end and kept in meson-logs/bench-wifi-connect/results.txt,
# next to the daemons' logs. Progress goes to stderr.
#
# How long: about 20 minutes under TCG on two shared cores with the defaults
# (each round starts each daemon once; the idle period runs once per
# daemon); `run.sh 1 10` takes about 4 minutes and is enough to see that
# everything works. guest.sh says what is measured and how.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
[[ -x core/joind && -d plugins && -x tests/wifi/joind-wait ]] ||
	{ echo "run from the build directory, after meson compile" >&2; exit 2; }
[[ ${1:-5} =~ ^[1-9][0-9]*$ && ${2:-60} =~ ^[1-9][0-9]*$ ]] ||
	{ echo "usage: run.sh [ROUNDS [IDLE-SECONDS]]" >&2; exit 2; }
for tool in hostapd wpa_supplicant wpa_cli wpa_passphrase /usr/libexec/iwd gdbus; do
	command -v "$tool" >/dev/null || { echo "$tool missing (scripts/install-deps)" >&2; exit 2; }
done

rm -f meson-logs/bench-wifi-connect/results.txt
"$src/tests/vm/run-in-vm.sh" -t 3600 -m 1024 -s "$src" \
	-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" \
	-e "BENCH_ROUNDS=${1:-5}" -e "BENCH_IDLE=${2:-60}" -e "BENCH_ONLY=${BENCH_ONLY-}" -- "$here/guest.sh" >&2
cat meson-logs/bench-wifi-connect/results.txt
