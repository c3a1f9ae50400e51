# shellcheck shell=bash
# 50-rfkill.sh - airplane mode (the radio's rfkill switch) and the resume
# from suspend, on joind's station wlan2 ($DEV). Sourced by run-all.sh (see
# the comment above its loop). Access point here:
#   wlan4    joind-rf   open, channel 6 (2437 MHz)
# joind runs with a 600 s periodic scan here, so a reconnect within
# seconds is autoconnect's own doing, not the periodic scan's. The switch
# is set through sysfs (what `rfkill block` does through /dev/rfkill).
# Each check prints the figure it measured.

RF_SWITCH=$(echo /sys/class/net/wlan2/phy80211/rfkill*)
[[ -w $RF_SWITCH/soft ]] || wifi_fail "wlan2's radio has no rfkill switch ($RF_SWITCH)"
RF_PHY=$(cat /sys/class/net/wlan2/phy80211/name)
rf_start_ap() {
	wifi_start_hostapd rf <<EOF2
interface=wlan4
driver=nl80211
hw_mode=g
channel=6
ssid=joind-rf
EOF2
}
rf_scans() { wifi_diag '.devices[] | select(.name == "wlan2") | .details.scans_triggered'; }
rf_powered() { jw -t "$2" object net.joind.Device1 Name=wlan2 "Powered=$1" >/dev/null; }
rf_log_since() { tail -n +"$(($1 + 1))" "$JOIND_LOG"; }
rf_idle() { grep -qE 'wlan2: autoconnect [a-z-]+ -> idle' <<<"$(rf_log_since "$mark")"; }

# The access point beacons before joind starts (its first scan sees it);
# the profile comes after, so the joind running before never joins it.
rf_start_ap
cp "$WORK/main.conf" "$WORK/main.conf.rf"
wifi_stop_joind
wifi_start_joind <<EOF2
[General]
BlacklistInterfaces=wlan0*,wlan1*,wlan3,wlan4*,wlan5*,wlan6*,wlan7*
[Scan]
InitialPeriodicScanInterval=600
MaximumPeriodicScanInterval=600
EOF2
DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2"
: >"$WORK/state/joind-rf.open"
net=$(jw -t 40 object "$NET" "Device=$DEV" Name=joind-rf 'KnownNetwork!=/') ||
	wifi_fail "joind-rf not listed as known"
jw -t 40 object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
	wifi_fail "not connected to joind-rf"
wifi_step "wlan2 ($RF_PHY, switch ${RF_SWITCH##*/}) connected to joind-rf"

# ------------------------------------------- (a) blocked: powered off, quiet ---
mark=$(wc -l <"$JOIND_LOG")
t=$(wifi_now)
echo 1 >"$RF_SWITCH/soft"
rf_powered false 10 || wifi_fail "Powered still true after rfkill block"
took=$(wifi_since "$t")
jw -t 10 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "still connected with the radio blocked"
grep -q "wlan2: radio $RF_PHY soft-blocked" <<<"$(rf_log_since "$mark")" ||
	wifi_fail "no reason for the block in the log"
jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null 2>&1 &&
	wifi_fail "Scan() succeeded on a blocked radio"
before=$(rf_scans) || wifi_fail "no scans_triggered in the diagnostics"
sleep 3
after=$(rf_scans)
((after == before)) || wifi_fail "scans while blocked: $before -> $after"
check "(a) rfkill block: Powered=false after ${took} s, disconnected, Scan() refused, $((after - before)) scans in 3 s"

# ------------------------- (b) unblocked: powered, quick scan, reconnected ---
mark=$(wc -l <"$JOIND_LOG")
t=$(wifi_now)
echo 0 >"$RF_SWITCH/soft"
rf_powered true 10 || wifi_fail "Powered still false after rfkill unblock"
jw -t 20 object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
	wifi_fail "no reconnect to joind-rf after the unblock"
took=$(wifi_since "$t")
quick=$(grep -m1 -oE 'wlan2: autoconnect: quick scan of [0-9 ]+ MHz' <<<"$(rf_log_since "$mark")") ||
	wifi_fail "no quick scan after the unblock"
grep -q ' 2437' <<<"$quick" || wifi_fail "the quick scan missed 2437 MHz: $quick"
check "(b) rfkill unblock: Powered=true, reconnected to joind-rf in ${took} s (${quick#wlan2: })"

# ------------- (c) resumed from suspend: rescanned and reconnected at once ---
# The suspend: the link goes (the radio blocked here, as the kernel drops
# it while asleep) and the access point is away when the radio is back, so
# autoconnect, after its minute of quick rescans for a lost link, gives up
# and waits for the 600 s periodic scan; then the access point returns, and
# only the resume can find it soon.
"$BUILD/tests/wifi/logind-standin" true || wifi_fail "logind-standin true"
wifi_stop_hostapd rf
mark=$(wc -l <"$JOIND_LOG")
echo 1 >"$RF_SWITCH/soft"
rf_powered false 10 || wifi_fail "Powered still true after rfkill block"
echo 0 >"$RF_SWITCH/soft"
rf_powered true 10 || wifi_fail "Powered still false after rfkill unblock"
wifi_poll 90 "autoconnect to give up" rf_idle
rf_start_ap
sleep 2
jw -t 1 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "reconnected before the resume"
before=$(rf_scans)
mark=$(wc -l <"$JOIND_LOG")
t=$(wifi_now)
"$BUILD/tests/wifi/logind-standin" false || wifi_fail "logind-standin false"
jw -t 20 object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
	wifi_fail "no reconnect after the resume"
took=$(wifi_since "$t")
after=$(rf_scans)
((after > before)) || wifi_fail "no scan after the resume ($before -> $after)"
grep -q 'the system resumed from sleep' <<<"$(rf_log_since "$mark")" ||
	wifi_fail "the resume was not heard"
quick=$(grep -m1 -oE 'wlan2: autoconnect: quick scan of [0-9 ]+ MHz' <<<"$(rf_log_since "$mark")") ||
	wifi_fail "no quick scan after the resume"
check "(c) PrepareForSleep(false): $((after - before)) scan(s) (${quick#wlan2: }), reconnected to joind-rf ${took} s after the signal"

# ------------------------------------------------------------- clean up ---
wifi_stop_hostapd rf
rm -f "$WORK/state/joind-rf.open"
wifi_stop_joind
mv "$WORK/main.conf.rf" "$WORK/main.conf"
wifi_start_joind --same-config
