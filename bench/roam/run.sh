#!/bin/bash
# bench/roam/run.sh - how fast joind roams between two access points of one
# network, and how long the data stops, beside iwd 2.3 and wpa_supplicant
# 2.10 on the same radios and the same access points (host wrapper).
#
# Run from the build directory (meson setup with the default -Dtests=true),
# as root, on demand (not part of CI):
#     ../bench/roam/run.sh [ROUNDS [IDLE-SECONDS]]
# ROUNDS (roams per row and daemon) defaults to 3, IDLE-SECONDS to 30. It
# boots the test VM once (tests/vm/run-in-vm.sh: Debian's kernel under
# qemu, mac80211_hwsim) and runs bench/roam/guest.sh inside, which says
# what is measured and from which source; the table is printed at the end
# and kept in meson-logs/bench-roam/results.txt, next to the daemons',
# hostapd's and FreeRADIUS's logs, the pings and the kernel's events. The
# 802.1X row's certificates are made here, on the host, by
# tests/wired/make-pki.sh (RSA, which iwd 2.3 needs) into bench-roam-pki/.
# BENCH_ONLY picks rows and daemons, e.g. BENCH_ONLY="psk joind iwd"
# (rows: psk, tls, ft, ftds, ftsae, ft8021x; the FT rows' ratio to a
# reassociation needs psk in the same run). BENCH_JOIND_DEBUG=1 runs joind with --debug, for
# reading where its time goes (the others log nothing: not for the table).
#
# How long: the three rows psk, tls and ft with the defaults took 11
# minutes in the VM (674 s, load 7 falling to 3) under TCG on two shared
# cores, plus the boot; `BENCH_ONLY="psk ft ftds ftsae ft8021x" run.sh 1 5`
# 8 (478 s, load 7 falling to 3); all six rows with the defaults, about
# 25. The daemons take their turns row by row (all of
# joind's roams, then iwd's, then wpa_supplicant's): a host whose load
# changes during the run favours the later ones; compare runs on a quiet
# host.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
[[ -x core/joind && -d plugins && -x tests/wifi/joind-wait ]] ||
	{ echo "run from the build directory, after meson compile (with -Dtests=true)" >&2; exit 2; }
[[ ${1:-3} =~ ^[1-9][0-9]*$ && ${2:-30} =~ ^[1-9][0-9]*$ ]] ||
	{ echo "usage: run.sh [ROUNDS [IDLE-SECONDS]]" >&2; exit 2; }
for tool in hostapd hostapd_cli wpa_supplicant wpa_passphrase /usr/libexec/iwd freeradius iw openssl; do
	command -v "$tool" >/dev/null || { echo "$tool missing (scripts/install-deps)" >&2; exit 2; }
done

# shellcheck source=SCRIPTDIR/../common/vm-host.sh
source "$src/bench/common/vm-host.sh"
bench_header "$@"
rm -f meson-logs/bench-roam/results.txt
rm -rf bench-roam-pki
"$src/tests/wired/make-pki.sh" bench-roam-pki >/dev/null
bench_install roam
"$src/tests/vm/run-in-vm.sh" -t 3600 -m 1024 -s "$src" \
	-e "JOIND_SOURCE_ROOT=$src" -e "JOIND_BUILD_ROOT=$PWD" \
	-e "BENCH_ROUNDS=${1:-3}" -e "BENCH_IDLE=${2:-30}" -e "BENCH_ONLY=${BENCH_ONLY-}" \
	-e "BENCH_JOIND_DEBUG=${BENCH_JOIND_DEBUG-}" -- "$here/guest.sh" >&2
bench_results roam
