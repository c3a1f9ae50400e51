#!/bin/bash
# test-permission-gate MODE: joind on a private system-style bus that
# includes the shipped policy (data/net.joind.conf), called by two users
# made for the test: one in group netdev, one not.
#   policy  the bus refuses the outsider every method and setter; the
#           netdev member gets through; no reply to either holds a secret.
#   auth    a bus that lets everyone through: joind itself (joind-auth.c)
#           refuses the outsider every method and setter, lets the member.
#   agents  agents of two uids register; nobody but root (joind) may call
#           a client's net.joind.Agent1.
# Skipped (77) when not root. The users are removed afterwards.
set -euo pipefail
mode=${1:?policy, auth or agents}
[ "$(id -u)" = 0 ] || exit 77
# joind runs as root here: in a network namespace of its own, with a veth
# pair so that device and port objects are on the bus too.
if [ -z "${GATE_NETNS:-}" ]; then
    exec unshare --net --mount env GATE_NETNS=1 "$0" "$@"
fi
mount --make-rprivate /
mount -t sysfs sysfs /sys
ip link add gate0 type veth peer name gate1
ip link set gate0 up
ip link set gate1 up
for tool in dbus-daemon setpriv useradd userdel groupadd gdbus unshare ip; do
    command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done
build=${JOIND_BUILD_ROOT:?}
src=${JOIND_SOURCE_ROOT:?}
secret='gate-test-secret-7f3a'
outsider=jdgate-out$$
member=jdgate-in$$
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
made_group=

cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    userdel "$outsider" 2>/dev/null || true
    userdel "$member" 2>/dev/null || true
    [ -z "$made_group" ] || groupdel netdev 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

getent group netdev >/dev/null || { groupadd --system netdev; made_group=1; }
useradd --no-create-home --shell /usr/sbin/nologin "$outsider"
useradd --no-create-home --shell /usr/sbin/nologin -G netdev "$member"

# The parts of a distribution's system.conf that matter: everything
# denied unless a policy file punches a hole.
extra=
[ "$mode" != auth ] || extra='<policy context="default"><allow send_destination="net.joind"/></policy>'
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
  $extra
</busconfig>
CONF
dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile 2>"$tmp/bus.log" &
pids+=($!)
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/bus"
for _ in $(seq 100); do [ -S "$tmp/bus" ] && break; sleep 0.1; done

mkdir -m 700 "$tmp/state"
printf '[Security]\nPassphrase=%s\n' "$secret" >"$tmp/state/gatetest.psk"
chmod 600 "$tmp/state/gatetest.psk"
"$build/core/joind" --debug --state-dir="$tmp/state" --config=/dev/null \
    --plugin-dir="$JOIND_PLUGIN_DIR" 2>"$tmp/joind.log" &
pids+=($!)
for _ in $(seq 100); do
    gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.GetNameOwner net.joind >/dev/null 2>&1 && break
    sleep 0.1
done

