# shellcheck shell=bash
# 50-upgrade-purge.sh - the package over itself (dpkg runs the upgrade
# path of every maintainer script: prerm upgrade, postrm upgrade, postinst
# configure OLD) keeps every profile and state.json and restarts joind;
# `dpkg -r` keeps them too; only `dpkg --purge` deletes /var/lib/joind.
# Runs last: it removes the packages.
sys_start
state=/var/lib/joind
ls "$state"/joind-sys.psk "$state"/state.json >/dev/null 2>&1 ||
	wifi_fail "nothing to keep: $(ls -la "$state")"
files=$(cd "$state" && ls)
pid=$(sys_prop MainPID)
dpkg -i "$JOIND_SYSTEM_OUT"/debs/joind_*.deb "$JOIND_SYSTEM_OUT"/debs/joinctl_*.deb \
	>"$WORK/upgrade.log" 2>&1 || wifi_fail "dpkg -i over the installed package: $(cat "$WORK/upgrade.log")"
sys_prop_is ActiveState active || wifi_fail "joind.service is $(sys_prop ActiveState) after the upgrade"
[[ $(sys_prop MainPID) != "$pid" ]] || wifi_fail "joind was not restarted by the upgrade"
lost=$(comm -23 <(sort <<<"$files") <(cd "$state" && ls | sort))
[[ -z $lost ]] || wifi_fail "the upgrade lost: $lost"
# joind may add what it derived (a PreSharedKey=), never drop what was set.
grep -qx 'Passphrase=system-suite-secret' "$state/joind-sys.psk" ||
	wifi_fail "the upgrade lost joind-sys.psk's passphrase: $(sed 's/=.*/=.../' "$state/joind-sys.psk")"
[[ $(stat -c %a "$state") == 700 ]] || wifi_fail "$state is $(stat -c %a "$state") after the upgrade"
wifi_step "upgrade: joind restarted ($pid -> $(sys_prop MainPID)), $(wc -l <<<"$files") files kept, $state 0700"

dpkg -r joinctl joind >"$WORK/remove.log" 2>&1 || wifi_fail "dpkg -r: $(cat "$WORK/remove.log")"
[[ -e $state/state.json ]] || wifi_fail "dpkg -r removed $state/state.json"
pgrep -x joind >/dev/null && wifi_fail "joind still runs after dpkg -r"
wifi_step "remove: joind stopped, $state kept"
dpkg --purge joind >"$WORK/purge.log" 2>&1 || wifi_fail "dpkg --purge: $(cat "$WORK/purge.log")"
[[ ! -e $state ]] || wifi_fail "dpkg --purge left $state: $(ls -la "$state")"
[[ ! -e /etc/joind/main.conf ]] || wifi_fail "dpkg --purge left /etc/joind/main.conf"
wifi_step "purge: $state and /etc/joind/main.conf gone"
