#!/bin/bash
# test-completion: joinctl's bash completion (client/completion/joinctl),
# sourced in bash, completes commands, options, and from a running joind
# (session bus, network namespace of its own) a device name and a known
# network's name. Skipped (77) when not root or without bash-completion.
set -euo pipefail
[ "$(id -u)" = 0 ] || exit 77
[ -r /usr/share/bash-completion/bash_completion ] || { echo "bash-completion missing"; exit 77; }
if [ -z "${COMPLETION_NETNS:-}" ]; then
    exec unshare --net --mount env COMPLETION_NETNS=1 "$0" "$@"
fi
mount --make-rprivate /
mount -t sysfs sysfs /sys
build=${JOIND_BUILD_ROOT:?}
src=${JOIND_SOURCE_ROOT:?}
tmp=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

ip link add cmpl-port0 type veth peer name cmpl-port1
mkdir -p "$tmp/state"
# A known network whose name needs quoting on a command line.
printf '[Security]\nPassphrase=completion-test\n' >"$tmp/state/Cafe Corner.psk"
chmod 600 "$tmp/state/Cafe Corner.psk"

dbus-daemon --session --nofork --address="unix:path=$tmp/bus" --print-pid=3 3>"$tmp/bus.pid" &
pids+=($!)
export DBUS_SESSION_BUS_ADDRESS="unix:path=$tmp/bus"
# joind gives up when the bus is not there yet: wait for its socket.
for _ in $(seq 300); do [ -S "$tmp/bus" ] && break; sleep 0.1; done
[ -S "$tmp/bus" ] || fail "dbus-daemon did not come up"
export JOINCTL_BUS=session
"$build/core/joind" --session --plugin-dir "$build/plugins" --state-dir "$tmp/state" \
    --config /dev/null >"$tmp/joind.log" 2>&1 &
pids+=($!)
export PATH="$build/client:$PATH"
for _ in $(seq 300); do
    joinctl device list 2>/dev/null | grep -q cmpl-port0 && break
    sleep 0.1
done
joinctl device list | grep -q cmpl-port0 || { cat "$tmp/joind.log"; fail "joind did not show cmpl-port0"; }

# complete LINE: the candidates bash offers for the last word of LINE, one a
# line, as a person would get them pressing Tab.
complete_line() {
    bash --norc -c '
        source /usr/share/bash-completion/bash_completion
        source "$1"
        COMP_LINE=$2
        COMP_POINT=${#COMP_LINE}
        read -ra COMP_WORDS <<<"$COMP_LINE"
        [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _joinctl joinctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}"
    ' complete "$src/client/completion/joinctl" "$1"
}

expect() {
    local line=$1 want=$2 got
    got=$(complete_line "$line")
    grep -qxF -- "$want" <<<"$got" || fail "'$line<Tab>' offers [$got], not '$want'"
    echo "ok: '$line<Tab>' offers '$want'"
}
expect_not() {
    local line=$1 unwanted=$2 got
    got=$(complete_line "$line")
    ! grep -qxF -- "$unwanted" <<<"$got" || fail "'$line<Tab>' offers '$unwanted'"
}

expect "joinctl " device
expect "joinctl kn" known-networks
expect "joinctl --j" --json
expect "joinctl device " show
expect "joinctl device show " cmpl-port0
expect "joinctl device show cmpl-port1" cmpl-port1
expect_not "joinctl device show cmpl-port1" cmpl-port0
expect "joinctl wired reauth cmpl" cmpl-port0
expect "joinctl known-networks forget " 'Cafe\ Corner'
expect "joinctl known-networks set-autoconnect Cafe y" yes
expect "joinctl --type " psk
expect "joinctl --pass" --passphrase
expect "joinctl wired " reauth
expect "joinctl known-networks " set-autoconnect
expect_not "joinctl known-networks " no
expect "joinctl profile " unset
expect "joinctl profile show " 'Cafe\ Corner'
# import: an .eap-config file, then the wired profile's Match settings;
# a value of --passphrase-file is not taken for the file.
printf '<EAPIdentityProviderList/>\n' >"$tmp/campus.eap-config"
expect "joinctl import $tmp/cam" "$tmp/campus.eap-config"
expect "joinctl import --passphrase-file $tmp/campus.eap-config $tmp/campus.eap-config M" \
    Match.Interface=
expect "joinctl --rep" --replace
