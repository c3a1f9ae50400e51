# shellcheck shell=bash
# tests/wifi/cases/61-eap-pmksa.sh - PMKSA caching on WPA2-Enterprise
# (tests/wifi/eap-ap.sh): the second association names the cached PMKID and
# skips EAP (hostapd begins no EAP conversation, pmksa_cached in
# the diagnostics); hostapd restarted (its cache gone) -> full EAP again;
# an admin's profile dropped in (joind restarted first) -> autoconnect
# joins (full EAP: the PMKSA went with the old profile), and its removal
# takes the link.

# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
ent_setup

# pmksa_round WANT-CACHED: Connect(), then the diagnostics' pmksa_cached and
# hostapd's count of the EAP conversations it began agree with WANT-CACHED.
pmksa_round() {
	local before after
	before=$(ent_eap_started_count)
	ent_connect joind-ent
	after=$(ent_eap_started_count)
	ent_link ".pmksa_cached == $1" ||
		wifi_fail "pmksa_cached is not $1: $(wifi_diag '.devices[] | select(.name == "wlan2") | .details.connection')"
	if [[ $1 == true ]]; then
		((after == before)) || wifi_fail "hostapd began EAP although the PMKSA was cached"
	else
		((after > before)) || wifi_fail "hostapd began no EAP conversation"
	fi
}

ent_peap_profile joind-ent peappass
pmksa_round false
full_took=$TOOK
ent_ping wlan6
wifi_disconnect
pmksa_round true
grep -qE 'authorized:\s*yes' <<<"$(ent_ns iw dev wlan6 station get "$ENT_ADDR")" ||
	wifi_fail "PMKSA: AP: station not authorized"
ent_ping wlan6
check "PMKSA: full EAP in ${full_took} s, then the cached PMKSA in ${TOOK} s (no EAP in hostapd's log, pmksa_cached=true); ping: $ENT_PING"
wifi_disconnect

wifi_stop_hostapd ent
ent_start_hostapd
pmksa_round false
check "hostapd restarted (its PMKSA cache gone): full EAP again in ${TOOK} s"
wifi_disconnect

# ------------------------------------------------- an admin's profile ---
# A user's Disconnect() turned autoconnect off until the next Connect():
# joind starts afresh, with no profile, before the admin drops one in.
rm "$WORK/state/joind-ent.8021x"
wifi_restart_joind_same
jw -t 40 object $NET "Device=$DEV" Name=joind-ent 'KnownNetwork=/' >/dev/null ||
	wifi_fail "joind-ent not listed after the restart"
before=$(ent_eap_started_count)
t=$(wifi_now)
ent_profile joind-ent '[Security]' EAP-Method=PEAP EAP-Identity=anonymous@auth.test \
	"EAP-PEAP-CACert=$ENT_PKI/ca.pem" EAP-PEAP-ServerDomainMask=auth.test \
	EAP-PEAP-Version-Max=1.2 \
	EAP-PEAP-Phase2-Method=MSCHAPV2 EAP-PEAP-Phase2-Identity=peapuser \
	EAP-PEAP-Phase2-Password=peappass
ent_path joind-ent
jw -t 60 object net.joind.Station1 State=connected "ConnectedNetwork=$ENT_PATH" >/dev/null ||
	wifi_fail "autoconnect did not join joind-ent from the dropped-in profile"
# Full EAP: the old profile's PMKSA went with it (a link lost since, as a
# loaded VM's beacon loss does, may come back on the new one's PMKSA).
(($(ent_eap_started_count) > before)) || wifi_fail "autoconnect: no full EAP authentication"
check "admin's profile dropped in: autoconnect joined joind-ent in $(wifi_since "$t") s (full EAP: a new profile flushed the PMKSA)"
rm "$WORK/state/joind-ent.8021x"
jw -t 20 object net.joind.Station1 State=disconnected >/dev/null ||
	wifi_fail "the profile's removal did not take the link"
check "profile removed: the link went"

ent_teardown
