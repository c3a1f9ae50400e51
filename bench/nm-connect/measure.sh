# shellcheck shell=bash
# bench/nm-connect/measure.sh - how long NetworkManager 1.42 takes to get
# onto the fixture's WPA2-PSK network through the daemon that owns
# net.connman.iwd (joind's iwd-compat front end or iwd 2.3), in the test
# VM. Sourced by tests/wifi/cases/91-nm-differential.sh (after
# tests/wifi/lib.sh; run-all.sh's fixture up), which bench/nm-connect/run.sh
# boots for these figures alone.
#
#   nm_bench DAEMON ROUNDS   ROUNDS of each measurement against DAEMON
#                            (joind or iwd); appends its lines to
#                            $LOGDIR/nm-connect.txt and prints them
#
# Two figures, each the median of ROUNDS:
#   dev-wifi-connect  `nmcli dev wifi connect joind-wpa2 password P` started
#                     until the daemon's Station.State is "connected" (read
#                     with busctl every 50 ms: up to that much late); the
#                     command itself goes on to IP configuration, for which
#                     the scene has no DHCP server, so it is stopped there
#                     and the connection deleted (forgotten) for the next
#                     round
#   con-up            `nmcli con up` of a saved connection with IP off, until
#                     it returns (NetworkManager's device activated)
# Each round starts from a disconnected station that knows no network
# (dev-wifi-connect) or the saved one with autoconnect off (con-up).

nm_bench_median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }'; }

# Station.State "connected", read every 50 ms (wifi_poll's 200 ms would
# blur the figure).
nm_bench_wait_link() {
	local end=$(($(date +%s) + 60))
	until iwd_is "$IDEV" net.connman.iwd.Station State connected; do
		(($(date +%s) < end)) || wifi_fail "nmcli dev wifi connect: not connected within 60 s"
		sleep 0.05
	done
}

nm_bench_dev_connect() {
	local t pid
	t=$(wifi_now)
	nmcli -w 90 dev wifi connect joind-wpa2 password "$PASS" ifname wlan2 >/dev/null 2>&1 &
	pid=$!
	nm_bench_wait_link
	NM_BENCH_DEV+=("$(wifi_since "$t")")
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	nmcli con delete joind-wpa2 >/dev/null || wifi_fail "nmcli con delete joind-wpa2"
	iwd_wait 20 "$IDEV" net.connman.iwd.Station State disconnected
	nm_wait_state 30 30
}

nm_bench_con_up() {
	local t
	t=$(wifi_now)
	nmcli -w 60 con up jbench >/dev/null || wifi_fail "nmcli con up jbench"
	NM_BENCH_UP+=("$(wifi_since "$t")")
	nmcli -w 30 con down jbench >/dev/null || wifi_fail "nmcli con down jbench"
	iwd_wait 20 "$IDEV" net.connman.iwd.Station State disconnected
	nm_wait_state 30 30
}

nm_bench_print() {
	printf 'nm-connect %-5s %-16s median %5s s  (rounds: %s)\n' "$1" "$2" \
		"$(nm_bench_median "${@:3}")" "${*:3}" | tee -a "$LOGDIR/nm-connect.txt"
}

nm_bench() {
	local NM_DAEMON=$1 rounds=$2 i
	NM_BENCH_DEV=()
	NM_BENCH_UP=()
	nm_daemon_start
	nm_start
	nm_wait_state 60 30
	nmcli dev wifi rescan ifname wlan2 || true
	wifi_poll 60 "joind-wpa2 in NetworkManager's list" \
		sh -c 'nmcli -t -f SSID dev wifi list ifname wlan2 --rescan no | grep -qx joind-wpa2'
	for ((i = 0; i < rounds; i++)); do nm_bench_dev_connect; done
	nmcli con add type wifi con-name jbench ifname wlan2 ssid joind-wpa2 wifi-sec.key-mgmt wpa-psk \
		wifi-sec.psk "$PASS" connection.autoconnect no ipv4.method disabled \
		ipv6.method disabled >/dev/null || wifi_fail "nmcli con add jbench"
	for ((i = 0; i < rounds; i++)); do nm_bench_con_up; done
	nmcli con delete jbench >/dev/null || wifi_fail "nmcli con delete jbench"
	nm_cleanup
	nm_daemon_stop
	nm_bench_print "$NM_DAEMON" dev-wifi-connect "${NM_BENCH_DEV[@]}"
	nm_bench_print "$NM_DAEMON" con-up "${NM_BENCH_UP[@]}"
}
