# shellcheck shell=bash
# tests/wifi/cases/93-sae-matrix.sh - the on-demand wifi-matrix suite
# (meson test -C build --suite wifi-matrix): SAE against hostapd in every
# combination of sae_pwe (0 hunting and pecking, 1 hash-to-element only,
# 2 both) and sae_groups (19, 20, 21: the access point takes only that
# one, so joind's offers of the groups before it are refused first). Each
# BSS is joined with Connect() from a profile; the diagnostics must say
# the group, sae or sae-h2e, and MFP. Nine BSSes on wlan5 (channel 6).

mx_conf() {
	local pwe group
	for pwe in 0 1 2; do
		for group in 19 20 21; do
			if ((pwe + group > 19)); then
				printf '\nbss=wlan5-%s%s\nbssid=02:00:00:00:93:%02x\n' "$pwe" "$group" \
					$((pwe * 3 + group - 19))
			fi
			printf 'ssid=joind-mx-%s-%s\nwpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\n' \
				"$pwe" "$group"
			printf 'rsn_pairwise=CCMP\nsae_password=%s\nsae_pwe=%s\nsae_groups=%s\n' \
				"$PASS" "$pwe" "$group"
		done
	done
}

{
	printf 'interface=wlan5\ndriver=nl80211\nhw_mode=g\nchannel=6\n'
	mx_conf
} | wifi_start_hostapd sae93
wifi_step "9 SAE BSSes up on wlan5"

for pwe in 0 1 2; do
	for group in 19 20 21; do
		ssid=joind-mx-$pwe-$group
		h2e=$([[ $pwe == 0 ]] && echo false || echo true)
		want=$([[ $pwe == 0 ]] && echo sae || echo sae-h2e)
		path=$(jw -t 40 object "$NET" "Device=$DEV" "Name=$ssid" Type=psk) ||
			wifi_fail "$ssid not listed"
		(
			umask 077
			printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$PASS" \
				>"$WORK/state/$ssid.psk"
		)
		jw -t 10 object "$NET" "Name=$ssid" 'KnownNetwork!=/' >/dev/null ||
			wifi_fail "$ssid: the profile was not picked up"
		wifi_connect "$path" "$ssid"
		conn=$(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection') ||
			wifi_fail "$ssid: no connection in the diagnostics"
		jq -e ".security == \"$want\" and .sae_group == $group and .sae_h2e == $h2e and .mfp" \
			<<<"$conn" >/dev/null || wifi_fail "$ssid: want $want group $group: $conn"
		check "sae_pwe=$pwe sae_groups=$group: $want, group $group in ${TOOK}s"
		jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
			wifi_fail "Disconnect() failed"
		jw -t 10 object net.joind.Station1 State=disconnected >/dev/null ||
			wifi_fail "$ssid: not disconnected"
		rm -f "$WORK/state/$ssid.psk"
	done
done
wifi_stop_hostapd sae93
unset -f mx_conf
