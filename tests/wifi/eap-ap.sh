# shellcheck shell=bash
# tests/wifi/eap-ap.sh - the enterprise access points of the 6x cases
# (802.1X), sourced by them: hostapd with its internal EAP server on wlan6
# (channel 4), whose phy moves into a network namespace of its own so that
# a ping between the AP (10.9.6.1) and wlan2 (10.9.6.2) crosses the air.
#   wlan6    joind-ent       WPA2-Enterprise (AKM 00-0F-AC:1)
#   wlan6-1  joind-ent-wpa3  WPA3-Enterprise (AKM :5, MFP required)
# Users: "*" PEAP/TTLS/TLS outer, "peapuser" MSCHAPv2 inside, the TLS client
# certificate of tests/wired/make-pki.sh ("tlsuser").

ENT_NS=joind-ent
ENT_PHY=$(cat /sys/class/net/wlan6/phy80211/name)
ENT_ADDR=$(cat /sys/class/net/wlan2/address)
ENT_HOSTAPD_LOG=$LOGDIR/hostapd-ent.log
# P-256 keys by default (quick to make in the emulated guest); iwd's TLS
# (ell) takes RSA server certificates only, so runs against iwd set
# ENT_KEY_ALG=rsa.
ENT_KEY_ALG=${ENT_KEY_ALG:-ec}
ENT_PKI=$WORK/pki-$ENT_KEY_ALG

ent_ns() { ip netns exec "$ENT_NS" "$@"; }

ent_ap_up() {
	local info i
	for i in wlan6 wlan6-1; do
		info=$(ent_ns iw dev "$i" info 2>/dev/null) || return 1
		grep -q "type AP" <<<"$info" && grep -q "ssid" <<<"$info" || return 1
	done
}

# The PKI of the wired tests with ENT_KEY_ALG keys, made once per VM boot.
ent_pki() {
	[[ -s $ENT_PKI/client.p12 ]] && return 0
	PKI_KEY_ALG=$ENT_KEY_ALG "$JOIND_SOURCE_ROOT/tests/wired/make-pki.sh" "$ENT_PKI.tmp" >/dev/null 2>&1 ||
		wifi_fail "make-pki.sh failed"
	mv "$ENT_PKI.tmp" "$ENT_PKI"
}

# ent_bss_lines: what both BSSes share (802.1X, the EAP server, its PKI).
ent_bss_lines() {
	cat <<EOF2
rsn_pairwise=CCMP
ieee8021x=1
eap_server=1
eap_user_file=$WORK/ent-users
ca_cert=$ENT_PKI/ca.pem
server_cert=$ENT_PKI/server.pem
private_key=$ENT_PKI/server.key
tls_flags=[ENABLE-TLSv1.3]
EOF2
}

ent_start_hostapd() {
	ent_ns hostapd -B -P "$WORK/hostapd-ent.pid" -f "$ENT_HOSTAPD_LOG" "$WORK/hostapd-ent.conf" ||
		wifi_fail "hostapd ent did not start"
	wifi_poll 30 "hostapd ent beaconing" ent_ap_up
}

ent_setup() {
	ent_pki
	printf '%s\n' '"tlsuser" TLS' '* PEAP,TTLS,TLS' '"peapuser" MSCHAPV2 "peappass" [2]' \
		>"$WORK/ent-users"
	ip netns add "$ENT_NS"
	iw phy "$ENT_PHY" set netns name "$ENT_NS" || wifi_fail "cannot move $ENT_PHY into $ENT_NS"
	{
		printf 'ctrl_interface=/run/hostapd-ent\ninterface=wlan6\ndriver=nl80211\n'
		printf 'hw_mode=g\nchannel=4\nssid=joind-ent\nwpa=2\nwpa_key_mgmt=WPA-EAP\n'
		ent_bss_lines
		printf '\nbss=wlan6-1\nbssid=02:00:00:00:06:11\nssid=joind-ent-wpa3\nwpa=2\n'
		printf 'wpa_key_mgmt=WPA-EAP-SHA256\nieee80211w=2\n'
		ent_bss_lines
	} >"$WORK/hostapd-ent.conf"
	ent_start_hostapd
	wifi_step "enterprise APs up on $ENT_PHY (wlan6, channel 4) in netns $ENT_NS"
}

ent_teardown() {
	wifi_stop_hostapd ent
	ent_ns iw phy "$ENT_PHY" set netns 1 || wifi_fail "cannot move $ENT_PHY back"
	ip netns del "$ENT_NS"
}

