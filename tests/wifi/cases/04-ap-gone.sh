# shellcheck shell=bash
# 04-ap-gone.sh - hostapd "b" stops: the network only it served vanishes,
# the one it shared with "a" stays.

wifi_stop_hostapd b
jw -t 40 no-object $NET "Name=joind-gone" >/dev/null || wifi_fail "joind-gone did not vanish"
jw -t 1 object $NET "Name=joind-wpa2" >/dev/null || wifi_fail "joind-wpa2 vanished too"
check "hostapd b stopped: joind-gone vanished, joind-wpa2 stays (one BSS left)"
