# shellcheck shell=bash
# 95-soak.sh - a day of use, shortened (suite 'soak', on demand): Connect()
# and Disconnect() in turn across the fixture's WPA2-PSK and WPA3-SAE
# networks and the enterprise AP's PEAP/MSCHAPv2 one (eap-ap.sh), hostapd
# "a" restarted and a radio plugged and unplugged between them, then joind
# left alone, connected. Asserts:
#   - every cycle connects (State=connected on the network asked for);
#   - nothing is lost: the three known networks are still known with
#     AutoConnect=true, and a restarted joind joins one by itself;
#   - joind's anonymous memory (smaps_rollup) at the end within 5 % of
#     what it was after the warm-up cycles (not under ASan, see below), and
#     no more open descriptors;
#   - idle: no context switch of any of joind's threads over the window.
#   - under ASan+UBSan (a build directory configured with
#     -Db_sanitize=address,undefined: its test environment carries the
#     sanitizer options, vm-suite.sh hands them on): joind stopped at the
#     end exits 0 and its log holds no sanitizer report (LeakSanitizer runs
#     at that exit).
# Counts (environment; the defaults are the issue's full size):
#   JOIND_SOAK_CYCLES=300 JOIND_SOAK_WARM=50 JOIND_SOAK_AP_RESTARTS=50
#   JOIND_SOAK_UNPLUGS=50 JOIND_SOAK_IDLE=600 (seconds)
# Each figure is printed as a "soak:" line. Every wait is a generous
# JOIND_SOAK_WAIT seconds (default 180): the soak runs long on a shared,
# loaded host under TCG, and measures no time.

cycles=${JOIND_SOAK_CYCLES:-300}
warm=${JOIND_SOAK_WARM:-50}
restarts=${JOIND_SOAK_AP_RESTARTS:-50}
unplugs=${JOIND_SOAK_UNPLUGS:-50}
idle=${JOIND_SOAK_IDLE:-600}
tmo=${JOIND_SOAK_WAIT:-180}
((warm < cycles)) || wifi_fail "JOIND_SOAK_WARM ($warm) must be below JOIND_SOAK_CYCLES ($cycles)"
names=(joind-wpa2 joind-sae joind-ent)
files=(joind-wpa2.psk joind-sae.psk joind-ent.8021x)
# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"

