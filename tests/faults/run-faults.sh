#!/usr/bin/env bash
# run-faults.sh CASE - joind under faults it must survive (suite 'faults'),
# on a private session bus in a mount namespace of its own:
#   full-disk  the state directory on a 256 KiB tmpfs, filled: every write
#              path at hand (CreateProfile, UpdateProfile, a KnownNetwork1
#              AutoConnect write, DeleteProfile's neighbour, joinctl import)
#              fails with a sentence naming the cause and leaves every file
#              as it was, and no temporary behind; once there is space again,
#              the next write succeeds.
#   killed     SIGKILL at $FAULTS_KILLS (80 in CI, about 2 s each; the
#              issue's 200 by hand) random moments while a client updates,
#              creates and deletes profiles over D-Bus; after each restart
#              joind comes up, every profile reads (ListProfiles names the
#              ones that must be there), and no temporary file is left (one
#              planted as a kill mid-write leaves it is removed at start).
#   connect-full-disk
#              what a connection writes (state.json, the PSK and SAE's PT
#              cached in the profile, an open network's first profile),
#              through the WiFi connector on a fake nl80211 with the core's
#              state directory on a 256 KiB tmpfs (faults-connect.c): on a
#              full disk each write is refused with a sentence and every
#              file stays as it was; with space again the next succeeds.
#   connect-killed
#              SIGKILL at $FAULTS_KILLS (20 in CI) random moments of a
#              process connecting and disconnecting without end (a new PSK,
#              SAE and open network each round: profiles, PSKs, PTs and
#              state.json written all the time); after each, the state
#              directory read as joind reads it when it starts: every
#              profile reads, state.json reads whole, no temporary left.
#   bad-input  every method of both front ends (net.joind and the iwd front
#              end's net.connman.iwd) called with every wrong type, empty and
#              64 KiB strings, "/" for objects, 64 KiB arrays
#              (dbus-bad-input.c): each call answered, joind still up and
#              answering, and it exits cleanly (run it in an ASan/UBSan
#              build for those checks).
# Root only (tmpfs, namespaces); skipped (77) otherwise. By hand:
#   JOIND_SOURCE_ROOT=. JOIND_BUILD_ROOT=build JOIND_PLUGIN_DIR=build/plugins \
#     tests/faults/run-faults.sh killed
set -euo pipefail
mode=${1:?full-disk, killed or bad-input}
[ "$(id -u)" = 0 ] || exit 77
if [ -z "${FAULTS_NS:-}" ]; then
    exec unshare --mount env FAULTS_NS=1 "$0" "$@"
fi
mount --make-rprivate /
build=${JOIND_BUILD_ROOT:?}
src=${JOIND_SOURCE_ROOT:?}
tmp=$(mktemp -d)
state=$tmp/state
joind_pid=
bus_pid=

fail() {
    echo "FAIL: $*" >&2
    tail -20 "$tmp/joind.log" >&2 2>/dev/null || true
    exit 1
}
cleanup() {
    [ -z "$joind_pid" ] || kill -9 "$joind_pid" 2>/dev/null || true
    [ -z "$bus_pid" ] || kill "$bus_pid" 2>/dev/null || true
    umount "$state" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

export DBUS_SESSION_BUS_ADDRESS=unix:path=$tmp/bus
bus_pid=$(dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --fork --nopidfile \
    --print-pid=1)

has_name() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner net.joind 2>/dev/null | grep -q true
}

# $config: main.conf; $plugins: the plugins to load.
config=/dev/null
plugins='eap-*'
start_joind() {
    "$build/core/joind" --session --debug --state-dir="$state" --config="$config" \
        --plugin-dir="$JOIND_PLUGIN_DIR" --plugins="$plugins" >>"$tmp/joind.log" 2>&1 &
    joind_pid=$!
    for _ in $(seq 250); do
        has_name && return 0
        kill -0 "$joind_pid" 2>/dev/null || fail "joind exited at start"
        sleep 0.02
    done
    fail "joind did not take its name"
}

kill_joind() {
    kill -9 "$joind_pid" 2>/dev/null || true
    wait "$joind_pid" 2>/dev/null || true
    joind_pid=
    for _ in $(seq 250); do
        has_name || return 0
        sleep 0.02
    done
}

# pm METHOD ARGS...: ProfileManager1, the reply or error on stdout.
pm() {
    local method=$1
    shift
    gdbus call --session --dest net.joind --object-path /net/joind \
        --method "net.joind.ProfileManager1.$method" "$@" 2>&1 || true
}

