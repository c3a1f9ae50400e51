#!/bin/bash
# test-joinctl-demo: scripts/demo (the README's demo command) runs through
# with the build under test, and its monitor shows the veth pair appear,
# change state and vanish. Skipped (77) when not root.
set -euo pipefail
[ "$(id -u)" = 0 ] || exit 77
out=$(mktemp)
trap 'rm -f "$out"' EXIT
DEMO_PAUSE=0 "$JOIND_SOURCE_ROOT/scripts/demo" --no-build ethernet wired >"$out" 2>&1 || {
    cat "$out"
    echo "scripts/demo failed" >&2
    exit 1
}
cat "$out"
for pattern in \
    'monitor \| .* added +/net/joind/device/[0-9]+ \[demo0\] net.joind.Device1: Address=02:00:00:00:de:01' \
    'monitor \| .* changed +/net/joind/device/[0-9]+ \[demo0\] net.joind.Device1: State=up' \
    'monitor \| .* changed +/net/joind/device/[0-9]+ \[demo0\] net.joind.Device1: State=no-carrier' \
    'monitor \| .* removed +/net/joind/device/[0-9]+ \[demo0\]' \
    '^demo0 +ethernet +down +no +02:00:00:00:de:01'; do
    grep -Eq "$pattern" "$out" || { echo "not in the demo's output: $pattern" >&2; exit 1; }
done
