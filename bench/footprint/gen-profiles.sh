#!/bin/bash
# gen-profiles.sh - fills a state directory with known-network files, as an
# administrator with many networks would have (bench/footprint).
#     gen-profiles.sh DIR N
# N files: three in four WPA2-PSK with a passphrase and the derived key (as
# iwd writes them), the rest open; every tenth hidden, every seventh not
# auto-connecting. Mode 0600, like the daemon's own.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: gen-profiles.sh DIR N" >&2; exit 2; }
dir=$1 n=$2
mkdir -p "$dir"
chmod 700 "$dir"
umask 077
printf -v psk '%064x' 0
for ((i = 0; i < n; i++)); do
	printf -v name 'bench-%05d' "$i"
	settings=""
	((i % 10 == 0)) && settings+=$'Hidden=true\n'
	((i % 7 == 0)) && settings+=$'AutoConnect=false\n'
	[[ -n $settings ]] && settings=$'[Settings]\n'"$settings"
	if ((i % 4 == 3)); then
		printf '%s' "$settings" >"$dir/$name.open"
	else
		printf '[Security]\nPassphrase=passphrase-%05d\nPreSharedKey=%s\n%s' \
			"$i" "$psk" "${settings:+$'\n'$settings}" >"$dir/$name.psk"
	fi
done
