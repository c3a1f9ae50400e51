# shellcheck shell=bash
# 65-ft-8021x.sh - fast transition with FT-802.1X, EAP-TLS against
# FreeRADIUS: joind-ft8021x offers WPA-EAP and FT-EAP (mobility domain
# a1b2) from two hostapd processes on wlan4 and wlan5, both RADIUS
# clients of FreeRADIUS (eap-radius.sh), in the enterprise namespace of
# eap-ap.sh with both radios; they pass the station's PMK-R1 over RRB
# (ft-lib.sh: a bridge each, joined by a veth pair; r0kh/r1kh name each
# other). joind joins with FT-802.1X beside 802.1X after a full EAP-TLS
# (hostapd lists AKM 00-0f-ac-3, FreeRADIUS saw the request;
# GetDiagnostics says ft-8021x in a1b2 while the network stays Type 8021x,
# Security wpa2-enterprise), then a manual roam moves the link with fast
# transition over the air: the target lists the station authorized with
# FT-802.1X, began no EAP conversation and ran no 4-way handshake with
# it, FreeRADIUS was not asked; "FT over the air" in GetDiagnostics; the
# station never reports disconnected (roam-lib.sh's watch). Each access
# point in turn, the first before the roam and the target after it, runs
# EAP-TLS again with the station (EAPOL_REAUTH): the link is keyed anew
# with a 4-way handshake and never leaves connected.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
# shellcheck source=../eap-radius.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-radius.sh"
# shellcheck source=../ft-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-lib.sh"

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
ft_4way_more() { (($(ft_4way_count "$1" "$2") > $3)); }

# ft_reauth NAME IFACE: hostapd NAME runs EAP-TLS again with the station
# (its EAPOL_REAUTH, as eap_reauth_period would) and the 4-way handshake
# on the new MSK's keys after it; the station never leaves connected on
# D-Bus meanwhile.
ft_reauth() {
	local eap hs monitor
	eap=$(ft_eap_count "$1") hs=$(ft_4way_count "$1" "$2")
	gdbus monitor --system --dest net.joind --object-path "$DEV" >"$WORK/reauth-monitor.txt" 2>&1 &
	monitor=$!
	sleep 0.5
	roam_cli "$1" "$2" raw EAPOL_REAUTH "$ROAM_STA" | grep -qx OK || wifi_fail "$1: EAPOL_REAUTH"
	wifi_poll 40 "a 4-way handshake on $1 after EAP again" ft_4way_more "$1" "$2" "$hs"
	(($(ft_eap_count "$1") > eap)) || wifi_fail "$1 began no EAP conversation again"
	sleep 2
	kill "$monitor" 2>/dev/null || true
	wait "$monitor" 2>/dev/null || true
	! grep -E "'State': <'(disconnected|connecting|disconnecting)'>" "$WORK/reauth-monitor.txt" ||
		wifi_fail "the station left connected during the re-authentication"
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$ROAM_NET" >/dev/null ||
		wifi_fail "not connected after the re-authentication"
	ft_check_akm "$1" "$2" "$ROAM_AKM"
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
	ROAM_AKM=$1
	ft_reauth "${ROAM_FROM[@]}"
	check "$3: ${ROAM_FROM[0]} ran EAP-TLS again: keyed anew (4-way handshake), never disconnected"
	eap_before=$(ft_eap_count "${ROAM_TO[0]}")
	radius_mark
	ft_roam
	ft_roamed "$1" "$2"
	(($(ft_eap_count "${ROAM_TO[0]}") == eap_before)) ||
		wifi_fail "${ROAM_TO[0]} began EAP with the station: the roam was no fast transition"
	radius_saw 'Received Access-Request' && wifi_fail "FreeRADIUS was asked during the roam"
	check "$3: roamed ${ROAM_FROM[1]} -> ${ROAM_TO[1]} in $ROAM_TOOK s with FT over the air (no EAP, no 4-way handshake on ${ROAM_TO[0]}, nothing to FreeRADIUS), never disconnected"
	ft_reauth "${ROAM_TO[@]}"
	check "$3: ${ROAM_TO[0]} ran EAP-TLS again after the transition: keyed anew, never disconnected"
	ent_disconnect
}

trap ft8021x_teardown EXIT
ent_pki
ip netns add "$ENT_NS"
for phy in "${FT_PHYS[@]}"; do
	iw phy "$phy" set netns name "$ENT_NS" || wifi_fail "cannot move $phy into $ENT_NS"
done
radius_start
ft_rrb_up
ft8021x_ap 1 wlan4 6 wlan5 "WPA-EAP FT-EAP"
ft8021x_ap 2 wlan5 11 wlan4 "WPA-EAP FT-EAP"
wifi_step "joind-ft8021x (WPA-EAP and FT-EAP, a1b2) on wlan4 and wlan5, FreeRADIUS behind both, RRB over br-ft1/br-ft2"
jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
jw -t 40 count 1 $NET "Device=$DEV" Name=joind-ft8021x Type=8021x Security=wpa2-enterprise >/dev/null ||
	wifi_fail "joind-ft8021x not listed as an 8021x network with Security wpa2-enterprise"
radius_tls_profile joind-ft8021x
ROAM_STA=$ENT_ADDR
ft8021x_connect_roam 00-0f-ac-3 ft-8021x FT-802.1X

# FT-802.1X-SHA384 beside FT-802.1X is the one taken: SHA-384 keys, the
# 24-octet MICs.
wifi_stop_hostapd ft8021x1
wifi_stop_hostapd ft8021x2
ft8021x_ap 1 wlan4 6 wlan5 "WPA-EAP FT-EAP FT-EAP-SHA384"
ft8021x_ap 2 wlan5 11 wlan4 "WPA-EAP FT-EAP FT-EAP-SHA384"
jcall --object-path "$DEV" --method net.joind.Station1.Scan >/dev/null || wifi_fail "Scan()"
ft8021x_connect_roam 00-0f-ac-13 ft-8021x-sha384 FT-802.1X-SHA384
rm -f "$WORK/state/joind-ft8021x.8021x"
