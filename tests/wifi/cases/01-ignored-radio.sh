# shellcheck shell=bash
# 01-ignored-radio.sh - wlan3, named in BlacklistInterfaces, is left alone.

jw -t 1 count 0 net.joind.Device1 "Name=wlan3" >/dev/null || wifi_fail "wlan3 got a device"
ip -o link show wlan3 | grep -q 'state DOWN' || wifi_fail "wlan3 was brought up"
[[ -z $(iw dev wlan3 scan dump 2>&1) ]] || wifi_fail "wlan3 has scan results: it was scanned"
# Only the log says why.
grep -q 'wlan3: left alone' "$JOIND_LOG" || wifi_fail "no log line for wlan3"
check "wlan3 (BlacklistInterfaces): no device, still down, never scanned"
