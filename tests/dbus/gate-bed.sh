# gate-bed.sh - sourced by the permission tests (test-permission-gate.sh,
# test-polkit.sh): joind as root on a private system-style bus, in a
# network and mount namespace of its own with a veth pair (so that device
# and port objects are on the bus too), called by users made for the test.
# The caller sets `set -euo pipefail` and calls, in order:
#   bed_enter "$@"                re-runs the script in the namespaces
#   bed_user NAME [GROUP,...]     a user made for the test (removed after)
#   bed_group NAME                a group made for the test (removed after)
#   bed_bus_conf EXTRA-XML        writes $tmp/bus.conf
#   bed_start_bus; bed_start_joind
# then as_user, surface, call_as. $tmp is the scratch directory (0755),
# $tmp/state joind's state directory; pids+=() are killed at exit.

fail() { echo "FAIL: $*" >&2; exit 1; }

bed_enter() {
    [ "$(id -u)" = 0 ] || exit 77
    if [ -z "${GATE_NETNS:-}" ]; then
        exec unshare --net --mount env GATE_NETNS=1 "$0" "$@"
    fi
    mount --make-rprivate /
    mount -t sysfs sysfs /sys
    ip link add gate0 type veth peer name gate1
    ip link set gate0 up
    ip link set gate1 up
    for tool in dbus-daemon setpriv useradd userdel groupadd groupdel gdbus unshare ip; do
        command -v "$tool" >/dev/null || fail "$tool is missing"
    done
    build=${JOIND_BUILD_ROOT:?}
    src=${JOIND_SOURCE_ROOT:?}
    tmp=$(mktemp -d)
    chmod 755 "$tmp"
    pids=()
    bed_iwd=
    bed_users=()
    bed_groups=()
    trap bed_cleanup EXIT
}

bed_cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    for user in "${bed_users[@]}"; do userdel "$user" 2>/dev/null || true; done
    for group in "${bed_groups[@]}"; do groupdel "$group" 2>/dev/null || true; done
    rm -rf "$tmp"
}

bed_group() {
    getent group "$1" >/dev/null && return
    groupadd --system "$1"
    bed_groups+=("$1")
}

bed_user() {
    local groups=()
    [ -z "${2:-}" ] || groups=(-G "$2")
    useradd --no-create-home --shell /usr/sbin/nologin "${groups[@]}" "$1"
    bed_users+=("$1")
}

# The parts of a distribution's system.conf that matter: everything denied
# unless a policy file punches a hole; the shipped policy of joind, then
# EXTRA (policies or service directories of the test's own).
bed_bus_conf() {
    cat >"$tmp/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$tmp/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Introspectable"/>
  </policy>
  <include>$src/data/net.joind.conf</include>
  ${bed_iwd:+<include>$src/data/net.connman.iwd.conf</include>}
  $1
</busconfig>
CONF
}

bed_start_bus() {
    dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile 2>"$tmp/bus.log" &
    pids+=($!)
    export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/bus"
    for _ in $(seq 100); do [ -S "$tmp/bus" ] && break; sleep 0.1; done
    mkdir -m 700 "$tmp/state"
}

name_has_owner() {
    gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1" | grep -q true
}

# Profiles and state.json go in $tmp/state first; main.conf, if any, in
# $tmp/main.conf (bed_iwd_front_end writes one).
bed_start_joind() {
    local config=/dev/null name
    [ ! -f "$tmp/main.conf" ] || config=$tmp/main.conf
    "$build/core/joind" --debug --state-dir="$tmp/state" --config="$config" \
        --plugin-dir="$JOIND_PLUGIN_DIR" 2>"$tmp/joind.log" &
    pids+=($!)
    bed_joind_pid=$!
    for name in net.joind ${bed_iwd:+net.connman.iwd}; do
        for _ in $(seq 100); do
            name_has_owner "$name" && break
            sleep 0.1
        done
        name_has_owner "$name" || fail "joind did not take $name: $(cat "$tmp/joind.log")"
    done
}

# The iwd front end on as well (before bed_bus_conf: its bus policy is the
# shipped one).
bed_iwd_front_end() {
    bed_iwd=1
    printf '[General]\nIwdCompatibility=true\n' >"$tmp/main.conf"
}

# joind's anonymous memory in kB (smaps_rollup: /proc/PID/status lags).
rss_anon() { awk '/^Anonymous:/ { print $2 }' "/proc/$bed_joind_pid/smaps_rollup"; }

