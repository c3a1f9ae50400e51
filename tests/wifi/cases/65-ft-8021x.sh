# shellcheck shell=bash
# 65-ft-8021x.sh - fast transition with FT-802.1X-SHA384, EAP-TLS against
# FreeRADIUS (ft-8021x-lib.sh): joind-ft8021x offers WPA-EAP, FT-EAP and
# FT-EAP-SHA384 (mobility domain a1b2) and joind takes FT-802.1X-SHA384,
# the stricter (SHA-384 keys, the 24-octet MICs): after a full EAP-TLS
# hostapd lists AKM 00-0f-ac-13, FreeRADIUS saw the request, GetDiagnostics
# says ft-8021x-sha384 in a1b2 while the network stays Type 8021x,
# Security wpa2-enterprise. The access point runs EAP-TLS again
# (EAPOL_REAUTH): the link is keyed anew with a 4-way handshake. A manual
# roam then moves the link with fast transition over the air: the target
# lists the station authorized with FT-802.1X-SHA384, began no EAP
# conversation and ran no 4-way handshake with it, FreeRADIUS was not
# asked; "FT over the air" in GetDiagnostics. The station never reports
# disconnected (roam-lib.sh's watch). FT-802.1X (SHA-256) is
# 65-ft-8021x-sha256, on demand.
# shellcheck source=../roam-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/roam-lib.sh"
# shellcheck source=../eap-ap.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-ap.sh"
# shellcheck source=../eap-radius.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/eap-radius.sh"
# shellcheck source=../ft-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-lib.sh"
# shellcheck source=../ft-8021x-lib.sh
source "$JOIND_SOURCE_ROOT/tests/wifi/ft-8021x-lib.sh"

ft8021x_case "WPA-EAP FT-EAP FT-EAP-SHA384" 00-0f-ac-13 ft-8021x-sha384 FT-802.1X-SHA384
