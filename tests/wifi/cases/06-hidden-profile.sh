# shellcheck shell=bash
# 06-hidden-profile.sh - a Hidden=true profile for "a"'s hidden WPA2-PSK
# BSS, dropped in while joind runs: the profile store reloads it, the next
# scan probes for the SSID, the network appears; after a restart it is
# found again and joined; removing the profile leaves it.

cat >"$WORK/state/joind-hidden.psk" <<EOF2
[Security]
Passphrase=$PASS
[Settings]
Hidden=true
EOF2
path=$(jw -t 40 object $NET "Device=$DEV" Name=joind-hidden Type=psk) ||
	wifi_fail "hidden network did not appear with a Hidden=true profile"
jw -t 10 object $NET Name=joind-hidden 'KnownNetwork!=/' >/dev/null ||
	wifi_fail "hidden network is not linked to its profile"
jw -t 10 object net.joind.KnownNetwork1 Name=joind-hidden Hidden=true >/dev/null ||
	wifi_fail "KnownNetwork1 joind-hidden does not say Hidden=true"
# The directed probe is only in the log.
grep -qE 'wlan2: scan [0-9]+ .*1 SSIDs probed' "$JOIND_LOG" || wifi_fail "no directed probe"
check "Hidden=true profile dropped in: the hidden network appears ($path), KnownNetwork1 Hidden=true"

wifi_stop_joind
wifi_start_joind --same-config
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2 after restart"
jw -t 40 object $NET "Device=$DEV" Name=joind-hidden Type=psk 'KnownNetwork!=/' >/dev/null ||
	wifi_fail "hidden network missing after a restart"
check "after a restart the hidden network is found again from its profile"

ip -o link show wlan3 | grep -q 'state DOWN' || wifi_fail "wlan3 was brought up"
jw -t 1 count 0 net.joind.Device1 "Name=wlan3" >/dev/null || wifi_fail "wlan3 got a device"
check "after the restart wlan3 is still left alone"

# Autoconnect: the Hidden=true profile holds the right passphrase, so joind
# joins the hidden network on its own; removing the profile leaves it.
jw -t 40 object net.joind.Station1 State=connected "ConnectedNetwork=$path" >/dev/null ||
	wifi_fail "joind did not autoconnect to joind-hidden after the restart"
check "after the restart joind autoconnected to joind-hidden from its Hidden=true profile"
rm "$WORK/state/joind-hidden.psk"
jw -t 10 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "still connected to joind-hidden after its profile was removed"
check "joind-hidden's profile removed while connected: disconnected"
