#!/bin/bash
# test-polkit MODE: joind asking Debian's polkitd, for real, on a private
# system-style bus (gate-bed.sh) that lets everyone send to joind, with the
# shipped actions (data/net.joind.policy) and the test's JavaScript rules
# bind-mounted over polkit's directories in the test's mount namespace.
# The rules grant group "all" every net.joind action and group "user" the
# everyday ones (network.connect, known.modify, agent.register).
#   actions  polkitd is activatable, not running: the first call starts it.
#            One call per action, as root, a member of "all", a member of
#            "user" and a user in neither: allowed / allowed / per rule /
#            denied, PermissionDenied naming the action.
#            ProfileManager1 (provisioning) needs profile.manage. A
#            known network an administrator provisioned (Source "admin") needs
#            profile.manage for AutoConnect and Forget; one the user saved,
#            known.modify.
#   front-ends  the iwd front end on too, polkitd activatable: root and a
#            member of "all" load both front ends at once
#            (front-ends-load); not one call refused.
#   appears  no polkit on the bus: joind's own rule (root or group netdev);
#            polkitd started later is asked from then on; once it is gone
#            again, the rule is back.
# Skipped (77) when not root or polkitd is not installed.
set -euo pipefail
[ -z "${GATE_TRACE:-}" ] || set -x
mode=${1:?actions, front-ends or appears}
. "$(dirname "$0")/gate-bed.sh"
polkit_service=/usr/share/dbus-1/system-services/org.freedesktop.PolicyKit1.service
polkitd=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$polkit_service" 2>/dev/null || true)
[ -x "$polkitd" ] || exit 77
bed_enter "$@"
all=jdpkall$$
user=jdpkuser$$
member=jdpk-all$$
limited=jdpk-user$$
outsider=jdpk-out$$
netonly=jdpk-net$$
loader=jdpk-load$$

bed_group "$all"
bed_group "$user"
bed_group netdev
bed_user "$member" "$all"
bed_user "$limited" "$user"
bed_user "$outsider"
bed_user "$netonly" netdev
# The iwd front end's bus policy lets netdev in.
[ "$mode" != front-ends ] || bed_user "$loader" "$all,netdev"

# polkit's directories, as polkitd (which runs as its own user) sees them
# in this mount namespace: the shipped actions and the test's rules only.
mkdir "$tmp/actions" "$tmp/rules" "$tmp/services"
cp "$src/data/net.joind.policy" "$tmp/actions/"
cat >"$tmp/rules/50-joind-test.rules" <<RULES
polkit.addRule(function(action, subject) {
    var everyday = ["net.joind.network.connect", "net.joind.known.modify",
                    "net.joind.agent.register"];
    if (action.id.indexOf("net.joind.") != 0)
        return polkit.Result.NOT_HANDLED;
    if (subject.isInGroup("$all"))
        return polkit.Result.YES;
    if (subject.isInGroup("$user") && everyday.indexOf(action.id) >= 0)
        return polkit.Result.YES;
    return polkit.Result.NOT_HANDLED;
});
RULES
chmod -R a+rX "$tmp/actions" "$tmp/rules"
mount --bind "$tmp/actions" /usr/share/polkit-1/actions
mount --bind "$tmp/rules" /etc/polkit-1/rules.d
mount -t tmpfs tmpfs /usr/share/polkit-1/rules.d

# Activation without a helper: dbus-daemon starts polkitd itself, as root,
# in this namespace; polkitd then becomes its own user.
printf '[D-BUS Service]\nName=org.freedesktop.PolicyKit1\nExec=%s --no-debug\n' "$polkitd" \
    >"$tmp/services/org.freedesktop.PolicyKit1.service"
extra="<policy context=\"default\"><allow send_destination=\"net.joind\"/></policy>
  <include>/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf</include>"
[ "$mode" = appears ] || extra="$extra <servicedir>$tmp/services</servicedir>"
[ "$mode" != front-ends ] || bed_iwd_front_end
bed_bus_conf "$extra"
bed_start_bus

id_of() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; echo "_psk"; }
printf '[Security]\nPassphrase=polkit-test-1\n' >"$tmp/state/pkadmin.psk"
printf '[Security]\nPassphrase=polkit-test-2\n' >"$tmp/state/pkuser.psk"
chmod 600 "$tmp/state/"*.psk
printf '{"version": 1, "networks": {"%s": {"frequencies": [], "source": "user"}}}\n' \
    "$(id_of pkuser)" >"$tmp/state/state.json"
bed_start_joind
admin_known=/net/joind/known/$(id_of pkadmin)
user_known=/net/joind/known/$(id_of pkuser)