# front-ends-load CLIENTS CALLS as each of USERS at the same time; fails on
# a single refusal or error.
bed_load_run() {
    local clients=$1 calls=$2 user pid status=0 load=()
    shift 2
    for user in "$@"; do
        as_user "$user" "$build/tests/dbus/front-ends-load" "$clients" "$calls" \
            >"$tmp/load-$user" 2>&1 &
        load+=($!)
    done
    for pid in "${load[@]}"; do wait "$pid" || status=1; done
    for user in "$@"; do echo "$user: $(cat "$tmp/load-$user")"; done
    [ $status = 0 ] || fail "calls were refused or failed with both front ends busy"
}

# Both front ends busy at once: bed_load_run CLIENTS CALLS USERS...
# $BED_LOAD_CLIENTS and $BED_LOAD_CALLS replace the counts (the load
# figures of the README: 50 and 1000); then a first run of the same size
# warms joind up and joind's anonymous memory is printed before, after the
# warm-up and after the load. The warm-up is the load itself: one of 70
# calls a client left joind 12.6 % below the size the full load takes it
# to once (2 x 50 x 1000: 2060 kB after 70 calls, 2320 kB after the first
# round and after each of three more, to the kB).
# $BED_LOAD_ROUNDS (default 1) runs the load that many times in a row, the
# memory printed after each: a leak grows with every round, a high-water
# mark (malloc's arenas, GLib's caches at the load's size) with the first.
bed_load_front_ends() {
    local clients=${BED_LOAD_CLIENTS:-$1} calls=${BED_LOAD_CALLS:-$2} rss0 rss1 rss2 round
    local after=""
    shift 2
    rss0=$(rss_anon)
    [ -z "${BED_LOAD_CLIENTS:-}" ] || bed_load_run "$clients" "$calls" "$@" >/dev/null
    rss1=$(rss_anon)
    for round in $(seq "${BED_LOAD_ROUNDS:-1}"); do
        bed_load_run "$clients" "$calls" "$@"
        rss2=$(rss_anon)
        after="$after, ${rss2} kB after round $round"
    done
    echo "joind anonymous memory: ${rss0} kB at start, ${rss1} kB warm${after};" \
        "$# x $clients clients x $calls calls a round" \
        "(growth over warm $(awk -v a="$rss2" -v w="$rss1" 'BEGIN { printf "%.1f", (a - w) * 100 / w }') %)"
}

as_user() {
    local user=$1
    shift
    if [ "$user" = root ]; then
        "$@"
        return
    fi
    setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups \
        env DBUS_SYSTEM_BUS_ADDRESS="$DBUS_SYSTEM_BUS_ADDRESS" "$@"
}

# Every method and writable property of joind's objects, one per line:
# "PATH INTERFACE method NAME IN-SIGNATURE" or "PATH INTERFACE set NAME TYPE";
# Forget last, as it removes its object.
surface() {
    gdbus introspect --system --dest net.joind --object-path /net/joind --recurse |
        awk '
        /^ *node \// { path = $2 }
        /^ *interface net\.joind\./ { iface = $2 }
        /^ *interface / && $2 !~ /^net\.joind\./ { iface = "" }
        iface != "" && /^ *[A-Za-z]+\(.*\);/ {
            name = $1; sub(/\(.*/, "", name)
            sig = ""; line = $0
            while (match(line, /in  *[^ ,)]+/)) {
                s = substr(line, RSTART, RLENGTH); sub(/in  */, "", s); sig = sig s
                line = substr(line, RSTART + RLENGTH)
            }
            print path, iface, "method", name, (sig == "" ? "-" : sig)
        }
        iface != "" && /^ *(@[^ ]* )?readwrite / {
            for (i = 1; i <= NF; i++) if ($i == "readwrite") break
            print path, iface, "set", $(i + 2), $(i + 1)
        }' | sort -k4,4 -s | awk '$4 == "Forget" { last = last $0 "\n"; next } { print } END { printf "%s", last }'
}

arg_for() {
    case $1 in
    o) echo /net/joind/gatetest ;;
    s) echo gatetest ;;
    b) echo false ;;
    *) fail "no test value for type $1" ;;
    esac
}

# Calls one entry of the surface as user; prints the reply or the error.
call_as() {
    local user=$1 path=$2 iface=$3 kind=$4 name=$5 sig=$6
    local args=()
    if [ "$kind" = set ]; then
        local value
        value=$(arg_for "$sig")
        # Inside a variant a string is GVariant text: quoted.
        [ "$sig" != s ] || value="'$value'"
        args=(--method org.freedesktop.DBus.Properties.Set "$iface" "$name" "<$value>")
    else
        args=(--method "$iface.$name")
        if [ "$sig" != - ]; then
            for ((i = 0; i < ${#sig}; i++)); do args+=("$(arg_for "${sig:i:1}")"); done
        fi
    fi
    as_user "$user" gdbus call --system --dest net.joind --object-path "$path" "${args[@]}" 2>&1 || true
}
