# shellcheck shell=bash
# 21-journal.sh - journald carries joind's structured fields: the
# connection of 20-networkd is in `journalctl -u joind -o json` with
# JOIND_DEVICE, JOIND_NETWORK and JOIND_STATE, and `journalctl
# JOIND_DEVICE=wlan1` selects on them.
journalctl -u joind.service -o json --no-pager >"$WORK/joind.json"
jq -s -e 'map(select(.JOIND_DEVICE == "wlan1" and .JOIND_NETWORK == "joind-sys"
	and .JOIND_STATE != null)) | length > 0' "$WORK/joind.json" >/dev/null ||
	wifi_fail "no journal entry with JOIND_DEVICE=wlan1, JOIND_NETWORK=joind-sys and a JOIND_STATE"
states=$(jq -s -r 'map(select(.JOIND_DEVICE == "wlan1" and .JOIND_STATE) | .JOIND_STATE) |
	unique | join(",")' "$WORK/joind.json")
wifi_step "joind's journal: wlan1 entered $states"

journalctl JOIND_DEVICE=wlan1 -o json --no-pager >"$WORK/wlan1.json"
jq -s -e 'length > 0 and all(.JOIND_DEVICE == "wlan1") and all(._SYSTEMD_UNIT == "joind.service")' \
	"$WORK/wlan1.json" >/dev/null || wifi_fail "journalctl JOIND_DEVICE=wlan1 selected other entries"
total=$(jq -s length "$WORK/joind.json")
wlan1=$(jq -s length "$WORK/wlan1.json")
((wlan1 < total)) || wifi_fail "JOIND_DEVICE=wlan1 selected all $total entries"
wifi_step "journalctl JOIND_DEVICE=wlan1: $wlan1 of joind's $total entries"
