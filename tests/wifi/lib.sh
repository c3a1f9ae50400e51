# tests/wifi/lib.sh - helpers for WiFi scenarios inside the test VM
# (sourced by run-all.sh, scripts/demo-wifi and bench/scan). Needs: BUILD
# (the build directory), LOGDIR (kept on the host), WORK (guest-only
# scratch, where the pid files live: a case runs in a subshell, so what it
# starts or stops must be found again from outside it).
#
#   wifi_now, wifi_since T         seconds of uptime; seconds since T
#   wifi_step TEXT                 timestamped progress line
#   wifi_fail TEXT                 print logs, exit 1
#   wifi_load_hwsim N              N radios; sets HWSIM_IFACES=(wlan0 ...)
#   wifi_start_hostapd NAME        config on stdin; waits until every BSS is
#                                  ENABLED; the control socket is
#                                  /run/hostapd-NAME
#   wifi_stop_hostapd NAME
#   wifi_start_bus                 private system bus with joind's policy
#   wifi_start_joind [--same-config]  main.conf on stdin (or the previous
#                                  one); waits for net.joind. Options in
#                                  JOIND_ARGS (default --debug), plugins in
#                                  JOIND_PLUGINS (default wifi,eap-*)
#   wifi_stop_joind                waits until joind has exited
#   wifi_start_agent LOG PASSPHRASE  an agent (tests/wired's wired-helper)
#                                  answering with PASSPHRASE; its requests
#                                  go to LOG
#   wifi_stop_agent
#   wifi_agent_call LOG PASSPHRASE PATH METHOD [ARG]
#                                  an agent (tests/wired's wired-helper)
#                                  answering with PASSPHRASE (its requests
#                                  go to LOG), which then calls
#                                  net.joind.METHOD on PATH itself (joind
#                                  asks the caller's own agent); TOOK: seconds
#   wifi_start_iwd_compat          joind restarted with iwd's D-Bus API
#                                  (plugins/iwd-compat, IwdCompatibility=
#                                  true) and its bus policy; waits for
#                                  net.connman.iwd; sets DEV
#   wifi_stop_iwd_compat           joind back as before, policy removed
#   jw ARGS...                     joind-wait (event-driven D-Bus waits)
#   jcall METHOD-ARGS...           gdbus call into net.joind
#   wifi_connect PATH NAME         Network1.Connect() on PATH, then the
#                                  station connected to it; TOOK: seconds
#                                  the call took
#   wifi_diag JQ-ARGS...           jq -e over Daemon1.GetDiagnostics()
#   wifi_station_json IFACE JQ-ARGS...  jq -e over
#                                  `joinctl --json station IFACE show`
#   log_count REGEX                matching lines in joind's log so far

: "${BUILD:?}" "${LOGDIR:?}" "${WORK:?}"
JOIND_WAIT=$BUILD/tests/wifi/joind-wait
HWSIM_RADIO=$BUILD/tests/wifi/hwsim-radio
JOIND_LOG=$LOGDIR/joind.log
mkdir -p "$LOGDIR" "$WORK"
WIFI_T0=$(cut -d' ' -f1 /proc/uptime)

wifi_now() { cut -d' ' -f1 /proc/uptime; }

# wifi_since T: seconds since T (a wifi_now reading), two decimals.
wifi_since() { awk -v a="$(wifi_now)" -v b="$1" 'BEGIN { printf "%.2f", a - b }'; }

wifi_step() {
	printf '[%7.2fs] %s\n' "$(wifi_since "$WIFI_T0")" "$*"
}

