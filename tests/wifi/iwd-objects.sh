#!/bin/bash
# iwd-objects.sh - the shape of net.connman.iwd's object tree, one line per
# property: "PATH INTERFACE PROPERTY SIGNATURE", sorted, values left out,
# for comparing joind's front end with iwd 2.3 (90-iwd-differential).
# Interfaces outside what joind implements (iwd's SimpleConfiguration,
# DeviceProvisioning, AccessPoint, AdHoc, StationDebug) and D-Bus's own are
# left out; an interface without properties is one line "PATH INTERFACE -".
set -euo pipefail
busctl --system --json=short call net.connman.iwd / \
	org.freedesktop.DBus.ObjectManager GetManagedObjects |
	jq -r '.data[0] | to_entries[] | .key as $path | .value | to_entries[]
		| select(.key | test("^net\\.connman\\.iwd\\.(Daemon|AgentManager|Adapter|Device|Station|StationDiagnostic|Network|KnownNetwork)$"))
		| .key as $iface
		| if (.value | length) == 0 then "\($path) \($iface) -"
		  else (.value | to_entries[] | "\($path) \($iface) \(.key) \(.value.type)") end' |
	LC_ALL=C sort
