# shellcheck shell=bash
# 96-adhoc-joind.sh - an RSN IBSS whose two peers are both joind (on
# demand, --suite wifi-matrix: about 40 s): two radios of joind's, each in
# ad-hoc mode, started on the same SSID and passphrase; each AdHoc1.Peers
# names the other once the two pairs of 4-way handshakes are done, and the
# kernel of each side has the other authorised (its port open). Both back
# in station mode after.

JOINCTL=$BUILD/client/joinctl
jprop() {
	busctl --system --json=short get-property net.joind "$1" "net.joind.$2" "$3" | jq -c .data
}
names() { [[ $(jprop "$1" AdHoc1 Peers | jq -r --arg m "$2" 'index($m) != null') == true ]]; }
authorized() { iw dev "$1" station get "$2" | grep -q 'authorized:[[:space:]]*yes'; }

trap '"$HWSIM_RADIO" del joindah96a 2>/dev/null || true; "$HWSIM_RADIO" del joindah96b 2>/dev/null || true' EXIT
IFS_=() DEVS=() MACS=()
for r in a b; do
	"$HWSIM_RADIO" add "joindah96$r" >/dev/null || wifi_fail "hwsim-radio add joindah96$r"
	i=$(ls /sys/class/ieee80211/joindah96$r/device/net/)
	IFS_+=("$i")
	MACS+=("$(cat /sys/class/net/"$i"/address)")
	DEVS+=("$(jw -t 20 object net.joind.Device1 "Name=$i")") || wifi_fail "joind did not take $i"
done
T0=$(wifi_now)
for k in 0 1; do
	out=$("$JOINCTL" device mode "${IFS_[$k]}" ad-hoc 2>&1) || wifi_fail "device mode ad-hoc: $out"
	out=$(AH_PASS=$PASS "$JOINCTL" adhoc "${IFS_[$k]}" start joind-ibss96 \
		--passphrase-from-env AH_PASS 2>&1) || wifi_fail "adhoc start: $out"
	# The second joins the IBSS the first started (started at once, each
	# would start its own and wait for their kernels to merge them).
	wifi_poll 20 "${IFS_[$k]} in the IBSS" sh -c "iw dev ${IFS_[$k]} link | grep -q 'Joined IBSS'"
done
wifi_poll 40 "${IFS_[0]}'s Peers naming ${MACS[1]}" names "${DEVS[0]}" "${MACS[1]}"
wifi_poll 10 "${IFS_[1]}'s Peers naming ${MACS[0]}" names "${DEVS[1]}" "${MACS[0]}"
{ authorized "${IFS_[0]}" "${MACS[1]}" && authorized "${IFS_[1]}" "${MACS[0]}"; } ||
	wifi_fail "the kernel has not authorised both: $(iw dev "${IFS_[0]}" station dump)"
check "two joind peers keyed each other both ways (RSN IBSS) in $(wifi_since "$T0") s"

for k in 0 1; do
	out=$("$JOINCTL" adhoc "${IFS_[$k]}" stop 2>&1) || wifi_fail "adhoc stop: $out"
	out=$("$JOINCTL" device mode "${IFS_[$k]}" station 2>&1) || wifi_fail "device mode: $out"
	[[ $(jprop "${DEVS[$k]}" Device1 Mode) == '"station"' ]] || wifi_fail "${IFS_[$k]} not a station"
done
check "both back in station mode"
