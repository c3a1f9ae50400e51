#!/bin/bash
# capture-in-vm.sh - records real WPA2/WPA3 handshakes between hostapd and
# wpa_supplicant on mac80211_hwsim radios, for test-captured.c. Runs inside
# a VM with the hwsim module (tests/vm/ or ../shared/vmtest/run-in-vm.sh):
#
#   run-in-vm.sh -t 290 -e OUT=/tmp/cap tests/unit/wifi-handshake/capture/capture-in-vm.sh
#   tests/unit/wifi-handshake/capture/extract.py \
#       tests/unit/wifi-handshake/captured-handshakes.c \
#       psk=WIFI_AKM_SUITE_PSK,WIFI_CIPHER_SUITE_CCMP,WIFI_CIPHER_SUITE_CCMP,0:/tmp/cap/psk-wpas.log \
#       psk-sha256-mfp=WIFI_AKM_SUITE_PSK_SHA256,WIFI_CIPHER_SUITE_CCMP,WIFI_CIPHER_SUITE_CCMP,WIFI_CIPHER_SUITE_BIP_CMAC:/tmp/cap/psk-sha256-mfp-wpas.log \
#       sae=WIFI_AKM_SUITE_SAE,WIFI_CIPHER_SUITE_CCMP,WIFI_CIPHER_SUITE_CCMP,WIFI_CIPHER_SUITE_BIP_CMAC:/tmp/cap/sae-wpas.log \
#       sae-h2e=WIFI_AKM_SUITE_SAE,WIFI_CIPHER_SUITE_CCMP,WIFI_CIPHER_SUITE_CCMP,WIFI_CIPHER_SUITE_BIP_CMAC:/tmp/cap/sae-h2e-wpas.log
#   clang-format -i tests/unit/wifi-handshake/captured-handshakes.c
#
# Both daemons run with -dd -K (keys in the log: test networks only). The AP
# rekeys its GTK every 2 s (wpa_group_rekey=2), so each capture holds group
# key handshakes too. Scenarios: WPA2-PSK; PSK-SHA256 with MFP required;
# SAE (hunting and pecking) and SAE-H2E (RSNXE), both with MFP.
# Runs inside the VM: hostapd + wpa_supplicant on hwsim, full debug with keys.
set -u
out=${OUT:?}
mkdir -p "$out"
modprobe mac80211_hwsim radios=2
for i in $(seq 50); do [ -e /sys/class/net/wlan1 ] && break; sleep 0.1; done
ip link set wlan0 up; ip link set wlan1 up
run() { # NAME HOSTAPD_EXTRA WPAS_EXTRA
	local name=$1 hextra=$2 wextra=$3 wglobal=${4-}
	cat >"$out/$name-hostapd.conf" <<EOC
interface=wlan0
driver=nl80211
ctrl_interface=/run/hostapd-$name
ssid=joind-capture
hw_mode=g
channel=1
wpa=2
rsn_pairwise=CCMP
wpa_passphrase=ThisIsAPassword
eapol_version=2
wpa_group_rekey=2
$hextra
EOC
	cat >"$out/$name-wpas.conf" <<EOC
ctrl_interface=/run/wpas-$name
eapol_version=2
$wglobal
network={
    ssid="joind-capture"
    psk="ThisIsAPassword"
    proto=RSN
    pairwise=CCMP
    group=CCMP
$wextra
}
EOC
	hostapd -dd -K -t "$out/$name-hostapd.conf" >"$out/$name-hostapd.log" 2>&1 &
	local hpid=$!
	for i in $(seq 100); do hostapd_cli -p /run/hostapd-$name -i wlan0 status 2>/dev/null | grep -q state=ENABLED && break; sleep 0.1; done
	wpa_supplicant -dd -K -t -i wlan1 -c "$out/$name-wpas.conf" >"$out/$name-wpas.log" 2>&1 &
	local wpid=$!
	for i in $(seq 150); do wpa_cli -p /run/wpas-$name -i wlan1 status 2>/dev/null | grep -q wpa_state=COMPLETED && break; sleep 0.1; done
	wpa_cli -p /run/wpas-$name -i wlan1 status | grep -E "wpa_state|key_mgmt|pairwise|group" > "$out/$name-status.txt"
	sleep 5
	kill $wpid; sleep 0.3; kill $hpid; wait 2>/dev/null
}
run psk "wpa_key_mgmt=WPA-PSK" "    key_mgmt=WPA-PSK"
run psk-sha256-mfp "wpa_key_mgmt=WPA-PSK-SHA256
ieee80211w=2" "    key_mgmt=WPA-PSK-SHA256
    ieee80211w=2"
run sae "wpa_key_mgmt=SAE
ieee80211w=2
sae_pwe=0" "    key_mgmt=SAE
    ieee80211w=2" "sae_pwe=0"
run sae-h2e "wpa_key_mgmt=SAE
ieee80211w=2
sae_pwe=1" "    key_mgmt=SAE
    ieee80211w=2" "sae_pwe=1"
ls -la "$out"
