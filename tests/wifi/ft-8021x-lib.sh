# shellcheck shell=bash
# tests/wifi/ft-8021x-lib.sh - what the FT-802.1X cases (65-ft-8021x*)
# share, sourced after roam-lib.sh, eap-ap.sh, eap-radius.sh and
# ft-lib.sh: joind-ft8021x from two hostapd processes on wlan4 and wlan5,
# both RADIUS clients of FreeRADIUS (eap-radius.sh), in the enterprise
# namespace of eap-ap.sh with both radios; they pass the station's PMK-R1
# over RRB (ft-lib.sh: a bridge each, joined by a veth pair; r0kh/r1kh
# name each other). ft8021x_case runs a case: the join with full EAP-TLS,
# EAP-TLS again at that access point (EAPOL_REAUTH), then a roam with
# fast transition over the air (no EAP on the target, nothing asked of
# FreeRADIUS, no 4-way handshake); the station never reports
# disconnected. (EAP again at the target is not asked: hostapd keys it
# with the target's own R0KH-ID, which no frame tells the station; the
# station can only use the one the reassociation response names.)

FT_RRB_EXEC="ip netns exec $ENT_NS"
FT_PHYS=("$(cat /sys/class/net/wlan4/phy80211/name)" "$(cat /sys/class/net/wlan5/phy80211/name)")

ft8021x_up() { ent_ns iw dev "$1" info 2>/dev/null | grep -q 'type AP'; }

ft8021x_ap() { # N IFACE CHANNEL OTHER-IFACE AKMS
	cat >"$WORK/hostapd-ft8021x$1.conf" <<EOF2
ctrl_interface=/run/hostapd-ft8021x$1
$(ft_ap_lines "$1" "$2" "$3" "$4" joind-ft8021x)
wpa_key_mgmt=$5
ieee8021x=1
eap_server=0
own_ip_addr=127.0.0.1
auth_server_addr=127.0.0.1
auth_server_port=1812
auth_server_shared_secret=$RADIUS_SECRET
EOF2
	ent_ns hostapd -B -P "$WORK/hostapd-ft8021x$1.pid" -f "$LOGDIR/hostapd-ft8021x$1.log" \
		"$WORK/hostapd-ft8021x$1.conf" || wifi_fail "hostapd ft8021x$1 did not start"
	wifi_poll 30 "hostapd ft8021x$1 beaconing" ft8021x_up "$2"
}

ft8021x_teardown() {
	cp "$RADIUS_LOG" "$LOGDIR/radiusd.log" 2>/dev/null || true
	wifi_stop_hostapd ft8021x1
	wifi_stop_hostapd ft8021x2
	radius_stop
	ft_rrb_down
	for phy in "${FT_PHYS[@]}"; do ent_ns iw phy "$phy" set netns 1 2>/dev/null || true; done
	ip netns del "$ENT_NS" 2>/dev/null || true
}
ft_eap_count() { grep -c 'CTRL-EVENT-EAP-STARTED' "$LOGDIR/hostapd-$1.log" || true; }
ft_eap_done() { (($(grep -c 'CTRL-EVENT-EAP-SUCCESS' "$LOGDIR/hostapd-$1.log" || true) > $2)); }

