# shellcheck shell=bash
# 50-upgrade-purge.sh - a newer build over the installed one (the same
# packages repacked as version V+upgrade1: dpkg runs the upgrade path of
# every maintainer script, prerm upgrade, postrm upgrade, postinst
# configure OLD) keeps every profile and state.json, keeps joind enabled
# and restarts it; `dpkg -r` stops it and keeps them too; only `dpkg
# --purge` deletes /var/lib/joind. Installed again, on a running systemd,
# the package neither enables nor starts joind. Runs last: it removes the
# packages.
sys_start
old=$(dpkg-query -W -f='${Version}' joind)
new=$old+upgrade1
for p in joind joinctl; do
	rm -rf "$WORK/repack"
	dpkg-deb -R "$JOIND_SYSTEM_OUT"/debs/"$p"_*_amd64.deb "$WORK/repack"
	sed -i "s/^Version: .*/Version: $new/" "$WORK/repack/DEBIAN/control"
	# Uncompressed: xz takes most of a minute in the emulated guest.
	dpkg-deb -Znone -b "$WORK/repack" "$WORK/${p}_${new}.deb" >/dev/null || wifi_fail "cannot repack $p as $new"
done
state=/var/lib/joind
ls "$state"/joind-sys.psk "$state"/state.json >/dev/null 2>&1 ||
	wifi_fail "nothing to keep: $(ls -la "$state")"
files=$(cd "$state" && ls)
pid=$(sys_prop MainPID)
dpkg -i "$WORK/joind_$new.deb" "$WORK/joinctl_$new.deb" \
	>"$WORK/upgrade.log" 2>&1 || wifi_fail "dpkg -i $new over $old: $(cat "$WORK/upgrade.log")"
[[ $(dpkg-query -W -f='${Version}' joind) == "$new" ]] || wifi_fail "joind $new is not installed"
sys_prop_is ActiveState active || wifi_fail "joind.service is $(sys_prop ActiveState) after the upgrade"
[[ $(systemctl is-enabled joind.service) == enabled ]] ||
	wifi_fail "the upgrade did not keep joind.service enabled: $(systemctl is-enabled joind.service)"
[[ $(sys_prop MainPID) != "$pid" ]] || wifi_fail "joind was not restarted by the upgrade"
lost=$(comm -23 <(sort <<<"$files") <(cd "$state" && ls | sort))
[[ -z $lost ]] || wifi_fail "the upgrade lost: $lost"
# joind may add what it derived (a PreSharedKey=), never drop what was set.
grep -qx 'Passphrase=system-suite-secret' "$state/joind-sys.psk" ||
	wifi_fail "the upgrade lost joind-sys.psk's passphrase: $(sed 's/=.*/=.../' "$state/joind-sys.psk")"
[[ $(stat -c %a "$state") == 700 ]] || wifi_fail "$state is $(stat -c %a "$state") after the upgrade"
wifi_step "upgrade $old -> $new: joind restarted ($pid -> $(sys_prop MainPID)), still enabled, $(wc -l <<<"$files") files kept, $state 0700"

dpkg -r joinctl joind >"$WORK/remove.log" 2>&1 || wifi_fail "dpkg -r: $(cat "$WORK/remove.log")"
[[ -e $state/state.json ]] || wifi_fail "dpkg -r removed $state/state.json"
pgrep -x joind >/dev/null && wifi_fail "joind still runs after dpkg -r"
wifi_step "remove: joind stopped, $state kept"
dpkg --purge joind >"$WORK/purge.log" 2>&1 || wifi_fail "dpkg --purge: $(cat "$WORK/purge.log")"
[[ ! -e $state ]] || wifi_fail "dpkg --purge left $state: $(ls -la "$state")"
[[ ! -e /etc/joind/main.conf ]] || wifi_fail "dpkg --purge left /etc/joind/main.conf"
wifi_step "purge: $state and /etc/joind/main.conf gone"
dpkg -i "$JOIND_SYSTEM_OUT"/debs/joind_*.deb "$JOIND_SYSTEM_OUT"/debs/joinctl_*.deb \
	>"$WORK/reinstall.log" 2>&1 || wifi_fail "dpkg -i after the purge: $(cat "$WORK/reinstall.log")"
[[ $(systemctl is-enabled joind.service) == disabled ]] ||
	wifi_fail "installing enabled joind.service: $(systemctl is-enabled joind.service)"
sys_prop_is ActiveState inactive || wifi_fail "installing started joind.service"
[[ $(stat -c %a "$state") == 700 ]] || wifi_fail "$state is $(stat -c %a "$state") when installed again"
wifi_step "installed again under systemd: joind.service neither enabled nor started"