# The state directory's files and their digests, temporaries included.
snapshot() {
    (cd "$state" && find . -type f ! -name '.filler' -print0 | sort -z | xargs -0r sha256sum)
}

temporaries() { find "$state" -name '.*.joind-tmp-*' | sed "s|$state/||"; }

psk='{"Security.Passphrase": <"faults-passphrase">}'

case_full_disk() {
    mkdir -p "$state"
    mount -t tmpfs -o size=256k,mode=0700 tmpfs "$state"
    start_joind
    pm CreateProfile psk Home "$psk" | grep -q "/net/joind/known/" || fail "Home not created"
    pm CreateProfile psk Office "$psk" | grep -q "/net/joind/known/" || fail "Office not created"
    home=/net/joind/known/486f6d65_psk
    snapshot >"$tmp/before"
    # Fill it; a few blocks more for what the kernel keeps back.
    dd if=/dev/zero of="$state/.filler" bs=4k 2>/dev/null || true
    local reply n=0
    reply=$(pm UpdateProfile "$home" "{'Settings.Hidden':<true>}" '[]')
    echo "$reply" | grep -q "No space left on device" ||
        fail "UpdateProfile did not fail for want of space: $reply"
    reply=$(pm CreateProfile psk Library "$psk")
    echo "$reply" | grep -q "No space left on device" ||
        fail "CreateProfile did not fail for want of space: $reply"
    n=2
    reply=$(gdbus call --session --dest net.joind --object-path "$home" \
        --method org.freedesktop.DBus.Properties.Set net.joind.KnownNetwork1 AutoConnect \
        '<false>' 2>&1 || true)
    echo "$reply" | grep -q "No space left on device" ||
        fail "AutoConnect=false did not fail for want of space: $reply"
    n=$((n + 1))
    FAULTS_PW=faults-pw "$build/client/joinctl" --session import \
        "$src/tests/unit/client/data/peap-mschapv2.eap-config" --username alice@example.edu \
        --passphrase-from-env FAULTS_PW >"$tmp/import.out" 2>&1 && fail "joinctl import succeeded"
    grep -q "No space left on device" "$tmp/import.out" ||
        fail "joinctl import did not say why: $(cat "$tmp/import.out")"
    n=$((n + 1))
    snapshot >"$tmp/after"
    diff "$tmp/before" "$tmp/after" >&2 || fail "files changed on a full disk"
    [ -z "$(temporaries)" ] || fail "temporaries left: $(temporaries)"
    echo "ok: $n writes on a full disk refused with a sentence, every file as it was"
    rm "$state/.filler"
    reply=$(pm UpdateProfile "$home" "{'Settings.Hidden':<true>}" '[]')
    [ "$reply" = "()" ] || fail "the update after space returned failed: $reply"
    grep -q "Hidden=true" "$state/Home.psk" || fail "Home.psk was not updated"
    echo "ok: once space returned, the next write succeeded"
    kill_joind
}

case_killed() {
    local kills=${FAULTS_KILLS:-80} i listed
    mkdir -m 700 "$state"
    start_joind
    for name in Keep1 Keep2 Keep3; do
        pm CreateProfile psk "$name" "$psk" | grep -q /net/joind/known/ || fail "$name not created"
    done
    for i in $(seq "$kills"); do
        # A client writing as fast as it can: updates of a profile that stays,
        # a profile created and deleted again. It stops at the stop file, so
        # that no call of its reaches the joind started next.
        rm -f "$tmp/stop"
        (
            j=0
            while [ ! -e "$tmp/stop" ]; do
                j=$((j + 1))
                pm UpdateProfile /net/joind/known/4b65657031_psk \
                    "{'Settings.Hidden':<$([ $((j % 2)) = 0 ] && echo true || echo false)>}" '[]'
                pm CreateProfile psk Churn "$psk"
                pm DeleteProfile /net/joind/known/436875726e_psk
            done >/dev/null
        ) &
        local client=$!
        sleep "0.$(printf '%03d' $((RANDOM % 300)))"
        kill_joind
        touch "$tmp/stop"
        wait "$client" 2>/dev/null || true
        # What a kill between the temporary's creation and its rename
        # leaves, whether or not this one did.
        [ $((i % 10)) != 1 ] || printf 'half' >"$state/.Keep2.psk.joind-tmp-Ab12Cd"
        start_joind
        [ -z "$(temporaries)" ] || fail "kill $i: temporaries left after the restart: $(temporaries)"
        listed=$(pm ListProfiles)
        for name in Keep1 Keep2 Keep3; do
            echo "$listed" | grep -q "'$name'" || fail "kill $i: $name does not read: $listed"
        done
    done
    echo "joind removed temporaries at $(grep -c "removed .* temporary file" "$tmp/joind.log" || true) of $kills starts"
    echo "ok: $kills kills during profile writes; after each, joind started, every profile read, no temporary left"
    kill_joind
}