# ft_reauth NAME IFACE AKM: hostapd NAME runs EAP-TLS again with the station
# (its EAPOL_REAUTH, as eap_reauth_period would) and succeeds; the station
# never leaves connected on D-Bus, and hostapd still lists it authorized
# with AKM. (hostapd 2.10 runs no 4-way handshake after it: the link
# keeps its PTK, and joind holds the new MSK's keys for the next one.)
ft_reauth() {
	local ok monitor
	ok=$(grep -c 'CTRL-EVENT-EAP-SUCCESS' "$LOGDIR/hostapd-$1.log" || true)
	gdbus monitor --system --dest net.joind --object-path "$DEV" >"$WORK/reauth-monitor.txt" 2>&1 &
	monitor=$!
	sleep 0.5
	roam_cli "$1" "$2" raw EAPOL_REAUTH "$ROAM_STA" | grep -qx OK || wifi_fail "$1: EAPOL_REAUTH"
	wifi_poll 40 "EAP-TLS again on $1" ft_eap_done "$1" "$ok"
	sleep 3
	kill "$monitor" 2>/dev/null || true
	wait "$monitor" 2>/dev/null || true
	! grep -E "'State': <'(disconnected|connecting|disconnecting)'>" "$WORK/reauth-monitor.txt" ||
		wifi_fail "the station left connected during the re-authentication"
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$ROAM_NET" >/dev/null ||
		wifi_fail "not connected after the re-authentication"
	ft_check_akm "$1" "$2" "$3"
}

# ft8021x_connect_roam AKM WORD NAME: Connect() with full EAP-TLS joins
# with AKM (WORD in the diagnostics), then a roam with no EAP on the
# target and nothing asked of FreeRADIUS; disconnected after.
ft8021x_connect_roam() {
	local eap_before
	radius_mark
	ent_connect joind-ft8021x
	ROAM_NET=$ENT_PATH
	roam_find_sta ft8021x1 wlan4 ft8021x2 wlan5
	radius_saw 'Received Access-Request' || wifi_fail "FreeRADIUS saw no request for the first association"
	ft_joined "$1" "$2"
	(($(ft_eap_count "${ROAM_FROM[0]}") >= 1)) || wifi_fail "${ROAM_FROM[0]}'s log shows no EAP for the first association"
	check "EAP-TLS via FreeRADIUS, joined through ${ROAM_FROM[1]} with $3 in $TOOK s"
	ft_reauth "${ROAM_FROM[@]}" "$1"
	check "$3: ${ROAM_FROM[0]} ran EAP-TLS again: the link stayed connected"
	eap_before=$(ft_eap_count "${ROAM_TO[0]}")
	radius_mark
	ft_roam
	ft_roamed "$1" "$2"
	(($(ft_eap_count "${ROAM_TO[0]}") == eap_before)) ||
		wifi_fail "${ROAM_TO[0]} began EAP with the station: the roam was no fast transition"
	radius_saw 'Received Access-Request' && wifi_fail "FreeRADIUS was asked during the roam"
	check "$3: roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s with FT over the air (no EAP, no 4-way handshake on ${ROAM_TO[0]}, nothing to FreeRADIUS), never disconnected"
	wifi_disconnect
}

# ft8021x_case AKMS AKM WORD NAME: both access points offer AKMS
# (hostapd's wpa_key_mgmt), of which joind takes AKM (its suite selector,
# WORD in the diagnostics, NAME in the log).
ft8021x_case() {
	trap ft8021x_teardown EXIT
	ent_pki
	ip netns add "$ENT_NS"
	for phy in "${FT_PHYS[@]}"; do
		iw phy "$phy" set netns name "$ENT_NS" || wifi_fail "cannot move $phy into $ENT_NS"
	done
	radius_start
	ft_rrb_up
	ft8021x_ap 1 wlan4 6 wlan5 "$1"
	ft8021x_ap 2 wlan5 11 wlan4 "$1"
	wifi_step "joind-ft8021x ($1, a1b2) on wlan4 and wlan5, FreeRADIUS behind both, RRB over br-ft1/br-ft2"
	jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
	jw -t 40 count 1 $NET "Device=$DEV" Name=joind-ft8021x Type=8021x Security=wpa2-enterprise >/dev/null ||
		wifi_fail "joind-ft8021x not listed as an 8021x network with Security wpa2-enterprise"
	radius_tls_profile joind-ft8021x
	ROAM_STA=$ENT_ADDR
	ft8021x_connect_roam "$2" "$3" "$4"
	rm -f "$WORK/state/joind-ft8021x.8021x"
}