# check USER EXPECT PATH IFACE KIND NAME SIG: EXPECT is "ok" (the reply is
# not PermissionDenied), "done" (the reply is an empty success), "denied"
# (PermissionDenied) or the action a PermissionDenied reply must name.
check() {
    local who=$1 expect=$2 reply
    shift 2
    reply=$(call_as "$who" "$@")
    echo "$who $* -> $reply" >>"$tmp/replies"
    case $expect in
    ok)
        if echo "$reply" | grep -q 'net.joind.Error.PermissionDenied'; then
            fail "$who was refused $2.$4 on $1: $reply"
        fi
        ;;
    done)
        [ "$reply" = "()" ] || fail "$who was not let do $2.$4 on $1: $reply"
        ;;
    denied)
        echo "$reply" | grep -q 'net.joind.Error.PermissionDenied' ||
            fail "$who was not refused $2.$4 on $1: $reply"
        ;;
    *)
        echo "$reply" | grep -q "net.joind.Error.PermissionDenied.*$expect" ||
            fail "$who was not refused $2.$4 on $1 for $expect: $reply"
        ;;
    esac
}

# One call that needs each action: "ACTION EXPECT-WHEN-ALLOWED PATH IFACE
# KIND NAME SIG".
calls() {
    local port
    port=$(gdbus introspect --system --dest net.joind --object-path /net/joind --recurse |
        awk '/^ *node \// { path = $2 } /interface net\.joind\.Port8021x1/ { print path; exit }')
    [ -n "$port" ] || fail "no Port8021x1 object for gate0"
    cat <<CALLS
net.joind.network.connect ok /net/joind net.joind.Daemon1 method GetDiagnostics -
net.joind.agent.register done /net/joind net.joind.AgentManager1 method RegisterAgent o
net.joind.wired.control ok $port net.joind.Port8021x1 method Reauthenticate -
net.joind.known.modify done $user_known net.joind.KnownNetwork1 set AutoConnect b
net.joind.profile.manage done $admin_known net.joind.KnownNetwork1 set AutoConnect b
net.joind.profile.manage ok /net/joind net.joind.ProfileManager1 method ListProfiles -
net.joind.profile.manage ok /net/joind net.joind.ProfileManager1 method DeleteProfile o
CALLS
}

# Whether WHO may do ACTION by the rules (root: polkit's own rule).
granted() {
    local who=$1 action=$2
    case $who in
    root | "$member") return 0 ;;
    "$limited")
        case $action in
        net.joind.network.connect | net.joind.known.modify | net.joind.agent.register) return 0 ;;
        esac
        ;;
    esac
    return 1
}

case $mode in
actions)
    name_has_owner org.freedesktop.PolicyKit1 && fail "polkitd was running before any call"
    calls >"$tmp/calls"
    n=0
    while read -r action expect path iface kind name sig; do
        for who in root "$member" "$limited" "$outsider"; do
            if granted "$who" "$action"; then
                check "$who" "$expect" "$path" "$iface" "$kind" "$name" "$sig"
            else
                check "$who" "$action" "$path" "$iface" "$kind" "$name" "$sig"
            fi
            n=$((n + 1))
        done
    done <"$tmp/calls"
    name_has_owner org.freedesktop.PolicyKit1 || fail "polkitd was not activated"
    # Forgetting: the user's own network with known.modify, the
    # administrator's only with profile.manage.
    check "$outsider" net.joind.known.modify "$user_known" net.joind.KnownNetwork1 method Forget -
    check "$limited" net.joind.profile.manage "$admin_known" net.joind.KnownNetwork1 method Forget -
    check "$limited" done "$user_known" net.joind.KnownNetwork1 method Forget -
    check "$member" done "$admin_known" net.joind.KnownNetwork1 method Forget -
    echo "ok: $((n + 4)) calls answered as the rules say, polkitd activated by the first"
    ;;
appears)
    diag="/net/joind net.joind.Daemon1 method GetDiagnostics -"
    # shellcheck disable=SC2086 # $diag is the call's words
    {
        check "$netonly" ok $diag
        check "$member" denied $diag
        "$polkitd" --no-debug >"$tmp/polkitd.log" 2>&1 &
        polkit_pid=$!
        pids+=("$polkit_pid")
        for _ in $(seq 100); do
            name_has_owner org.freedesktop.PolicyKit1 && break
            sleep 0.1
        done
        name_has_owner org.freedesktop.PolicyKit1 || fail "polkitd did not start: $(cat "$tmp/polkitd.log")"
        check "$member" ok $diag
        check "$netonly" net.joind.network.connect $diag
        kill "$polkit_pid"
        for _ in $(seq 100); do
            name_has_owner org.freedesktop.PolicyKit1 || break
            sleep 0.1
        done
        check "$netonly" ok $diag
        check "$member" denied $diag
    }
    echo "ok: joind's rule without polkit, polkit's once it appeared, joind's once it left"
    ;;
front-ends)
    bed_load_front_ends 10 350 root "$loader"
    name_has_owner org.freedesktop.PolicyKit1 || fail "polkitd was not asked"
    ;;
*) fail "unknown mode $mode" ;;
esac
