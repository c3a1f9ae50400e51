# shellcheck shell=bash
# 73-mac-random.sh - MAC address randomisation (main.conf's
# AddressRandomization): in network mode joind joins each network with an
# address of its own, locally administered, that the access point sees,
# the same after a restart and different on another network; stopping
# joind puts the permanent address back, and disabled leaves it alone.
# Each address change here comes right after joind starts: on
# mac80211_hwsim an address set straight after a disconnection sometimes
# goes unacknowledged by the simulated radio (hostapd: "did not acknowledge
# authentication response"), which this case does not measure.
# Asserted on sysfs, the access point's station table and joind's
# diagnostics.

mr_addr() { cat /sys/class/net/wlan2/address; }
# mr_diag KEY: the station's diagnostics value for KEY.
mr_diag() { wifi_diag -r ".devices[] | select(.name == \"wlan2\") | .details.$1"; }
# mr_seen AP IFACE ADDR: the access point's interface IFACE (of hostapd
# AP) has the station ADDR in its station table.
mr_seen() { iw dev "$2" station get "$3" >/dev/null 2>&1; }
mr_join() {
	local path
	path=$(jw -t 40 object "$NET" "Device=$DEV" "Name=$1") || wifi_fail "$1 not listed"
	wifi_connect "$path" "$1"
}
mr_leave() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t 10 object net.joind.Station1 State=disconnected >/dev/null || wifi_fail "not disconnected"
}

perm=$(mr_addr)
wifi_restart_joind_with AddressRandomization=network
mr_join joind-open
open_addr=$(mr_addr)
[[ $open_addr != "$perm" ]] || wifi_fail "network mode: joined joind-open with the permanent address"
(((0x${open_addr:0:2} & 3) == 2)) || wifi_fail "$open_addr is not a locally administered unicast address"
mr_seen a wlan0 "$open_addr" || wifi_fail "hostapd has no station $open_addr"
[[ $(mr_diag address) == "$open_addr" && $(mr_diag permanent_address) == "$perm" &&
	$(mr_diag address_randomization) == network ]] ||
	wifi_fail "diagnostics: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details | {address, permanent_address, address_randomization}')"
[[ $(stat -c %a "$WORK/state/address-secret") == 600 ]] || wifi_fail "address-secret is not 0600"
check "network mode: joind-open joined as $open_addr (permanent $perm), hostapd's station, diagnostics agree; secret 0600"

mr_leave
wifi_stop_joind
[[ $(mr_addr) == "$perm" ]] || wifi_fail "joind stopped: the address is $(mr_addr), not the permanent $perm"
wifi_start_joind --same-config
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2 after the restart"
# joind-open is known now: autoconnect joins it.
open=$(jw -t 40 object "$NET" "Device=$DEV" Name=joind-open) || wifi_fail "joind-open not listed"
jw -t 40 object net.joind.Station1 State=connected "ConnectedNetwork=$open" >/dev/null ||
	wifi_fail "autoconnect did not join joind-open after the restart"
[[ $(mr_addr) == "$open_addr" ]] || wifi_fail "after a restart joind-open got $(mr_addr), not $open_addr"
mr_seen a wlan0 "$open_addr" || wifi_fail "the access point has no station $open_addr"
check "joind stopped: the permanent address is back; restarted: joind-open joined as $open_addr again"

# Autoconnect joins the only known network after the restart.
mr_leave
rm -f "$WORK/state/joind-open.open"
printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/joind-wpa2.psk"
wifi_restart_joind_same
wpa2=$(jw -t 40 object "$NET" "Device=$DEV" Name=joind-wpa2) || wifi_fail "joind-wpa2 not listed"
jw -t 40 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "autoconnect did not join joind-wpa2"
wpa2_addr=$(mr_addr)
[[ $wpa2_addr != "$open_addr" && $wpa2_addr != "$perm" ]] ||
	wifi_fail "joind-wpa2 got $wpa2_addr (joind-open's $open_addr, permanent $perm)"
# joind-wpa2 has a BSS on each fixture AP.
mr_seen a wlan0-1 "$wpa2_addr" || mr_seen b wlan1 "$wpa2_addr" ||
	wifi_fail "no joind-wpa2 BSS has a station $wpa2_addr"
check "another network, another address: autoconnect joined joind-wpa2 as $wpa2_addr (WPA2 keyed with it)"

mr_leave
rm -f "$WORK/state/joind-wpa2.psk"
wifi_restart_joind_default
wifi_restart_joind_with AddressRandomization=once
once_addr=$(mr_addr)
if [[ $once_addr == "$perm" ]] || (((0x${once_addr:0:2} & 3) != 2)); then
	wifi_fail "once mode: the address at start is $once_addr (permanent $perm)"
fi
mr_join joind-open
[[ $(mr_addr) == "$once_addr" ]] || wifi_fail "once mode: joined with $(mr_addr), not $once_addr"
mr_seen a wlan0 "$once_addr" || wifi_fail "the access point has no station $once_addr"
check "once mode: a random address $once_addr from the start, joind-open joined with it"

mr_leave
rm -f "$WORK/state/joind-open.open"
wifi_restart_joind_default
mr_join joind-open
[[ $(mr_addr) == "$perm" ]] || wifi_fail "disabled: joined with $(mr_addr), not $perm"
mr_seen a wlan0 "$perm" || wifi_fail "hostapd has no station $perm"
check "disabled mode joins with the permanent address $perm"
mr_leave
rm -f "$WORK/state/joind-open.open"
