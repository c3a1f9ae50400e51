# shellcheck shell=bash
# ap-lib.sh - helpers of the access point cases (55, 56), sourced by them:
# radios of their own in network namespaces of their own (so traffic
# between the AP and a client goes over the air), the AP room
# (tests/wifi/ap-room) on the first, wpa_supplicant on the others.
#
#   ap_setup NN CLIENTS    radios joindapNN, joindclNN_1.. in namespaces
#                          joind-apNN, joind-clNN_1..; sets APIF, CLIF[i]
#   ap_start ARGS...       ap-room APIF ARGS... (debug log in $AP_OUT);
#                          waits for "started"
#   ap_client I NET [GLOBAL]  wpa_supplicant on client I with network NET
#                          (and global settings GLOBAL)
#   ap_client_completed I  waits until client I's wpa_state is COMPLETED
#   ap_ping I              client I pings the AP (192.168.NN.1)
#   ap_cleanup             (an EXIT trap) stops and removes all of it

ap_ns_of() { if [[ $1 == ap ]]; then echo "joind-ap$AP_NN"; else echo "joind-cl${AP_NN}_$1"; fi; }
ap_in() { local ns; ns=$(ap_ns_of "$1"); shift; ip netns exec "$ns" "$@"; }
ap_cli() { local i=$1; shift; ap_in "$i" wpa_cli -p "$WORK/ap$AP_NN-ctrl-$i" -i "${CLIF[$i]}" "$@"; }

ap_radio() {
	local name=$1 ns=$2
	"$HWSIM_RADIO" add "$name" >/dev/null || wifi_fail "hwsim-radio add $name"
	ip netns add "$ns"
	iw phy "$name" set netns name "$ns" || wifi_fail "cannot move $name into $ns"
	ip netns exec "$ns" iw dev | awk '/Interface/ { print $2; exit }'
}

ap_setup() {
	AP_NN=$1
	AP_OUT=$LOGDIR/ap-room-$AP_NN.log
	AP_CLIENTS=$2
	trap ap_cleanup EXIT
	APIF=$(ap_radio "joindap$AP_NN" "$(ap_ns_of ap)")
	ap_in ap iw dev "$APIF" set type __ap || wifi_fail "iw set type __ap"
	ap_in ap ip link set "$APIF" up
	ap_in ap ip addr add "192.168.$AP_NN.1/24" dev "$APIF"
	CLIF=()
	for ((i = 1; i <= AP_CLIENTS; i++)); do
		CLIF[i]=$(ap_radio "joindcl${AP_NN}_$i" "$(ap_ns_of "$i")")
		ap_in "$i" ip link set "${CLIF[$i]}" up
		ap_in "$i" ip addr add "192.168.$AP_NN.$((i + 1))/24" dev "${CLIF[$i]}"
	done
}

ap_start() {
	# Not through ap_in: $! must be ap-room's own pid (ip and env exec it).
	ip netns exec "$(ap_ns_of ap)" env G_MESSAGES_DEBUG=joind-wifi \
		"$BUILD/tests/wifi/ap-room" "$APIF" "$@" >"$AP_OUT" 2>&1 &
	AP_PID=$!
	wifi_poll 20 "the AP beaconing" grep -q '^started ' "$AP_OUT"
}

ap_client() {
	local i=$1
	printf 'ctrl_interface=%s\n%s\nnetwork={\n%s\n}\n' "$WORK/ap$AP_NN-ctrl-$i" "${3:-}" "$2" \
		>"$WORK/ap$AP_NN-cl$i.conf"
	ap_in "$i" wpa_supplicant -B -i "${CLIF[$i]}" -c "$WORK/ap$AP_NN-cl$i.conf" \
		-P "$WORK/ap$AP_NN-cl$i.pid" -f "$LOGDIR/wpa_supplicant-$AP_NN-$i.log" -d ||
		wifi_fail "wpa_supplicant $i did not start"
}

ap_client_completed() {
	wifi_poll 20 "client $1 COMPLETED" sh -c "ip netns exec $(ap_ns_of "$1") wpa_cli \
		-p $WORK/ap$AP_NN-ctrl-$1 -i ${CLIF[$1]} status | grep -q '^wpa_state=COMPLETED'"
}

ap_ping() {
	ap_in "$1" ping -c 3 -W 3 "192.168.$AP_NN.1" >/dev/null ||
		wifi_fail "no ping from client $1 to the AP"
}

ap_stop() {
	kill "$AP_PID"
	wifi_poll 10 "the AP stopping" grep -q '^stopped' "$AP_OUT"
	grep -q 'started -> stopping (SIGTERM)' "$AP_OUT" ||
		wifi_fail "the AP stopped otherwise: $(grep 'stopping (' "$AP_OUT")"
	AP_PID=
}

ap_cleanup() {
	local i
	[[ -z ${AP_PID:-} ]] || kill "$AP_PID" 2>/dev/null || true
	for ((i = 1; i <= ${AP_CLIENTS:-0}; i++)); do
		[[ ! -s $WORK/ap$AP_NN-cl$i.pid ]] || kill "$(cat "$WORK/ap$AP_NN-cl$i.pid")" 2>/dev/null || true
		rm -f "$WORK/ap$AP_NN-cl$i.pid"
	done
	sleep 0.5
	# hwsim finds a radio by name only in the caller's namespace.
	ap_in ap "$HWSIM_RADIO" del "joindap$AP_NN" 2>/dev/null || true
	ip netns del "$(ap_ns_of ap)" 2>/dev/null || true
	for ((i = 1; i <= ${AP_CLIENTS:-0}; i++)); do
		ap_in "$i" "$HWSIM_RADIO" del "joindcl${AP_NN}_$i" 2>/dev/null || true
		ip netns del "$(ap_ns_of "$i")" 2>/dev/null || true
	done
	return 0
}
