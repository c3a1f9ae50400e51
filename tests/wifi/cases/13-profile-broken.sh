# shellcheck shell=bash
# 13-profile-broken.sh - a connected network's profile broken by an admin
# mid-edit: still connected, still known, ProfileError names file:line;
# fixed: the new version is picked up; deleted: forgotten.

pb_file=$WORK/state/joind-wpa2.psk
pb_known() { jw -t "${1:-20}" object net.joind.KnownNetwork1 Name=joind-wpa2 "${@:2}"; }
pb_error() {
	gdbus call --system --dest net.joind --object-path "$1" \
		--method org.freedesktop.DBus.Properties.Get net.joind.KnownNetwork1 ProfileError
}

wpa2=$(jw -t 40 object $NET "Device=$DEV" Name=joind-wpa2 Type=psk) ||
	wifi_fail "joind-wpa2 not listed"
printf '[Security]\nPassphrase=%s\n' "$PASS" >"$pb_file"
known=$(pb_known 20 'ProfileError=') || wifi_fail "joind-wpa2.psk not known"
wifi_connect "$wpa2" joind-wpa2

printf '[Security]\nPassphrase=%s\n[Settings\nAutoConnect=false\n' "$PASS" >"$pb_file"
pb_known 20 'ProfileError!=' >/dev/null || wifi_fail "no ProfileError for the broken file"
e=$(pb_error "$known")
[[ $e == *joind-wpa2.psk:3* ]] || wifi_fail "ProfileError does not name joind-wpa2.psk:3: $e"
[[ $e != *"$PASS"* ]] || wifi_fail "ProfileError shows the passphrase"
sleep 2
jw -t 1 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "not connected any more after the profile broke"
pb_known 1 AutoConnect=true >/dev/null || wifi_fail "the last good version is not in effect"
check "profile broken while connected: still connected and known, ProfileError: $e"

printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$PASS" >"$pb_file"
pb_known 20 'ProfileError=' AutoConnect=false >/dev/null ||
	wifi_fail "the fixed profile (AutoConnect=false) was not picked up"
jw -t 1 object net.joind.Station1 State=connected "ConnectedNetwork=$wpa2" >/dev/null ||
	wifi_fail "not connected after the fix"
check "profile fixed: ProfileError cleared, AutoConnect=false picked up, still connected"

rm "$pb_file"
jw -t 20 no-object net.joind.KnownNetwork1 Name=joind-wpa2 ||
	wifi_fail "the deleted profile is still known"
jw -t 20 object $NET Name=joind-wpa2 'KnownNetwork=/' >/dev/null ||
	wifi_fail "joind-wpa2 still links a known network"
jw -t 20 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "still connected to the forgotten network"
check "profile deleted: forgotten and disconnected"
