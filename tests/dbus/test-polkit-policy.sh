#!/bin/bash
# test-polkit-policy: data/net.joind.policy is valid against polkit's own
# DTD (the one Debian's polkitd installs, found through a catalog so that
# nothing is fetched), and every default is one polkit knows (the DTD
# leaves them free text).
set -euo pipefail
policy=${JOIND_SOURCE_ROOT:?}/data/net.joind.policy
dtd=/usr/share/polkit-1/policyconfig-1.dtd
[ -r "$dtd" ] || { echo "FAIL: $dtd is missing (polkitd, scripts/install-deps)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/catalog.xml" <<CATALOG
<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://www.freedesktop.org/software/polkit/policyconfig-1.dtd"
          uri="file://$dtd"/>
</catalog>
CATALOG
XML_CATALOG_FILES=$tmp/catalog.xml xmllint --noout --nonet --valid "$policy"
n=0
while read -r value; do
    case $value in
    no | yes | auth_self | auth_self_keep | auth_admin | auth_admin_keep) n=$((n + 1)) ;;
    *) echo "FAIL: “$value” is not a polkit default" >&2; exit 1 ;;
    esac
done < <(xmllint --nonet --xpath "//defaults/*/text()" "$policy")
[ "$n" -gt 0 ] || { echo "FAIL: no defaults found in $policy" >&2; exit 1; }
echo "ok: $policy is valid; $n defaults"
