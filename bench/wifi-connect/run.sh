#!/bin/bash
# bench/wifi-connect/run.sh - how fast joind gets onto a known network
# (WPA2-PSK, PEAP/MSCHAPv2, EAP-TLS with and without PMKSA caching, SAE
# hunting and pecking and hash-to-element, OWE) and stays there, beside
# iwd and wpa_supplicant (host wrapper).
#
# Run from the build directory (meson setup with the default -Dtests=true,
# which builds bench/wifi-connect/bench-connect), as root, on demand (not
# part of CI):
#     ../bench/wifi-connect/run.sh [ROUNDS [IDLE-SECONDS]]
# ROUNDS defaults to 5, IDLE-SECONDS to 60. It boots the test VM once
# (tests/vm/run-in-vm.sh: Debian's kernel under qemu, mac80211_hwsim) and
# runs bench/wifi-connect/guest.sh inside, which measures all three daemons
# on the same two radios and, row by row, the same hostapd access point
# (rows.sh); the table is printed at the end and kept in
# meson-logs/bench-wifi-connect/results.txt, next to the daemons' logs.
# Progress goes to stderr. The enterprise rows' certificates are made here,
# on the host, by tests/wired/make-pki.sh (RSA: quick here, minutes in the
# emulated guest), into bench-wifi-connect-pki/.
#
# BENCH_ONLY picks parts and daemons, e.g. BENCH_ONLY=eap,sae or
# BENCH_ONLY="psk joind iwd" (guest.sh lists the words). BENCH_PERF=1
# records joind's CPU profile per row (DWARF call graphs) into
# meson-logs/bench-wifi-connect/joind-ROW.perf.data, on the wall clock
# (perf record -k CLOCK_REALTIME: `perf report --time` takes windows of
# joind's log); it perturbs the figures: for looking, not for the table.
#
# How long: under TCG on two shared cores, each round starts each daemon
# once per row; the idle period runs once per daemon. `BENCH_ONLY=psk
# run.sh 1 10` takes about 4 minutes; every row, `run.sh 3 10`, about an
# hour on a loaded machine. guest.sh says what is measured and how.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
[[ -x core/joind && -d plugins && -x tests/wifi/joind-wait && -x bench/wifi-connect/bench-connect ]] ||
	{ echo "run from the build directory, after meson compile (with -Dtests=true)" >&2; exit 2; }
[[ ${1:-5} =~ ^[1-9][0-9]*$ && ${2:-60} =~ ^[1-9][0-9]*$ ]] ||
	{ echo "usage: run.sh [ROUNDS [IDLE-SECONDS]]" >&2; exit 2; }
for tool in hostapd hostapd_cli wpa_supplicant wpa_cli wpa_passphrase /usr/libexec/iwd gdbus openssl; do
	command -v "$tool" >/dev/null || { echo "$tool missing (scripts/install-deps)" >&2; exit 2; }
done

# shellcheck source=SCRIPTDIR/../common/vm-host.sh
source "$src/bench/common/vm-host.sh"
bench_header "$@"
rm -f meson-logs/bench-wifi-connect/results.txt
rm -rf bench-wifi-connect-pki
"$src/tests/wired/make-pki.sh" bench-wifi-connect-pki >/dev/null
bench_install wifi-connect
"$src/tests/vm/run-in-vm.sh" -t 14400 -m 1024 -s "$src" \
	-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" \
	-e "BENCH_ROUNDS=${1:-5}" -e "BENCH_IDLE=${2:-60}" -e "BENCH_ONLY=${BENCH_ONLY-}" \
	-e "BENCH_PERF=${BENCH_PERF-}" -- "$here/guest.sh" >&2
bench_results wifi-connect