as_user() {
    local user=$1
    shift
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
        args=(--method org.freedesktop.DBus.Properties.Set "$iface" "$name" "<$(arg_for "$sig")>")
    else
        args=(--method "$iface.$name")
        if [ "$sig" != - ]; then
            for ((i = 0; i < ${#sig}; i++)); do args+=("$(arg_for "${sig:i:1}")"); done
        fi
    fi
    as_user "$user" gdbus call --system --dest net.joind --object-path "$path" "${args[@]}" 2>&1 || true
}

denial_policy='org.freedesktop.DBus.Error.AccessDenied'
denial_auth='net.joind.Error.PermissionDenied'

check_surface() {
    local denial=$1 n=0 reply
    surface >"$tmp/surface"
    for entry in 'KnownNetwork1 set AutoConnect' 'KnownNetwork1 method Forget' \
        'Port8021x1 method Reauthenticate' 'AgentManager1 method RegisterAgent'; do
        grep -q "net.joind.$entry" "$tmp/surface" ||
            fail "net.joind.$entry is not on the bus: $(cat "$tmp/surface")"
    done
    while read -r path iface kind name sig; do
        reply=$(call_as "$outsider" "$path" "$iface" "$kind" "$name" "$sig")
        echo "$reply" >>"$tmp/replies"
        echo "$reply" | grep -q "$denial" || fail "$outsider was not refused $iface.$name on $path: $reply"
        n=$((n + 1))
    done <"$tmp/surface"
    while read -r path iface kind name sig; do
        reply=$(call_as "$member" "$path" "$iface" "$kind" "$name" "$sig")
        echo "$reply" >>"$tmp/replies"
        if echo "$reply" | grep -Eq "$denial_policy|$denial_auth"; then
            fail "$member was refused $iface.$name on $path: $reply"
        fi
    done <"$tmp/surface"
    echo "ok: $n methods and setters refused to $outsider and allowed to $member"
}

read_everything() {
    local user=$1 path iface
    surface | awk '{ print $1, $2 }' | sort -u | while read -r path iface; do
        as_user "$user" gdbus call --system --dest net.joind --object-path "$path" \
            --method org.freedesktop.DBus.Properties.GetAll "$iface" 2>&1 || true
    done >>"$tmp/replies"
    as_user "$user" gdbus call --system --dest net.joind --object-path /net/joind \
        --method net.joind.Daemon1.GetDiagnostics >>"$tmp/replies" 2>&1 || true
}

case $mode in
policy | auth)
    [ "$mode" = policy ] && denial=$denial_policy || denial=$denial_auth
    read_everything "$member"
    read_everything "$outsider"
    check_surface "$denial"
    grep -q "$secret" "$tmp/replies" && fail "a reply holds the profile's passphrase"
    grep -q 'agents' "$tmp/replies" ||
        fail "the member could not read the diagnostics: $(cat "$tmp/replies")"
    echo "ok: no reply holds a secret"
    ;;
agents)
    as_user "$member" "$build/client/joinctl" agent --passphrase "$secret" >"$tmp/member-agent" 2>&1 &
    pids+=($!)
    "$build/client/joinctl" agent --passphrase "$secret" >"$tmp/root-agent" 2>&1 &
    pids+=($!)
    member_uid=$(id -u "$member")
    for _ in $(seq 100); do
        grep -q "of uid $member_uid registered" "$tmp/joind.log" &&
            grep -q "of uid 0 registered" "$tmp/joind.log" && break
        sleep 0.1
    done
    grep -q "of uid $member_uid registered" "$tmp/joind.log" || fail "the member's agent did not register"
    grep -q "of uid 0 registered" "$tmp/joind.log" || fail "root's agent did not register"
    if as_user "$outsider" "$build/client/joinctl" agent --passphrase x >"$tmp/out-agent" 2>&1; then
        fail "the outsider's agent ran: $(cat "$tmp/out-agent")"
    fi
    grep -q "of uid $(id -u "$outsider") registered" "$tmp/joind.log" && fail "the outsider registered an agent"
    for uid in 0 "$member_uid"; do
        agent=$(sed -En "s|.*agent (:[0-9.]+)(/[^ ]*) of uid $uid registered.*|\1 \2|p" "$tmp/joind.log" | head -1)
        read -r owner path <<<"$agent"
        for user in "$member" "$outsider"; do
            reply=$(as_user "$user" gdbus call --system --dest "$owner" --object-path "$path" \
                --method net.joind.Agent1.RequestPassphrase /net/joind 2>&1 || true)
            echo "$reply" | grep -q "$denial_policy" ||
                fail "$user called the agent of uid $uid: $reply"
            echo "$reply" | grep -q "$secret" && fail "$user got a passphrase from the agent of uid $uid"
        done
    done
    echo "ok: agents of uid 0 and $member_uid registered; no other user may call them"
    ;;
*) fail "unknown mode $mode" ;;
esac
