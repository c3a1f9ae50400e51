# shellcheck shell=bash
# 14-profile-dbus.sh - a WPA2-PSK profile provisioned over ProfileManager1
# (`joinctl profile create`, the passphrase from the environment): a
# KnownNetwork1 with Source "admin", and the station joins joind-wpa2 on
# its own (autoconnect); DeleteProfile (`joinctl profile delete`): forgotten
# and disconnected. The passphrase appears in no reply and no log line
# (listings: tests/dbus/test-profile-manager; each joinctl run costs seconds
# in the VM).

JOINCTL=$BUILD/client/joinctl
pd_file=$WORK/state/joind-wpa2.psk

wpa2=$(jw -t 40 object $NET "Device=$DEV" Name=joind-wpa2 Type=psk) ||
	wifi_fail "joind-wpa2 not listed"
t=$(wifi_now)
out=$(PD_PASS=$PASS "$JOINCTL" --json profile create psk joind-wpa2 \
	Security.Passphrase --passphrase-from-env PD_PASS) || wifi_fail "CreateProfile: $out"
path=$(jq -r .path <<<"$out")
known=$(jw -t 10 object net.joind.KnownNetwork1 Name=joind-wpa2 Source=admin) ||
	wifi_fail "no KnownNetwork1 joind-wpa2 with Source admin"
[[ $known == "$path" ]] || wifi_fail "CreateProfile gave $path, the known network is $known"
[[ $(stat -c %a "$pd_file") == 600 ]] || wifi_fail "profile mode is not 0600"
check "CreateProfile psk joind-wpa2: $path, Source admin, 0600"

jw -t 30 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "the station did not join joind-wpa2 from the new profile"
jw -t 1 object $NET Name=joind-wpa2 "KnownNetwork=$known" >/dev/null ||
	wifi_fail "joind-wpa2 does not link the provisioned profile"
[[ $out != *"$PASS"* ]] || wifi_fail "the reply holds the passphrase"
check "autoconnected to joind-wpa2 $(wifi_since "$t") s after CreateProfile"

"$JOINCTL" profile delete "$path" >/dev/null || wifi_fail "DeleteProfile failed"
jw -t 10 no-object net.joind.KnownNetwork1 Name=joind-wpa2 ||
	wifi_fail "the deleted profile is still known"
jw -t 10 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
	wifi_fail "still connected to the deleted network"
jw -t 1 object $NET Name=joind-wpa2 KnownNetwork=/ >/dev/null ||
	wifi_fail "joind-wpa2 still links a known network"
[[ ! -e $pd_file ]] || wifi_fail "the profile file is still there"
grep -qF "$PASS" "$JOIND_LOG" && wifi_fail "the passphrase reached the log"
check "DeleteProfile: forgotten, disconnected, file gone; passphrase in no reply or log"
