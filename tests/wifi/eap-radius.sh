# shellcheck shell=bash
# tests/wifi/eap-radius.sh - both EAP servers of the enterprise cases, side
# by side on wlan6 (channel 4, in the namespace of tests/wifi/eap-ap.sh,
# sourced first): hostapd's internal EAP server, and hostapd as the RADIUS
# client of FreeRADIUS 3.2, which runs in that namespace on
# 127.0.0.1:1812.
#   wlan6    joind-ent     WPA2-Enterprise, hostapd's internal EAP server
#   wlan6-1  joind-radius  WPA2-Enterprise, FreeRADIUS behind hostapd
# FreeRADIUS runs from the configuration in tests/wifi/freeradius/ (a
# minimal one of its own: see radiusd.conf there) with the users below;
# -X: one thread and the full debug log the cases assert on (RADIUS_LOG:
# what the server saw).
# Users, the same on both servers: peapuser/peappass (MSCHAPv2),
# gtcuser/gtcpass (GTC), ttlsuser/ttlspass (PAP, MSCHAPv2), ttlsmd5/
# ttlsmd5pass (EAP-MD5 inside TTLS), pwduser/pwdpass (EAP-pwd), and the
# EAP-TLS client certificate of make-pki.sh (tlsuser).

RADIUS_DB=$WORK/raddb
# On the guest's tmpfs: a write to the shared log directory (9p) costs a
# round trip to the host, and -X writes a hundred lines per request.
# radius_stop copies it there.
RADIUS_LOG=$WORK/radiusd.log
RADIUS_SECRET=joind-test-secret

radius_hostapd_users() {
	printf '%s\n' '"tlsuser" TLS' '"pwduser" PWD "pwdpass"' '* PEAP,TTLS,TLS' \
		'"peapuser" MSCHAPV2 "peappass" [2]' '"gtcuser" GTC "gtcpass" [2]' \
		'"ttlsuser" TTLS-PAP,TTLS-MSCHAPV2 "ttlspass" [2]' '"ttlsmd5" MD5 "ttlsmd5pass" [2]'
}

radius_users() {
	local u
	for u in peapuser:peappass gtcuser:gtcpass ttlsuser:ttlspass ttlsmd5:ttlsmd5pass \
		pwduser:pwdpass; do
		printf '%s Cleartext-Password := "%s"\n' "${u%%:*}" "${u#*:}"
	done
}

radius_stop() {
	local pid
	pid=$(cat "$WORK/radiusd.pid" 2>/dev/null) || return 0
	rm -f "$WORK/radiusd.pid"
	kill "$pid" 2>/dev/null || true
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	cp "$RADIUS_LOG" "$LOGDIR/radiusd.log"
}

# Starts FreeRADIUS in the namespace (a leftover of a failed case stopped
# first) and waits until it serves requests.
radius_start() {
	local t f conf=$JOIND_SOURCE_ROOT/tests/wifi/freeradius
	radius_stop
	rm -rf "$RADIUS_DB"
	mkdir -p "$RADIUS_DB"
	for f in radiusd.conf eap.conf; do
		sed -e "s|@DIR@|$RADIUS_DB|g" -e "s|@PKI@|$ENT_PKI|g" -e "s|@SECRET@|$RADIUS_SECRET|g" \
			"$conf/$f" >"$RADIUS_DB/$f"
	done
	radius_users >"$RADIUS_DB/users"
	ent_ns ip link set lo up
	t=$(wifi_now)
	# Line-buffered: the cases read the log while the server runs, and a
	# check that nothing was logged must not race a full stdio buffer.
	ent_ns stdbuf -oL -eL freeradius -D "$conf" -d "$RADIUS_DB" -X >"$RADIUS_LOG" 2>&1 &
	echo $! >"$WORK/radiusd.pid"
	wifi_poll 60 "FreeRADIUS ready" grep -q "Ready to process requests" "$RADIUS_LOG"
	wifi_step "FreeRADIUS ready in $(wifi_since "$t") s"
}

radius_hostapd_conf() {
	printf 'ctrl_interface=/run/hostapd-ent\ninterface=wlan6\ndriver=nl80211\n'
	printf 'hw_mode=g\nchannel=4\nssid=joind-ent\nwpa=2\nwpa_key_mgmt=WPA-EAP\n'
	ent_bss_lines
	printf '\nbss=wlan6-1\nbssid=02:00:00:00:06:11\nssid=joind-radius\nwpa=2\n'
	printf 'wpa_key_mgmt=WPA-EAP\nrsn_pairwise=CCMP\nieee8021x=1\neap_server=0\n'
	printf 'own_ip_addr=127.0.0.1\nnas_identifier=joind-test\nauth_server_addr=127.0.0.1\n'
	printf 'auth_server_port=1812\nauth_server_shared_secret=%s\n' "$RADIUS_SECRET"
}

radius_setup() {
	# A failed case exits through wifi_fail: its server log is kept too.
	trap 'cp "$RADIUS_LOG" "$LOGDIR/radiusd.log" 2>/dev/null || true' EXIT
	ent_pki
	radius_hostapd_users >"$WORK/ent-users"
	ip netns add "$ENT_NS"
	iw phy "$ENT_PHY" set netns name "$ENT_NS" || wifi_fail "cannot move $ENT_PHY into $ENT_NS"
	radius_start
	radius_hostapd_conf >"$WORK/hostapd-ent.conf"
	ent_start_hostapd
	wifi_step "joind-ent (hostapd's EAP server) and joind-radius (FreeRADIUS) up on $ENT_PHY"
}

radius_teardown() {
	radius_stop
	ent_teardown
}

# radius_mark: what FreeRADIUS logs from now on is radius_since's.
radius_mark() { RADIUS_MARK=$(wc -l <"$RADIUS_LOG"); }
radius_since() { tail -n +$((RADIUS_MARK + 1)) "$RADIUS_LOG"; }
# radius_saw PATTERN: FreeRADIUS logged an ERE match since the mark. Not
# `radius_since | grep -q`: grep quitting at the first match leaves tail
# writing into a closed pipe, and under pipefail that SIGPIPE fails the
# check although the line was there.
radius_saw() { grep -qE -- "$1" <<<"$(radius_since)"; }

# radius_outer_names: the User-Name of every Access-Request since the mark
# (what crossed the air in the clear), one per line, sorted, unique.
radius_outer_names() {
	radius_since | grep -A1 'Received Access-Request' | sed -n 's/.*User-Name = "\(.*\)"$/\1/p' |
		sort -u
}

# radius_tls_profile SSID LINE...: EAP-TLS as tlsuser with the PKCS#12
# bundle, over TLS 1.3 only.
radius_tls_profile() {
	local ssid=$1
	shift
	ent_profile "$ssid" '[Security]' EAP-Method=TLS EAP-Identity=tlsuser \
		"EAP-TLS-CACert=$ENT_PKI/ca.pem" EAP-TLS-ServerDomainMask=auth.test \
		"EAP-TLS-ClientKeyBundle=$ENT_PKI/client.p12" EAP-TLS-ClientKeyPassphrase=whatever \
		EAP-TLS-Version-Min=1.3 "$@" '[Settings]' AutoConnect=false
}