# ent_profile SSID LINE...: an admin's .8021x profile (0600), picked up
# within ENT_WAIT seconds (10).
ent_profile() {
	local ssid=$1
	shift
	(
		umask 077
		printf '%s\n' "$@" >"$WORK/state/$ssid.8021x"
	)
	jw -t "${ENT_WAIT:-10}" object $NET "Device=$DEV" "Name=$ssid" 'KnownNetwork!=/' >/dev/null ||
		wifi_fail "$ssid: the profile was not picked up"
}

# ent_peap_profile SSID PASSWORD [LINE...]: PEAP/MSCHAPv2 as peapuser
# (over TLS 1.3 with hostapd's EAP server); AutoConnect=$ENT_AUTOCONNECT
# (default false).
ent_peap_profile() {
	local ssid=$1 pass=$2
	shift 2
	ent_profile "$ssid" '[Security]' EAP-Method=PEAP EAP-Identity=anonymous@auth.test \
		"EAP-PEAP-CACert=$ENT_PKI/ca.pem" EAP-PEAP-ServerDomainMask=auth.test \
		EAP-PEAP-Phase2-Method=MSCHAPV2 EAP-PEAP-Phase2-Identity=peapuser \
		${pass:+"EAP-PEAP-Phase2-Password=$pass"} "$@" '[Settings]' \
		"AutoConnect=${ENT_AUTOCONNECT:-false}"
}

# ent_path SSID: the network's object path, into ENT_PATH.
ent_path() {
	ENT_PATH=$(jw -t 40 object $NET "Device=$DEV" "Name=$1" Type=8021x) ||
		wifi_fail "$1 not listed as an 8021x network"
}

# EAP in an emulated VM on a loaded machine (FreeRADIUS behind hostapd
# above all) may outlast D-Bus's default 25 s for a reply.
ENT_CALL_TIMEOUT=120

# ent_connect SSID: Connect() from the profile, up to State=connected;
# TOOK: seconds the call took.
ent_connect() {
	local t
	ent_path "$1"
	t=$(wifi_now)
	jcall --timeout $ENT_CALL_TIMEOUT --object-path "$ENT_PATH" --method $NET.Connect >/dev/null ||
		wifi_fail "Connect() $1 failed"
	TOOK=$(wifi_since "$t")
	jw -t 10 object net.joind.Station1 State=connected "ConnectedNetwork=$ENT_PATH" >/dev/null ||
		wifi_fail "$1: State is not connected / ConnectedNetwork is not $ENT_PATH"
	grep -q "SSID: $1" <<<"$(iw dev wlan2 link)" || wifi_fail "$1: iw: wlan2 not associated"
}

# ent_connect_fails SSID: Connect() fails; its error into ENT_ERR.
ent_connect_fails() {
	ent_path "$1"
	ENT_ERR=$(jcall --timeout $ENT_CALL_TIMEOUT --object-path "$ENT_PATH" --method $NET.Connect 2>&1) &&
		wifi_fail "Connect() $1 succeeded"
	jw -t 10 object net.joind.Station1 State=disconnected ConnectedNetwork=/ >/dev/null ||
		wifi_fail "$1: not disconnected after the failure"
}

# ent_link JQ: the connected link's diagnostics satisfy JQ.
ent_link() {
	wifi_diag ".devices[] | select(.name == \"wlan2\") | .details.connection | $1" >/dev/null
}

# ent_ping AP-IFACE: 20 pings from the AP's side; ENT_PING the summary.
ent_ping() {
	local out
	ent_ns ip addr add 10.9.6.1/24 dev "$1" || wifi_fail "ip addr add on $1"
	ip addr add 10.9.6.2/24 dev wlan2 || wifi_fail "ip addr add on wlan2"
	out=$(ent_ns ping -n -q -i 0.2 -c 20 -w 20 10.9.6.2 2>&1) || true
	ent_ns ip addr del 10.9.6.1/24 dev "$1"
	ip addr del 10.9.6.2/24 dev wlan2
	ENT_PING=$(grep 'packets transmitted' <<<"$out") || true
	grep -q " 20 received, 0% packet loss" <<<"$ENT_PING" || wifi_fail "ping via $1: ${ENT_PING:-$out}"
}

# EAP conversations hostapd began (none for an association that names a
# PMKSA it still has; a loaded VM's retransmitted association request may
# make it begin a second one after the first).
ent_eap_started_count() {
	grep -c 'CTRL-EVENT-EAP-STARTED' "$ENT_HOSTAPD_LOG" || true
}