case_bad_input() {
    mkdir -m 700 "$state"
    config=$tmp/main.conf
    printf '[General]\nIwdCompatibility=true\n' >"$config"
    plugins='eap-*,iwd-compat'
    start_joind
    pm CreateProfile psk Home "$psk" | grep -q /net/joind/known/ || fail "Home not created"
    pm CreateProfile wired port "{'Match.Interface': <'eth9'>, 'Security.EAP-Method': <'MD5'>,
        'Security.EAP-Identity': <'u'>, 'Security.EAP-Password': <'p'>}" |
        grep -q /net/joind/ || fail "port not created"
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner net.connman.iwd | grep -q true ||
        fail "the iwd front end is not on the bus"
    "$build/tests/faults/dbus-bad-input" net.joind net.connman.iwd || fail "calls went unanswered"
    kill -0 "$joind_pid" 2>/dev/null || fail "joind died"
    # Forget() and DeleteProfile() with the right arguments do their work:
    # only an answer is asked for.
    pm ListProfiles | grep -q "^(" || fail "joind does not answer ListProfiles"
    echo "ok: joind answered every call and is still up"
    kill -TERM "$joind_pid"
    wait "$joind_pid" || fail "joind exited with status $? after the calls"
    joind_pid=
}

case_connect_full_disk() {
    mkdir "$tmp/small"
    # Few inodes, so that the test can use them up as well.
    mount -t tmpfs -o size=256k,nr_inodes=256,mode=0700 tmpfs "$tmp/small"
    TMPDIR=$tmp/small "$build/tests/faults/faults-connect" full-disk ||
        fail "a connection's writes on a full disk (faults-connect full-disk)"
    umount "$tmp/small"
    echo "ok: on a full disk every write of a connection refused with a sentence, every file as it was; the next succeeded"
}

case_connect_killed() {
    local kills=${FAULTS_KILLS:-20} i pid dir files listed left=0 profiles=0
    mkdir "$tmp/churn"
    for i in $(seq "$kills"); do
        # Its own session: the kill takes its test bus (dbus-daemon) too.
        TMPDIR=$tmp/churn setsid "$build/tests/faults/faults-connect" churn >"$tmp/churn.out" \
            2>>"$tmp/joind.log" &
        pid=$!
        for _ in $(seq 500); do
            grep -q '^ready ' "$tmp/churn.out" && break
            kill -0 "$pid" 2>/dev/null || fail "kill $i: the connecting process ended by itself"
            sleep 0.02
        done
        dir=$(sed -n 's/^ready //p' "$tmp/churn.out")
        [ -n "$dir" ] || fail "kill $i: the connecting process did not start"
        sleep "0.$(printf '%03d' $((RANDOM % 500)))"
        kill -9 -- "-$pid"
        wait "$pid" 2>/dev/null || true
        # joind started on what the kill left.
        state=$dir
        left=$((left + $(temporaries | wc -l)))
        files=$(find "$state" -maxdepth 1 \( -name '*.psk' -o -name '*.open' \) | wc -l)
        start_joind
        [ -z "$(temporaries)" ] || fail "kill $i: temporaries left after the start: $(temporaries)"
        listed=$(pm ListProfiles | grep -o "'/net/joind/known/[^']*'" | wc -l)
        [ "$listed" = "$files" ] ||
            fail "kill $i: $files profile files, ListProfiles lists $listed: $(pm ListProfiles)"
        [ ! -e "$state/state.json.bad" ] || fail "kill $i: state.json did not read, set aside"
        kill_joind
        profiles=$((profiles + files))
        rm -rf "$dir"
    done
    echo "$profiles profiles read after the kills; they left $left temporaries, none after the starts"
    echo "ok: $kills kills while connecting; after each, joind started, every profile read, state.json read whole, no temporary left"
}

case "$mode" in
full-disk) case_full_disk ;;
connect-full-disk) case_connect_full_disk ;;
connect-killed) case_connect_killed ;;
killed) case_killed ;;
bad-input) case_bad_input ;;
*) fail "unknown case $mode" ;;
esac
