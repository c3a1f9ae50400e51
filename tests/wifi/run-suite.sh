#!/bin/bash
# run-suite.sh SCRIPT [ARGS]: run a WiFi scenario script in the test VM from
# the build directory (meson test's working directory). Exit 77 (skipped)
# when this machine cannot boot the VM.
set -euo pipefail
: "${JOIND_SOURCE_ROOT:?}" "${JOIND_BUILD_ROOT:?}"
if ! command -v qemu-system-x86_64 >/dev/null || ! ls /boot/vmlinuz-* >/dev/null 2>&1 ||
	! command -v hostapd >/dev/null; then
	echo "wifi: qemu, a guest kernel or hostapd missing (scripts/install-deps); skipped"
	exit 77
fi
cd "$JOIND_BUILD_ROOT"
start=$(date +%s.%N)
set +e
"$JOIND_SOURCE_ROOT/tests/vm/run-in-vm.sh" -t 840 -m 1024 \
	-e "JOIND_SOURCE_ROOT=$JOIND_SOURCE_ROOT" -e "JOIND_BUILD_ROOT=$JOIND_BUILD_ROOT" \
	-- "$@"
rc=$?
set -e
awk -v a="$(date +%s.%N)" -v b="$start" \
	'BEGIN { printf "wifi suite wall time (VM boot included): %.1f s\n", a - b }'
exit $rc
