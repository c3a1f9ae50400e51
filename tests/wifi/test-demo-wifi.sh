#!/bin/bash
# test-demo-wifi: the WiFi step of the README's demo (scripts/demo-wifi)
# boots the VM; joinctl lists the three access points joind scanned, joind
# connects to the WPA2-PSK one given its passphrase and remembers it, then
# reconnects on its own after the access point restarts and after joind
# itself restarts, and disconnects.
set -euo pipefail
: "${JOIND_SOURCE_ROOT:?}" "${JOIND_BUILD_ROOT:?}"
if ! command -v qemu-system-x86_64 >/dev/null || ! ls /boot/vmlinuz-* >/dev/null 2>&1; then
	echo "demo-wifi: qemu or a guest kernel missing; skipped"
	exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$JOIND_SOURCE_ROOT/scripts/demo-wifi" >"$out" 2>&1 || {
	cat "$out"
	echo "scripts/demo-wifi failed" >&2
	exit 1
}
cat "$out"
for pattern in '^ +demo-cafe-open +open ' '^ +demo-home-wpa2 +psk ' \
	'^ +demo-office-wpa3 +psk ' '^wlan1 +disconnected' "^wlan1 connected to 'demo-home-wpa2'" \
	'remembered the network: demo-home-wpa2.psk' \
	'monitor\| .*net\.joind\.Station1: .*State=disconnected' \
	'monitor\| .*net\.joind\.Station1: .*State=connected' \
	'joind reconnected on its own [0-9.]+ s after hostapd was beaconing again' \
	'monitor\| .* daemon +joind is not running' \
	'joind reconnected on its own [0-9.]+ s after it was started' \
	'^wlan1 disconnected'; do
	grep -Eq "$pattern" "$out" || { echo "not in the demo's output: $pattern" >&2; exit 1; }
done
echo "demo-wifi: ok"
