# shellcheck shell=bash
# 30-rfkill.sh - rfkill through the unit: joind.service (DevicePolicy=closed,
# DeviceAllow=/dev/rfkill rw) sees `rfkill block` of wlan1's radio (under
# PrivateDevices=true it could not) and reports the device unpowered, with
# the reason in its journal; `rfkill unblock` brings it back.
sys_start
phy=$(cat /sys/class/net/wlan1/phy80211/name)
id=$(rfkill -rn -o ID,DEVICE | awk -v p="$phy" '$2 == p { print $1 }')
[[ -n $id ]] || wifi_fail "no rfkill switch for $phy: $(rfkill)"
powered() { joinctl -j device show wlan1 | jq -e --argjson p "$1" '.powered == $p' >/dev/null; }
powered true || wifi_fail "wlan1 is not powered before the block: $(joinctl -j device show wlan1)"
cursor=$(sys_cursor)
rfkill block "$id"
wifi_poll 10 "wlan1 unpowered after rfkill block" powered false
sys_wait_journal 5 "$cursor" "wlan1: radio $phy soft-blocked" -u joind.service
wifi_step "rfkill block $id ($phy): joind reports wlan1 unpowered, soft-blocked"
rfkill unblock "$id"
wifi_poll 10 "wlan1 powered after rfkill unblock" powered true
wifi_step "rfkill unblock: wlan1 powered again"
