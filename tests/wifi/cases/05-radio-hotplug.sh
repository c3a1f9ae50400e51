# shellcheck shell=bash
# 05-radio-hotplug.sh - a radio added at run time gets a device that scans;
# removed, its device and networks vanish.

"$HWSIM_RADIO" add joindhot >/dev/null || wifi_fail "hwsim-radio add"
hot=$(jw -t 30 count 2 net.joind.Device1 Kind=wifi | grep -v "^$DEV$") ||
	wifi_fail "no device for the new radio"
jw -t 30 object $NET "Device=$hot" "Name=joind-open" >/dev/null ||
	wifi_fail "the new radio's station found no networks"
check "radio added at run time: $hot appeared and scanned"
"$HWSIM_RADIO" del joindhot || wifi_fail "hwsim-radio del"
jw -t 30 count 1 net.joind.Device1 Kind=wifi >/dev/null || wifi_fail "$hot did not vanish"
jw -t 5 count 0 $NET "Device=$hot" >/dev/null || wifi_fail "networks of $hot remain"
check "radio removed: its device and networks vanished"
