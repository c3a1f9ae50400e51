# shellcheck shell=bash
# 97-sae-ap-restart.sh - the first SAE Connect() after the access point
# restarted (on demand, suite 'wifi-matrix'): joind holds the PMKSA of its
# last SAE link to hostapd "a"'s joind-sae, the restarted hostapd has
# forgotten it. Each round: Connect() (SAE, then the PMKSA cached),
# Disconnect(), hostapd "a" stopped and started again as 95-soak does,
# and Connect() once more, which must join on its first call. The
# restarted hostapd logs at -dd with timestamps and `iw event -t` runs
# beside it ($LOGDIR/hostapd-a-restart.log, $LOGDIR/iw-event.log).
# Then once more with the restarted hostapd stalled past the kernel's
# window for the PMKSA attempt's open system authentication (below).
# Rounds: JOIND_SAE_RESTARTS (3).

rounds=${JOIND_SAE_RESTARTS:-3}
net=$(jw -t 60 object $NET "Device=$DEV" Name=joind-sae) || wifi_fail "joind-sae not listed"
(
	umask 077
	printf '[Security]\nPassphrase=%s\n[Settings]\nAutoConnect=false\n' "$PASS" \
		>"$WORK/state/joind-sae.psk"
)
jw -t 10 object $NET "Device=$DEV" Name=joind-sae 'KnownNetwork!=/' >/dev/null ||
	wifi_fail "joind-sae: the profile was not picked up"
iw event -t -f >"$LOGDIR/iw-event.log" 2>&1 &
iw_pid=$!
hostapd_pid=
trap 'kill $iw_pid 2>/dev/null || true; [[ -z $hostapd_pid ]] || kill -CONT $hostapd_pid 2>/dev/null || true' EXIT

# The rounds' hostapd logs at -dd with timestamps, the last one's not.
restart_ap() { wifi_restart_hostapd a "$LOGDIR/hostapd-a-restart.log" 60 "$@"; }

wifi_connect "$net" joind-sae
wifi_disconnect 20
for ((r = 1; r <= rounds; r++)); do
	wifi_connect "$net" joind-sae
	wifi_disconnect 20
	restart_ap -dd -t
	wifi_step "round $r: hostapd a restarted"
	wifi_connect "$net" joind-sae
	wifi_step "round $r: the first Connect() after the restart joined in $TOOK s"
	wifi_disconnect 20
done
check "$rounds hostapd restarts: the first SAE Connect() after each joined"

# The soak's symptom on a loaded host, made on purpose: the restarted
# hostapd stalled (SIGSTOP) while joind offers the cached PMKSA. The open
# system authentication has mac80211's three tries of 100 ms each; once
# the kernel reports it unanswered (iw event: "auth: timed out", the proof
# that the stall happened) hostapd goes on. The Connect() must still join
# (SAE, which hostapd answers once it runs again).
wifi_connect "$net" joind-sae
wifi_disconnect 20
restart_ap -dd -t
# A scan while hostapd was down has dropped joind-sae from the list: two
# scans (the first may join one begun before the restart), so that the
# Connect() below finds it listed, with the access point up, stalled.
for i in 1 2; do
	jcall --timeout 30 --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null ||
		wifi_fail "Scan() after the restart failed"
done
jw -t 10 object $NET "Device=$DEV" Name=joind-sae >/dev/null ||
	wifi_fail "joind-sae: not listed again after the restart"
hostapd_pid=$(cat "$WORK/hostapd-a.pid")
timeouts=$(grep -c "auth: timed out" "$LOGDIR/iw-event.log" || true)
kill -STOP "$hostapd_pid"
t=$(wifi_now)
jcall --timeout 60 --object-path "$net" --method $NET.Connect >"$WORK/connect.out" 2>&1 &
connect_pid=$!
stalled() {
	kill -0 "$connect_pid" 2>/dev/null ||
		wifi_fail "Connect() ended before the stall: $(cat "$WORK/connect.out")"
	(($(grep -c "auth: timed out" "$LOGDIR/iw-event.log" || true) > timeouts))
}
wifi_poll 60 "the open system authentication unanswered" stalled
kill -CONT "$hostapd_pid"
hostapd_pid=
wait "$connect_pid" || wifi_fail "Connect() after the stall failed: $(cat "$WORK/connect.out")"
TOOK=$(wifi_since "$t")
jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
	wifi_fail "joind-sae: not connected after the stall"
check "hostapd stalled past the open system authentication: Connect() joined in $TOOK s (SAE after the unanswered PMKSA attempt)"
wifi_disconnect 20
rm -f "$WORK/state/joind-sae.psk"
restart_ap
