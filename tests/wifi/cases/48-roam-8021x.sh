# shellcheck shell=bash
# 48-roam-8021x.sh - 802.1X roams, EAP-TLS against FreeRADIUS: two BSSes
# of joind-eroam in one hostapd (wlan6 and wlan6-1, channel 4, in the
# enterprise namespace of eap-ap.sh; hostapd the RADIUS client of
# FreeRADIUS, eap-radius.sh). Each roam is Station1.Roam() to the other
# BSS (equal signal: the same radio), and each is checked on D-Bus
# (roaming said, never disconnected, ConnectedAccessPoint the target:
# roam-lib.sh) and in hostapd's and FreeRADIUS's views:
#   - the first roam runs full EAP (the target has no PMKSA);
#   - the roam back offers the PMKSA cached there: no EAP begins, no
#     Access-Request reaches FreeRADIUS, pmksa_cached in the diagnostics;
#   - with okc=1 (one hostapd shares its BSSes' PMKSAs) and the profile's
#     [Settings] OKC=true, the first roam already skips EAP: the PMKID
#     derived for the target from the first BSS's PMK.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
# shellcheck source=../eap-radius.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-radius.sh"

# eroam_bss OKC: one BSS's lines (802.1X through FreeRADIUS).
eroam_bss() {
	printf 'ctrl_interface=/run/hostapd-ent\nssid=joind-eroam\nwpa=2\nwpa_key_mgmt=WPA-EAP\n'
	printf 'rsn_pairwise=CCMP\nieee8021x=1\neap_server=0\nokc=%s\n' "$1"
	printf 'own_ip_addr=127.0.0.1\nnas_identifier=joind-test\nauth_server_addr=127.0.0.1\n'
	printf 'auth_server_port=1812\nauth_server_shared_secret=%s\n' "$RADIUS_SECRET"
	printf 'rrm_neighbor_report=1\nbss_transition=1\n'
}

# eroam_start OKC: hostapd (its PMKSA caches empty) with both BSSes.
eroam_start() {
	wifi_stop_hostapd ent
	{
		printf 'interface=wlan6\ndriver=nl80211\nhw_mode=g\nchannel=4\n'
		eroam_bss "$1"
		printf '\nbss=wlan6-1\nbssid=02:00:00:00:06:11\n'
		eroam_bss "$1"
	} >"$WORK/hostapd-ent.conf"
	ent_start_hostapd
}

# eroam_profile LINE...: EAP-TLS as tlsuser (PKCS#12, TLS 1.3), the lines
# given in [Settings].
eroam_profile() {
	ent_profile joind-eroam '[Security]' EAP-Method=TLS EAP-Identity=tlsuser \
		"EAP-TLS-CACert=$ENT_PKI/ca.pem" EAP-TLS-ServerDomainMask=auth.test \
		"EAP-TLS-ClientKeyBundle=$ENT_PKI/client.p12" EAP-TLS-ClientKeyPassphrase=whatever \
		EAP-TLS-Version-Min=1.3 '[Settings]' AutoConnect=false "$@"
}

# eroam_connect: Connect(), then which BSS hostapd lists the station on
# (ROAM_FROM) and the other (ROAM_TO, ROAM_TO_BSSID).
eroam_connect() {
	ent_connect joind-eroam
	ROAM_NET=$ENT_PATH
	if roam_has_sta ent wlan6 "$ROAM_STA"; then
		ROAM_FROM=(ent wlan6) ROAM_TO=(ent wlan6-1)
	else
		roam_has_sta ent wlan6-1 "$ROAM_STA" || wifi_fail "neither BSS lists $ROAM_STA"
		ROAM_FROM=(ent wlan6-1) ROAM_TO=(ent wlan6)
	fi
	ROAM_TO_BSSID=$(ent_ns cat "/sys/class/net/${ROAM_TO[1]}/address")
}

# eroam_roam WANT-EAP: Station1.Roam() to ROAM_TO; hostapd began an EAP
# conversation with us and FreeRADIUS saw an Access-Request (WANT-EAP
# true), or neither and the link runs on a cached PMKSA (false). FROM and
# TO swapped after.
eroam_roam() {
	local before after from=("${ROAM_FROM[@]}")
	before=$(ent_eap_started_count)
	radius_mark
	roam_watch_start
	jcall --object-path "$DEV" --method net.joind.Station1.Roam "$ROAM_TO_BSSID" >/dev/null ||
		wifi_fail "Roam($ROAM_TO_BSSID)"
	roam_watch_check
	after=$(ent_eap_started_count)
	if [[ $1 == true ]]; then
		((after > before)) || wifi_fail "roam to ${ROAM_TO[1]}: hostapd began no EAP conversation"
		radius_saw 'Received Access-Request' || wifi_fail "roam to ${ROAM_TO[1]}: FreeRADIUS saw no request"
	else
		((after == before)) || wifi_fail "roam to ${ROAM_TO[1]}: hostapd began EAP"
		radius_saw 'Received Access-Request' && wifi_fail "roam to ${ROAM_TO[1]}: FreeRADIUS was asked"
		ent_link '.pmksa_cached == true' ||
			wifi_fail "roam to ${ROAM_TO[1]}: pmksa_cached is not true: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
	fi
	ROAM_FROM=("${ROAM_TO[@]}")
	ROAM_TO=("${from[@]}")
	ROAM_TO_BSSID=$(ent_ns cat "/sys/class/net/${ROAM_TO[1]}/address")
}

trap 'cp "$RADIUS_LOG" "$LOGDIR/radiusd.log" 2>/dev/null || true' EXIT
ent_pki
radius_hostapd_users >"$WORK/ent-users"
ip netns add "$ENT_NS"
iw phy "$ENT_PHY" set netns name "$ENT_NS" || wifi_fail "cannot move $ENT_PHY into $ENT_NS"
radius_start
eroam_start 0
wifi_step "joind-eroam on wlan6 and wlan6-1 (channel 4), FreeRADIUS behind them"
ROAM_STA=$ENT_ADDR

eroam_profile
eroam_connect
check "EAP-TLS via FreeRADIUS: connected through ${ROAM_FROM[1]} in $TOOK s"
eroam_roam true
check "roam to ${ROAM_FROM[1]}: full EAP-TLS in $ROAM_TOOK s, never disconnected"
eroam_roam false
check "roam back to ${ROAM_FROM[1]}: the cached PMKSA in $ROAM_TOOK s (no EAP in hostapd, nothing to FreeRADIUS), never disconnected"
wifi_disconnect

eroam_start 1
eroam_profile OKC=true
eroam_connect
eroam_roam false
check "okc=1 and OKC=true: roam to ${ROAM_FROM[1]} on the derived PMKSA in $ROAM_TOOK s (no EAP), never disconnected"
wifi_disconnect
rm -f "$WORK/state/joind-eroam.8021x"
radius_teardown
