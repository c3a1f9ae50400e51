# shellcheck shell=bash
# 00-networks.sh - what joind lists from the fixture's access points
# (hostapd "a" on wlan0, channel 1; "b" on wlan1, channel 11): every
# network with its Type, one network for an SSID on two BSSes, a non-UTF-8
# SSID, no hidden SSID without a profile.

for spec in joind-open:open joind-wpa2:psk joind-sae:psk joind-mixed:psk joind-eap:8021x \
	'caf\xe9:open' joind-gone:open; do
	name=${spec%:*} type=${spec##*:}
	jw -t 40 object $NET "Device=$DEV" "Name=$name" "Type=$type" >/dev/null ||
		wifi_fail "network $name ($type) did not appear"
done
check "7 networks with the right Type (SAE-only and transition networks are psk, as iwd)"

[[ $(jw -t 5 count 1 $NET "Device=$DEV" "Name=joind-wpa2") == \
	"$DEV/network/6a6f696e642d77706132_psk" ]] || wifi_fail "joind-wpa2 is not one network"
# Both BSSes are in the station's diagnostics once both have been scanned.
n=$(wifi_diag '[.devices[] | select(.name == "wlan2") | .details.bsses[] |
	select(.ssid == "joind-wpa2") | .bssid] | unique | length') ||
	wifi_fail "GetDiagnostics: no BSS list for wlan2"
((n == 2)) || wifi_fail "joind-wpa2: expected 2 BSSes in the diagnostics, found $n"
check "joind-wpa2: two BSSes (channels 1 and 11), one Network1 object"

jw -t 5 object $NET "Device=$DEV" "Name=caf\\xe9" | grep -q '/network/636166e9_open$' ||
	wifi_fail "non-UTF-8 SSID: wrong path"
check "non-UTF-8 SSID: Name caf\\xe9, path .../636166e9_open"

jw -t 1 count 0 $NET "Name=joind-hidden" >/dev/null || wifi_fail "hidden network listed"
jw -t 1 count 7 $NET "Device=$DEV" >/dev/null || wifi_fail "expected exactly 7 networks"
check "the hidden SSID is not listed without a profile"
