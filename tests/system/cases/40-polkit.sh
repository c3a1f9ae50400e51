# shellcheck shell=bash
# 40-polkit.sh - polkit for real: polkitd (started by D-Bus activation, as
# on a user's machine) decides. An unprivileged user logged in on the
# active VT (a logind session through PAM, as getty's login makes one)
# connects wlan1 to joind-sys (net.joind.network.connect: allow_active),
# is refused creating a profile (net.joind.profile.manage:
# auth_admin_keep), with the action named in the error, and is allowed
# once a rule in /etc/polkit-1/rules.d grants it.
USER_NAME=joind-sys-user
id "$USER_NAME" >/dev/null 2>&1 || useradd -m "$USER_NAME"
sys_start

# as_user CMD: CMD in a new login session of the user on tty1 (seat0's
# foreground VT); its output in $WORK/user.out, its status returned.
as_user() {
	rm -f "$WORK/user.out"
	timeout 90 systemd-run --wait --quiet --service-type=exec -p PAMName=login \
		-p User="$USER_NAME" -p TTYPath=/dev/tty1 -p StandardInput=tty-force -p TTYVHangup=yes \
		-p StandardOutput=file:"$WORK/user.out" -p StandardError=inherit \
		/bin/sh -c "$1" >/dev/null 2>&1
	local rc=$?
	cat "$WORK/user.out"
	return $rc
}

session=$(as_user 'loginctl show-session "$XDG_SESSION_ID" -p Active -p Seat -p Class -p Type' |
	tr '\n' ' ')
[[ $session == *Active=yes* && $session == *Seat=seat0* ]] ||
	wifi_fail "the user's session is not active on seat0: $session"
wifi_step "$USER_NAME's login session: $session"

out=$(timeout 60 joinctl station wlan1 disconnect 2>&1) || wifi_step "root's disconnect: $out"
jw -t 20 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "wlan1 did not disconnect"
wifi_step "wlan1 disconnected"
out=$(as_user 'joinctl station wlan1 connect joind-sys') ||
	wifi_fail "$USER_NAME could not connect in an active session: $out"
jw -t 40 object net.joind.Station1 State=connected >/dev/null || wifi_fail "wlan1 did not connect"
wifi_step "$USER_NAME (active session) connected wlan1 to joind-sys"

if out=$(as_user 'joinctl profile create open system-suite-profile'); then
	wifi_fail "$USER_NAME created a profile without an administrator: $out"
fi
grep -q 'net\.joind\.profile\.manage' <<<"$out" ||
	wifi_fail "the refusal does not name net.joind.profile.manage: $out"
wifi_step "profile create refused: $out"

cat >/etc/polkit-1/rules.d/50-joind-system-suite.rules <<EOF2
polkit.addRule(function(action, subject) {
	if (action.id == "net.joind.profile.manage" && subject.user == "$USER_NAME")
		return polkit.Result.YES;
});
EOF2
allowed() { as_user 'joinctl profile create open system-suite-profile' >/dev/null; }
wifi_poll 60 "the admin rule to allow $USER_NAME profile.manage" allowed
[[ -e /var/lib/joind/system-suite-profile.open ]] ||
	wifi_fail "no /var/lib/joind/system-suite-profile.open after the allowed call"
wifi_step "with the rule in /etc/polkit-1/rules.d: the profile was created"
