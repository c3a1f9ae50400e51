# shellcheck shell=bash
# 58-ap-nm-hotspot-iwd.sh (wifi-matrix, on demand) - NetworkManager's
# hotspot scenario of 58-ap-nm-hotspot, unchanged, against Debian's iwd
# 2.3 (/usr/libexec/iwd, a state directory of its own, wlan2 only) in
# place of joind: `nmcli dev wifi hotspot` through iwd's Device.Mode and
# AccessPoint, a wpa_supplicant client leased by NetworkManager's dnsmasq,
# `nmcli con down` and station mode again. That the same script passes
# against both shows it checks iwd's contract as NetworkManager uses it,
# not joind's reading of it.

(
	# shellcheck disable=SC2034 # read by the sourced script
	NM_DAEMON=iwd
	# shellcheck source=58-ap-nm-hotspot.sh
	source "$CASES/58-ap-nm-hotspot.sh"
)
check "58-ap-nm-hotspot passes against iwd 2.3"
