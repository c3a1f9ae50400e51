#!/bin/bash
# tests/system/guest-init.sh NAME... - PID 1 of the system suite's VM
# (run-in-vm.sh -P), in the build directory: installs the packages that
# system-suite.sh built with dpkg, as an admin would, and hands over to
# Debian's systemd, whose default target here runs the case runner
# (run-cases.sh NAME...) as a service once the machine is up. The root is
# the host's tree under a throw-away overlay, so installing and masking
# change nothing outside this boot.
set -u
: "${JOIND_SOURCE_ROOT:?}" "${JOIND_SYSTEM_OUT:?}"
OUT=$JOIND_SYSTEM_OUT
halt_with() {
	echo "system guest: $*"
	echo 125 >/run/joind-vm/status
	sync
	echo o >/proc/sysrq-trigger
	sleep 30
}

# The packages' maintainer scripts neither enable nor start joind.service
# (debian/rules: 10-start enables it as the README tells an admin to).
# man-db's trigger would index every manual page under emulation. A
# policy-rc.d the host keeps for its own installs (scripts/install-deps)
# would keep the packages' scripts from (re)starting joind here.
rm -f /var/lib/man-db/auto-update /usr/sbin/policy-rc.d
dpkg -i "$OUT"/debs/joind_*.deb "$OUT"/debs/joinctl_*.deb >"$OUT/dpkg.log" 2>&1 ||
	halt_with "dpkg -i failed: $(tail -n 5 "$OUT/dpkg.log")"

# What the host image enables and would take the radios, answer for
# joind's or iwd's bus names, or just run: masked. The default target pulls
# in no more than basic.target (dbus, journald, udevd, logind on demand)
# and the case runner; the cases start polkitd (by D-Bus activation) and
# systemd-networkd themselves.
for unit in NetworkManager.service NetworkManager-dispatcher.service \
	NetworkManager-wait-online.service wpa_supplicant.service iwd.service connman.service \
	connman-wait-online.service hostapd.service freeradius.service postgresql.service \
	systemd-timesyncd.service timers.target remote-fs.target getty.target \
	systemd-networkd-wait-online.service; do
	ln -sfn /dev/null "/etc/systemd/system/$unit"
done
rm -f /usr/share/dbus-1/system-services/fi.w1.wpa_supplicant1.service \
	/usr/share/dbus-1/system-services/net.connman.iwd.service \
	/usr/share/dbus-1/system-services/org.freedesktop.NetworkManager.service

cat >/etc/systemd/system/joind-system.target <<UNIT
[Unit]
Description=joind system tests
Requires=basic.target
After=basic.target
Wants=joind-system-cases.service
UNIT
cat >/etc/systemd/system/joind-system-cases.service <<UNIT
[Unit]
Description=joind system test cases
After=basic.target dbus.service systemd-logind.service
Wants=dbus.service systemd-logind.service

[Service]
Type=exec
WorkingDirectory=$PWD
Environment=JOIND_SOURCE_ROOT=$JOIND_SOURCE_ROOT JOIND_BUILD_ROOT=${JOIND_BUILD_ROOT:-$PWD}
Environment=JOIND_SYSTEM_OUT=$OUT
ExecStart=/bin/bash $JOIND_SOURCE_ROOT/tests/system/run-cases.sh $*
StandardOutput=file:/dev/hvc0
StandardError=inherit
UNIT
ln -sfn joind-system.target /etc/systemd/system/default.target

exec /lib/systemd/systemd
