#!/bin/bash
# test-permission-gate MODE: joind on a private system-style bus that
# includes the shipped policy (data/net.joind.conf), called by two users
# made for the test: one in group netdev, one not.
#   auth    the shipped policy lets everyone reach joind, and the bus has
#           no polkit: joind itself (joind-auth.c, its rule for when
#           polkit is not installed) refuses the outsider every method and
#           setter, lets the member connect and change a network a user
#           saved, but not manage profiles (ProfileManager1, a profile an
#           administrator provisioned) nor switch a device's Mode (an access
#           point): those are root's; no reply to either
#           holds a secret.
#           (With polkit: test-polkit.sh.)
#   agents  agents of two uids register; nobody but root (joind) may call
#           a client's net.joind.Agent1.
#   front-ends  the iwd front end on too: root and the member load both
#           front ends at once (front-ends-load); not one call refused.
# Skipped (77) when not root. The users are removed afterwards.
set -euo pipefail
mode=${1:?auth, agents or front-ends}
. "$(dirname "$0")/gate-bed.sh"
bed_enter "$@"
secret='gate-test-secret-7f3a'
outsider=jdgate-out$$
member=jdgate-in$$

bed_group netdev
bed_user "$outsider"
bed_user "$member" netdev

[ "$mode" != front-ends ] || bed_iwd_front_end
bed_bus_conf ""
bed_start_bus
printf '[Security]\nPassphrase=%s\n' "$secret" >"$tmp/state/gatetest.psk"
# A network a user saved (state.json's source), beside the provisioned one.
printf '[Security]\nPassphrase=%s\n' "$secret" >"$tmp/state/usertest.psk"
printf '{"version":1,"networks":{"%s_psk":{"frequencies":[],"source":"user"}}}\n' \
    "$(printf usertest | od -An -tx1 | tr -d ' \n')" >"$tmp/state/state.json"
chmod 600 "$tmp/state/gatetest.psk" "$tmp/state/usertest.psk"
bed_start_joind

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
    # Before anything is forgotten: one network of each source.
    local saved=0
    while read -r path iface _; do
        [ "$iface" = net.joind.KnownNetwork1 ] || continue
        manages_profiles "$path" "$iface" || saved=$((saved + 1))
    done <"$tmp/surface"
    [ "$saved" -gt 0 ] || fail "no network a user saved on the surface"
    local managed=0 allowed=0 manage
    while read -r path iface kind name sig; do
        manage=no
        manages_profiles "$path" "$iface" && manage=yes
        reply=$(call_as "$member" "$path" "$iface" "$kind" "$name" "$sig")
        echo "$reply" >>"$tmp/replies"
        if [ $manage = yes ]; then
            echo "$reply" | grep -Eq "Without polkit only root (manages profiles|runs access points)" ||
                fail "$member was not refused $iface.$name on $path: $reply"
            managed=$((managed + 1))
        elif echo "$reply" | grep -Eq "$denial_policy|$denial_auth"; then
            fail "$member was refused $iface.$name on $path: $reply"
        else
            allowed=$((allowed + 1))
        fi
    done <"$tmp/surface"
    echo "ok: $n methods and setters refused to $outsider; $allowed allowed to $member," \
        "$managed (profile management, access points) refused"
    [ "$managed" -gt 0 ] || fail "no profile management on the surface"
}

# Is a call of iface on path root's alone without polkit: profile
# management (net.joind.profile.manage) or Device1's one setter, Mode
# (net.joind.hotspot)?
manages_profiles() {
    local path=$1 iface=$2
    [ "$iface" = net.joind.ProfileManager1 ] && return 0
    [ "$iface" = net.joind.Device1 ] && return 0
    [ "$iface" = net.joind.KnownNetwork1 ] || return 1
    gdbus call --system --dest net.joind --object-path "$path" \
        --method org.freedesktop.DBus.Properties.Get net.joind.KnownNetwork1 Source |
        grep -q "'admin'"
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
auth)
    denial=$denial_auth
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
front-ends)
    bed_load_front_ends 10 350 root "$member"
    ;;
*) fail "unknown mode $mode" ;;
esac
