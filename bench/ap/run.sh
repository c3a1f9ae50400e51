#!/bin/bash
# bench/ap/run.sh - how fast joind's access point starts and keys a client,
# and what it costs in memory with 1 and 8 clients, beside hostapd 2.10 and
# iwd 2.3's access point on the same radio with the same clients (host
# wrapper).
#
# Run from the build directory (meson setup with the default -Dtests=true,
# which builds bench/ap/air-watch and bench/footprint's floor, floor-ell
# and probe), as root, on demand (not part of CI):
#     ../bench/ap/run.sh [ROUNDS]
# ROUNDS (starts and handshakes per daemon; medians) defaults to 5. It
# boots the test VM once (tests/vm/run-in-vm.sh: Debian's kernel under
# qemu, mac80211_hwsim with 9 radios) and runs bench/ap/guest.sh inside,
# which says what is measured and from which source; the table is printed
# at the end and kept in meson-logs/bench-ap/results.txt, next to the
# daemons' and clients' logs and every beacon start seen.
# BENCH_ONLY picks daemons, e.g. BENCH_ONLY="joind hostapd".
# BENCH_JOIND_DEBUG=1 runs joind with --debug, for reading where its time
# goes (the others log nothing: not for the table).
#
# How long: under TCG on two shared cores (load 6 to 8), `run.sh 7` took
# 394 s with the boot, `run.sh 1` about 2 minutes; each round adds about
# 12 s per daemon. The daemons take their turns one after the other: a
# host whose load changes during the run favours the later ones; compare
# runs on a quiet host.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
[[ -x core/joind && -d plugins && -x tests/wifi/joind-wait && -x bench/ap/air-watch &&
	-x bench/footprint/probe && -x bench/footprint/floor-ell ]] ||
	{ echo "run from the build directory, after meson compile (with -Dtests=true and" \
		"scripts/install-deps's libell-dev)" >&2; exit 2; }
[[ ${1:-5} =~ ^[1-9][0-9]*$ ]] || { echo "usage: run.sh [ROUNDS]" >&2; exit 2; }
for tool in hostapd hostapd_cli wpa_supplicant wpa_cli /usr/libexec/iwd busctl dbus-send; do
	command -v "$tool" >/dev/null || { echo "$tool missing (scripts/install-deps)" >&2; exit 2; }
done

# shellcheck source=SCRIPTDIR/../common/vm-host.sh
source "$src/bench/common/vm-host.sh"
bench_header "$@"
rm -f meson-logs/bench-ap/results.txt
bench_install ap
"$src/tests/vm/run-in-vm.sh" -t 3600 -m 1024 -s "$src" \
	-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" \
	-e "BENCH_ROUNDS=${1:-5}" -e "BENCH_ONLY=${BENCH_ONLY-}" \
	-e "BENCH_JOIND_DEBUG=${BENCH_JOIND_DEBUG-}" -- "$here/guest.sh" >&2
bench_results ap
