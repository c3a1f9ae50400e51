# shellcheck shell=bash
# 65-ft-8021x-sha256.sh - 65-ft-8021x with FT-802.1X (00-0f-ac-3,
# SHA-256): joind-ft8021x offers WPA-EAP and FT-EAP, joind takes FT-EAP
# (GetDiagnostics: ft-8021x); the same join, EAP-TLS again and roam
# (ft-8021x-lib.sh).
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

ft8021x_case "WPA-EAP FT-EAP" 00-0f-ac-3 ft-8021x FT-802.1X