soak_anon_kib() { awk '/^Anonymous:/ { print $2 }' "/proc/$1/smaps_rollup"; }
soak_fds() { find "/proc/$1/fd" -mindepth 1 | wc -l; }
# Context switches of every thread of $1 (voluntary and not).
soak_switches() {
	cat /proc/"$1"/task/*/status | awk '/ctxt_switches:/ { n += $2 } END { print n }'
}

# hostapd "a" (run-all.sh's config, kept in $WORK) stopped and started
# again: it forgets every station and PMKSA. The next cycle's Connect()
# finds it (the network may have gone from the list meanwhile and come
# back: soak_cycle waits for it).
soak_restart_ap() { wifi_restart_hostapd a "$LOGDIR/hostapd-a.log" "$tmo" -t; }

# A radio plugged in: it gets a device that scans; unplugged: it is gone.
soak_replug() {
	local dev
	"$HWSIM_RADIO" add joindsoak >/dev/null || wifi_fail "unplug $1: hwsim-radio add"
	dev=$(jw -t "$tmo" count 2 net.joind.Device1 Kind=wifi | grep -v "^$DEV$") ||
		wifi_fail "unplug $1: no device for the plugged radio"
	jw -t "$tmo" object $NET "Device=$dev" Name=joind-open >/dev/null ||
		wifi_fail "unplug $1: the plugged radio's station found no networks"
	"$HWSIM_RADIO" del joindsoak || wifi_fail "unplug $1: hwsim-radio del"
	jw -t "$tmo" count 1 net.joind.Device1 Kind=wifi >/dev/null ||
		wifi_fail "unplug $1: the unplugged radio's device stayed"
}

# Connect() in cycle $1 to network $2 at path $3. The kernel gives an
# access point 3 x 100 ms to answer an open system authentication frame;
# joind (as iwd) fails the Connect() when none came and the network has no
# other access point. Earlier soaks met it on the first SAE Connect() after
# each hostapd restart: the cached PMKSA's open system authentication, which
# the restarted hostapd on a loaded host answered too late ("did not
# acknowledge authentication response"); joind now runs SAE after it
# (97-sae-ap-restart makes that case on purpose). Open and PSK networks
# keep the short wait: a client would call again, and so does the soak,
# twice at most, counting each in "silent" and printing the count.
# An SAE access point whose BSS the kernel dropped (its authentication timed
# out, or it was not seen for 30 s) is no excuse: joind scans for it again
# (connect-rescan.c), and a Connect() failing on it fails the soak.
soak_connect() {
	local out try
	for ((try = 1; ; try++)); do
		out=$(jcall --timeout "$tmo" --object-path "$3" --method $NET.Connect 2>&1 >/dev/null) &&
			return 0
		[[ $out == *"did not answer (authentication)"* ]] && ((try < 3)) ||
			wifi_fail "cycle $1: Connect() $2 failed: $out"
		silent=$((silent + 1))
		wifi_step "soak: cycle $1: $2's access point did not answer the authentication; Connect() again"
	done
}

# Connect() to network $2 (index into names), then Disconnect().
soak_cycle() {
	local name=${names[$2]} net
	net=$(jw -t "$tmo" object $NET "Device=$DEV" "Name=$name" 'KnownNetwork!=/') ||
		wifi_fail "cycle $1: $name is not listed as known"
	soak_connect "$1" "$name" "$net"
	jw -t "$tmo" object net.joind.Station1 State=connected "ConnectedNetwork=$net" >/dev/null ||
		wifi_fail "cycle $1: not connected to $name"
	jcall --timeout "$tmo" --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "cycle $1: Disconnect() failed"
	jw -t "$tmo" object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "cycle $1: not disconnected from $name"
}

# Under the sanitizers: joind, this case's child since the restart, stopped
# and waited for (LeakSanitizer runs at its exit, and abort_on_error makes
# any report a SIGABRT); the whole boot's joind log must hold no report.
# Then a fresh one again (profiles gone, so it stays disconnected), as the
# suite expects every case to leave it.
soak_sanitized_exit() {
	local rc=0
	rm -f "$WORK/joind.pid"
	kill "$pid"
	wait "$pid" || rc=$?
	wifi_step "soak: sanitized joind ($pid) exited with status $rc at the end"
	((rc == 0)) || wifi_fail "the sanitized joind exited with status $rc (see $JOIND_LOG)"
	! grep -E 'ERROR: (Address|Leak)Sanitizer|SUMMARY: UndefinedBehaviorSanitizer|runtime error:' \
		"$JOIND_LOG" || wifi_fail "a sanitizer report in $JOIND_LOG"
	check "under ASan+UBSan: joind exited 0 and its log holds no sanitizer report"
	wifi_start_joind --same-config
	DEV=$(wifi_device_path wlan2 "$tmo") || wifi_fail "no device for wlan2 after the restart"
}

# Sanitized: vm-suite.sh hands the test tools ASAN_OPTIONS without leak
# checks (they are short-lived and free nothing at exit) and joind's own
# in JOIND_ASAN_OPTIONS, which wifi_start_joind gives joind.
sanitized=0 silent=0
if ldd "$BUILD/core/joind" | grep -q libasan; then
	[[ -n ${JOIND_ASAN_OPTIONS-} ]] ||
		wifi_fail "a sanitized joind without JOIND_ASAN_OPTIONS: run it through meson test"
	sanitized=1
fi

# The enterprise AP first, listed before any profile is there: once the
# profiles are, joind autoconnects and a connected station scans no more.
ent_setup
# wlan6's name is free again with its phy in the namespace: a plugged radio
# would take it, and joind leaves wlan6* alone. Held by a dummy meanwhile,
# removed however the case ends (the reset after a failure moves the phy
# back as wlan6).
ip link add wlan6 type dummy
# The kernel's view beside joind's log and hostapd's: every nl80211 event
# with its time, the frames of authentication and association included.
iw event -t -f >"$LOGDIR/iw-event.log" 2>&1 &
iw_pid=$!
trap 'ip link del wlan6 type dummy 2>/dev/null || true; kill $iw_pid 2>/dev/null || true' EXIT
jw -t "$tmo" object $NET "Device=$DEV" Name=joind-ent >/dev/null || wifi_fail "joind-ent not listed"
(
	umask 077
	printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/joind-wpa2.psk"
	printf '[Security]\nPassphrase=%s\n' "$PASS" >"$WORK/state/joind-sae.psk"
)
ENT_AUTOCONNECT=true ENT_WAIT=$tmo ent_peap_profile joind-ent peappass
# joind may autoconnect to one of them meanwhile: the first Connect()
# takes over, and each Disconnect() turns autoconnect off until the next.
for name in "${names[@]}"; do
	jw -t "$tmo" object $NET "Device=$DEV" "Name=$name" 'KnownNetwork!=/' >/dev/null ||
		wifi_fail "$name not linked to its profile"
done

pid=$(cat "$WORK/joind.pid")
t=$(wifi_now)
n_restarts=0 n_unplugs=0
# The restarts and unplugs spread evenly, all of them by the last cycle
# (every sixth cycle at the defaults; at most one of each a cycle).
for ((cycle = 1; cycle <= cycles; cycle++)); do
	soak_cycle "$cycle" $((cycle % 3))
	if ((cycle * restarts / cycles > n_restarts)); then
		soak_restart_ap "$cycle"
		n_restarts=$((n_restarts + 1))
	fi
	if ((cycle * unplugs / cycles > n_unplugs)); then
		soak_replug "$cycle"
		n_unplugs=$((n_unplugs + 1))
	fi
	if ((cycle == warm)); then
		warm_anon=$(soak_anon_kib "$pid") warm_fds=$(soak_fds "$pid")
		wifi_step "soak: after $warm cycles ($(wifi_since "$t") s): Anonymous ${warm_anon} kB, $warm_fds fds"
	fi
	((cycle % 25 != 0)) || wifi_step "soak: $cycle of $cycles cycles, $n_restarts AP restarts, $n_unplugs unplugs, $(wifi_since "$t") s"
done
end_anon=$(soak_anon_kib "$pid") end_fds=$(soak_fds "$pid")
growth=$(awk -v a="$end_anon" -v w="$warm_anon" 'BEGIN { printf "%.2f", (a - w) * 100 / w }')
wifi_step "soak: $cycles cycles ($n_restarts AP restarts, $n_unplugs unplugs, $silent Connect() calls again after a silent access point) in $(wifi_since "$t") s; Anonymous ${warm_anon} -> ${end_anon} kB (${growth} %), fds $warm_fds -> $end_fds"
check "$cycles Connect()/Disconnect() cycles over PSK, SAE and 802.1X, $n_restarts AP restarts, $n_unplugs radio unplugs: every one connected"
# ASan's quarantine holds freed memory back (up to 256 MiB) and its
# allocator pads every block: anonymous memory says nothing about joind
# there, so a sanitized run prints it and bounds only the descriptors.
((sanitized)) || awk -v g="$growth" 'BEGIN { exit !(g <= 5) }' ||
	wifi_fail "anonymous memory grew ${growth} % after the warm-up (bound 5 %)"
((end_fds <= warm_fds)) || wifi_fail "open descriptors grew from $warm_fds to $end_fds"
check "after the warm-up: anonymous memory ${growth} % ($( ((sanitized)) && echo "not bounded under ASan" || echo "bound 5 %")), descriptors $warm_fds -> $end_fds"

# Nothing lost: every profile there, still AutoConnect=true, and a joind
# started afresh on this state joins one of them by itself.
for ((k = 0; k < 3; k++)); do
	[[ -s $WORK/state/${files[$k]} ]] || wifi_fail "${files[$k]} is gone"
	jw -t "$tmo" object net.joind.KnownNetwork1 "Name=${names[$k]}" AutoConnect=true >/dev/null ||
		wifi_fail "${names[$k]} is no longer known with AutoConnect=true"
done
wifi_restart_joind_same
pid=$(cat "$WORK/joind.pid")
jw -t "$tmo" object net.joind.Station1 State=connected >/dev/null ||
	wifi_fail "the restarted joind did not join a known network by itself"
check "nothing lost: 3 known networks with AutoConnect=true; restarted, joind joined one by itself"

# Idle: connected, nobody calling. The first seconds settle (the connection's
# own follow-ups), then every thread's context switches are counted.
sleep 10
before=$(soak_switches "$pid")
sleep "$idle"
after=$(soak_switches "$pid")
wifi_step "soak: idle ${idle} s, connected: $((after - before)) context switches of joind's threads"
((after == before)) || wifi_fail "joind woke $((after - before)) times in $idle s idle"
check "idle $idle s: 0 wakeups"

jcall --timeout "$tmo" --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
	wifi_fail "the last Disconnect() failed"
jw -t "$tmo" object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "not disconnected at the end"
rm -f "$WORK/state/joind-wpa2.psk" "$WORK/state/joind-sae.psk" "$WORK/state/joind-ent.8021x"
((!sanitized)) || soak_sanitized_exit
ip link del wlan6 type dummy
ent_teardown