wifi_fail() {
	echo "FAIL: $*"
	for f in "$LOGDIR"/*.log; do
		[[ -s $f ]] || continue
		echo "----- $f (last 40 lines)"
		tail -n 40 "$f"
	done
	exit 1
}

# wifi_poll SECONDS WHAT COMMAND...: for the few facts that have no event
# (hostapd's state); polled by the harness only, never by joind.
wifi_poll() {
	local limit=$1 what=$2 end
	shift 2
	end=$(($(date +%s) + limit))
	until "$@" >/dev/null 2>&1; do
		(($(date +%s) < end)) || wifi_fail "timed out after ${limit}s: $what"
		sleep 0.2
	done
}

wifi_load_hwsim() {
	modprobe mac80211_hwsim radios="$1" || wifi_fail "modprobe mac80211_hwsim"
	wifi_poll 15 "$1 hwsim interfaces" test -e "/sys/class/net/wlan$(($1 - 1))"
	HWSIM_IFACES=()
	for ((i = 0; i < $1; i++)); do HWSIM_IFACES+=("wlan$i"); done
}

# Every interface of a hostapd config (interface= and bss=) is beaconing
# once iw reports an SSID on it in AP mode, and hostapd is done starting
# it once its control socket (where its section of the config names one:
# the lines before the first bss= are the first BSS's) says ENABLED: the
# kernel's side is up before hostapd has finished, and a hostapd stopped
# in between (97-sae-ap-restart) would hold its BSSes half started.
hostapd_all_enabled() {
	local conf=$1 info i ctrl
	while read -r i ctrl; do
		info=$(iw dev "$i" info 2>/dev/null) || return 1
		grep -q "type AP" <<<"$info" && grep -q "ssid" <<<"$info" || return 1
		[[ -z $ctrl ]] || hostapd_cli -p "$ctrl" -i "$i" status 2>/dev/null |
			grep -qx 'state=ENABLED' || return 1
	done < <(awk -F= 'BEGIN { n = 0 } $1 == "interface" && !n { name[0] = $2 }
		$1 == "bss" { name[++n] = $2 }
		$1 == "ctrl_interface" { ctrl[n] = $2 }
		END { for (i = 0; i <= n; i++) print name[i], ctrl[i] }' "$conf")
}

wifi_start_hostapd() {
	local name=$1 conf=$WORK/hostapd-$1.conf
	# A control socket for every BSS, not only the first (hostapd_cli
	# sta / deauthenticate address one BSS).
	{
		echo "ctrl_interface=/run/hostapd-$name"
		sed "/^bss=/a ctrl_interface=/run/hostapd-$name"
	} >"$conf"
	hostapd -B -P "$WORK/hostapd-$name.pid" -f "$LOGDIR/hostapd-$name.log" "$conf" ||
		wifi_fail "hostapd $name did not start"
	wifi_poll 30 "hostapd $name beaconing" hostapd_all_enabled "$conf"
}

# wifi_restart_hostapd NAME LOG TIMEOUT [OPTION...]: hostapd NAME stopped
# and started again on the configuration wifi_start_hostapd wrote (it
# forgets every station and PMKSA), logging to LOG, beaconing within
# TIMEOUT seconds.
wifi_restart_hostapd() {
	local name=$1 log=$2 tmo=$3 conf=$WORK/hostapd-$1.conf
	shift 3
	wifi_stop_hostapd "$name"
	sleep 1
	hostapd -B "$@" -P "$WORK/hostapd-$name.pid" -f "$log" "$conf" ||
		wifi_fail "hostapd $name did not start again"
	wifi_poll "$tmo" "hostapd $name beaconing" hostapd_all_enabled "$conf"
}

wifi_stop_hostapd() {
	local pid
	pid=$(cat "$WORK/hostapd-$1.pid" 2>/dev/null) || return 0
	rm -f "$WORK/hostapd-$1.pid"
	kill "$pid" 2>/dev/null || true
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

wifi_start_bus() {
	mkdir -p /run/dbus /etc/dbus-1/system.d
	# Debian's activation files would start a second daemon (iwd,
	# wpa_supplicant) on the first call; this root is a throw-away overlay.
	# Without polkit's, joind decides alone (every caller here is root);
	# tests/dbus/test-polkit.sh runs it with polkitd.
	rm -f /usr/share/dbus-1/system-services/net.connman.iwd.service \
		/usr/share/dbus-1/system-services/fi.w1.wpa_supplicant1.service \
		/usr/share/dbus-1/system-services/net.joind.service \
		/usr/share/dbus-1/system-services/org.freedesktop.PolicyKit1.service
	cp "$JOIND_SOURCE_ROOT/data/net.joind.conf" /etc/dbus-1/system.d/net.joind.conf
	dbus-daemon --system --fork --nopidfile --nosyslog --print-pid >"$WORK/dbus.pid" ||
		wifi_fail "dbus-daemon"
	wifi_poll 10 "the system bus" dbus-send --system --print-reply \
		--dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId
}

wifi_start_joind() {
	mkdir -p "$WORK/state"
	[[ ${1-} == --same-config ]] || cat >"$WORK/main.conf"
	# A sanitized build's joind gets its full options (vm-suite.sh hands the
	# test tools ASAN_OPTIONS without leak checks).
	# shellcheck disable=SC2086 # JOIND_ARGS is a list of options
	ASAN_OPTIONS=${JOIND_ASAN_OPTIONS:-${ASAN_OPTIONS-}} "$BUILD/core/joind" ${JOIND_ARGS---debug} --plugin-dir "$BUILD/plugins" \
		--plugins "${JOIND_PLUGINS:-wifi,eap-*}" \
		--config "$WORK/main.conf" --state-dir "$WORK/state" >>"$JOIND_LOG" 2>&1 &
	JOIND_PID=$!
	echo "$JOIND_PID" >"$WORK/joind.pid"
	jw -t 20 name || wifi_fail "joind did not take net.joind"
}

# A process that has exited (a zombie whose parent is gone counts).
wifi_pid_gone() {
	[[ ! -e /proc/$1 ]] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

wifi_stop_joind() {
	local pid
	pid=$(cat "$WORK/joind.pid" 2>/dev/null) || return 0
	rm -f "$WORK/joind.pid"
	kill "$pid" 2>/dev/null || true
	# Reaps it when this shell started it; joind started inside an earlier
	# case's subshell is only waited for.
	wait "$pid" 2>/dev/null || true
	wifi_poll 10 "joind ($pid) to exit" wifi_pid_gone "$pid"
	JOIND_PID=
}

# Restarts joind with the line $1 (KEY=VALUE) added to main.conf's
# [General] group; wifi_restart_joind_default puts the old file back and
# restarts again. Both set DEV to wlan2's device path.
wifi_restart_joind_with() {
	cp "$WORK/main.conf" "$WORK/main.conf.orig"
	sed "s/^\[General\]\$/[General]\n$1/" "$WORK/main.conf.orig" >"$WORK/main.conf"
	grep -qxF "$1" "$WORK/main.conf" || wifi_fail "main.conf has no [General] for $1"
	wifi_restart_joind_same
}

wifi_restart_joind_default() {
	mv "$WORK/main.conf.orig" "$WORK/main.conf"
	wifi_restart_joind_same
}

wifi_restart_joind_same() {
	wifi_stop_joind
	wifi_start_joind --same-config
	DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2 after the restart"
}

wifi_start_iwd_compat() {
	cp "$JOIND_SOURCE_ROOT/data/net.connman.iwd.conf" /etc/dbus-1/system.d/
	dbus-send --system --print-reply --dest=org.freedesktop.DBus / \
		org.freedesktop.DBus.ReloadConfig >/dev/null || wifi_fail "dbus-daemon did not reload"
	JOIND_PLUGINS="wifi,eap-*,iwd-compat" wifi_restart_joind_with IwdCompatibility=true
	wifi_poll 20 "joind to own net.connman.iwd" gdbus call --system --dest net.connman.iwd \
		--object-path /net/connman/iwd --method net.connman.iwd.Daemon.GetInfo
}

wifi_stop_iwd_compat() {
	wifi_restart_joind_default
	rm -f /etc/dbus-1/system.d/net.connman.iwd.conf
}

jw() { "$JOIND_WAIT" "$@"; }

jcall() { gdbus call --system --dest net.joind "$@"; }

# wifi_disconnect [TIMEOUT]: Station1.Disconnect() on $DEV, then the station
# says disconnected within TIMEOUT seconds (10).
wifi_disconnect() {
	jcall --object-path "$DEV" --method net.joind.Station1.Disconnect >/dev/null ||
		wifi_fail "Disconnect() failed"
	jw -t "${1:-10}" object net.joind.Station1 State=disconnected >/dev/null ||
		wifi_fail "not disconnected after Disconnect()"
}

wifi_agent_call() {
	local log=$1 pass=$2 t
	shift 2
	t=$(wifi_now)
	DBUS_SESSION_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket \
		timeout 120 "$BUILD/tests/wired/wired-helper" agent --passphrase "$pass" \
		--call "$@" >"$log" 2>&1 || wifi_fail "$2 on $1: $(cat "$log")"
	TOOK=$(wifi_since "$t")
}

wifi_connect() {
	local t
	t=$(wifi_now)
	jcall --object-path "$1" --method net.joind.Network1.Connect >/dev/null ||
		wifi_fail "Connect() $2 failed"
	TOOK=$(wifi_since "$t")
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$1" >/dev/null ||
		wifi_fail "$2: State is not connected / ConnectedNetwork is not $1"
}

wifi_diag() {
	"$BUILD/client/joinctl" daemon diagnostics | jq -e "$@"
}

wifi_station_json() {
	local iface=$1
	shift
	"$BUILD/client/joinctl" --json station "$iface" show | jq -e "$@"
}

log_count() { grep -cE "$1" "$JOIND_LOG" || true; }

# The D-Bus path of the device for an interface name.
wifi_device_path() {
	jw -t "${2:-20}" object net.joind.Device1 "Name=$1" | head -n 1
}

# ---- NetworkManager over iwd's D-Bus API -----------------------------------
# The same NetworkManager scenarios run against joind's front end
# (plugins/iwd-compat) and against the real iwd 2.3: NM_DAEMON=joind
# (default) or iwd picks the daemon that owns net.connman.iwd, and the
# checks read net.connman.iwd (what both export) and nmcli -t.
#
#   nm_daemon_start                the daemon on wlan2, owning
#                                  net.connman.iwd; sets NM_STATE_DIR
#                                  (its StateDirectory) and IDEV (wlan2's
#                                  Device/Station path)
#   nm_daemon_restart              stops it and starts it again
#   nm_daemon_stop                 joind back as the fixture had it
#   nm_start                       udev (once), then NetworkManager with
#                                  wifi.backend=iwd, only wlan2 managed
#   nm_stop [SIGNAL], nm_cleanup   NetworkManager stopped (SIGTERM: it
#                                  disconnects WiFi first); cleanup also
#                                  stops udev and removes NetworkManager's
#                                  files and connections
#   nm_state                       wlan2's device state number in
#                                  NetworkManager (30 disconnected, 100
#                                  activated, ...)
#   nm_wait_state SECONDS STATE [CONNECTION]
#   iwd_get PATH IFACE PROP        a property's value, as busctl's JSON
#                                  prints it (strings unquoted)
#   iwd_wait SECONDS PATH IFACE PROP VALUE
#   iwd_hex TEXT                   iwd's path element for an SSID
NM_DAEMON=${NM_DAEMON:-joind}
NM_LOG=$LOGDIR/nm.log
IWD_LOG=$LOGDIR/iwd.log

iwd_get() {
	busctl --system --json=short get-property net.connman.iwd "$1" "$2" "$3" 2>/dev/null |
		jq -r .data
}

iwd_is() { [[ $(iwd_get "$1" "$2" "$3") == "$4" ]]; }

iwd_wait() {
	wifi_poll "$1" "$3.$4 of $2 to be $5" iwd_is "$2" "$3" "$4" "$5"
}

iwd_hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

nm_wlan2_path() {
	echo "/net/connman/iwd/$(cat /sys/class/net/wlan2/phy80211/index)/$(cat /sys/class/net/wlan2/ifindex)"
}

# iwd 2.3 with a configuration and state of its own, on wlan2 only: it
# keeps the interface (UseDefaultInterface), so joind finds it again.
nm_iwd_start() {
	mkdir -p "$WORK/iwd-state" "$WORK/iwd-conf"
	printf '[General]\nUseDefaultInterface=true\n[DriverQuirks]\nDefaultInterface=*\n' \
		>"$WORK/iwd-conf/main.conf"
	STATE_DIRECTORY=$WORK/iwd-state CONFIGURATION_DIRECTORY=$WORK/iwd-conf \
		/usr/libexec/iwd -i wlan2 -p "$(cat /sys/class/net/wlan2/phy80211/name)" \
		>>"$IWD_LOG" 2>&1 &
	echo $! >"$WORK/iwd.pid"
	NM_STATE_DIR=$WORK/iwd-state
}

nm_iwd_stop() {
	local pid
	pid=$(cat "$WORK/iwd.pid" 2>/dev/null) || return 0
	rm -f "$WORK/iwd.pid"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	wifi_poll 10 "iwd ($pid) to exit" wifi_pid_gone "$pid"
}

nm_daemon_start() {
	if [[ $NM_DAEMON == iwd ]]; then
		wifi_stop_joind
		rm -rf "$WORK/iwd-state"
		nm_iwd_start
	else
		wifi_start_iwd_compat
		NM_STATE_DIR=$WORK/state
	fi
	IDEV=$(nm_wlan2_path)
	# Under a loaded TCG host iwd takes tens of seconds to set the radio up.
	iwd_wait 90 "$IDEV" net.connman.iwd.Station State disconnected
}

nm_daemon_restart() {
	if [[ $NM_DAEMON == iwd ]]; then
		nm_iwd_stop
		nm_iwd_start
	else
		JOIND_PLUGINS="wifi,eap-*,iwd-compat" wifi_restart_joind_same
	fi
}

nm_daemon_stop() {
	if [[ $NM_DAEMON == iwd ]]; then
		nm_iwd_stop
		rm -rf "$WORK/iwd-state" "$WORK/iwd-conf"
		wifi_start_joind --same-config
		DEV=$(wifi_device_path wlan2) || wifi_fail "no device for wlan2 after iwd"
	else
		wifi_stop_iwd_compat
	fi
}

nm_start() {
	wifi_step "starting NetworkManager"
	if ! udevadm control --ping 2>/dev/null; then
		/lib/systemd/systemd-udevd --daemon || wifi_fail "systemd-udevd"
		# wlan2 alone: NetworkManager ignores the interfaces udev has not
		# seen, and each takes seconds under TCG.
		udevadm trigger --action=add --subsystem-match=net --sysname-match=wlan2 ||
			wifi_fail "udevadm trigger"
		udevadm settle -t 60 || wifi_fail "udevadm settle"
	fi
	mkdir -p /etc/NetworkManager/conf.d /run/NetworkManager /var/lib/NetworkManager
	printf '%s\n' '[main]' 'auth-polkit=false' 'plugins=keyfile' '[keyfile]' \
		'unmanaged-devices=except:interface-name:wlan2' '[device]' 'wifi.backend=iwd' \
		>/etc/NetworkManager/conf.d/joind-test.conf
	# NetworkManager's radio switch soft-blocks every WLAN radio through
	# /dev/rfkill, the access points' too: in a mount namespace of its own
	# it writes to /dev/null instead, and turns the radio off over iwd's
	# API alone (Device.Powered), which is what is under test.
	unshare -m sh -c 'mount --bind /dev/null /dev/rfkill &&
		exec NetworkManager --no-daemon --debug --log-level=INFO' >>"$NM_LOG" 2>&1 &
	echo $! >"$WORK/nm.pid"
	wifi_poll 60 "NetworkManager on the bus" nmcli -t general status
	wifi_step "NetworkManager on the bus"
	wifi_poll 60 "NetworkManager to see wlan2 through iwd's API" \
		sh -c 'nmcli -t -f DEVICE,TYPE dev | grep -qx "wlan2:wifi"'
	nmcli dev set wlan2 managed yes || wifi_fail "nmcli dev set wlan2 managed yes"
}

nm_stop() {
	local pid
	pid=$(cat "$WORK/nm.pid" 2>/dev/null) || return 0
	rm -f "$WORK/nm.pid"
	kill "-${1:-TERM}" "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	wifi_poll 20 "NetworkManager ($pid) to exit" wifi_pid_gone "$pid"
}

nm_cleanup() {
	nm_stop
	rm -rf /etc/NetworkManager/conf.d/joind-test.conf /etc/NetworkManager/system-connections/* \
		/var/lib/NetworkManager/* /run/NetworkManager/*
	udevadm control --exit 2>/dev/null || true
	nm_iwd_stop
	rm -rf "$WORK/iwd-state" "$WORK/iwd-conf"
}

nm_state() { nmcli -g GENERAL.STATE dev show wlan2 2>/dev/null | cut -d' ' -f1; }

# STATE reached (and, when given, CONNECTION the one active on wlan2).
nm_is() {
	[[ $(nm_state) == "$1" ]] || return 1
	[[ -z ${2-} || $(nmcli -g GENERAL.CONNECTION dev show wlan2) == "$2" ]]
}

nm_wait_state() {
	wifi_poll "$1" "NetworkManager's wlan2 in state $2 ${3-}" nm_is "$2" "${3-}"
}
