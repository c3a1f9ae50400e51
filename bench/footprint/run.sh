#!/bin/bash
# bench/footprint/run.sh - joind's footprint and speed on the host, beside
# the floor (what the required stack costs doing nothing), in seconds.
#
# Run from the build directory:
#     ../bench/footprint/run.sh [ROUNDS]        (default 3; medians)
#
# On a private session bus (dbus-daemon --session) it prints:
#   - idle memory (VmRSS, RssAnon, Pss) and start-up (exec -> name on the
#     bus, wall and the process's CPU) of: floor (bench/footprint/floor.c),
#     floor after one PBKDF2 + HMAC (what a Passphrase= profile costs in
#     OpenSSL), joind with no plugin, joind with every plugin (this host:
#     no WiFi, no 802.1X port), joind with 10,000 known networks;
#   - resident size per mapped library, joind beside the floor;
#   - 10,000 known networks (bench/footprint/gen-profiles.sh): heap per
#     profile, GetManagedObjects (the call's wall time and joind's own
#     CPU for it, beside the floor sending a reply of the same shape and
#     size that it built beforehand), CPU to reload one changed file and to
#     reload everything (SIGHUP);
#   - heap per Ethernet port (DEVICES veth links in a network namespace,
#     default 300; skipped when no namespace can be made);
#   - CPU per full scan at 1/10/120/500/1000 BSSes through the unit tests'
#     fake nl80211 (scan-bench), GetOrderedNetworks at those sizes, and
#     the heap each network keeps (first scan's RssAnon growth / networks).
# BEFORE=OTHER-BUILD-DIR adds another build's joind (every plugin) beside
# this one in the same rounds: columns "before" and "before-10k", its
# heap per port, and its scan-bench's first and next scans.
# Figures only: nothing here passes or fails.
set -euo pipefail

[[ -x core/joind && -x bench/footprint/probe ]] || { echo "run from the build directory" >&2; exit 2; }
ROUNDS=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/joind-footprint-XXXXXX)
bus_pid=""
netns=joind-footprint-$$
cleanup() {
	[[ -n $bus_pid ]] && kill "$bus_pid" 2>/dev/null
	ip netns del "$netns" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# As joind.service runs it (GLib's slice allocator off); the floor too.
export G_SLICE=always-malloc
# A socket path (not an abstract socket), so that joind in the network
# namespace of the device figures reaches the bus too.
read -r DBUS_SESSION_BUS_ADDRESS bus_pid < <(dbus-daemon --session --fork --print-address=1 \
	--print-pid=1 --address="unix:path=$work/bus" | paste -sd' ')
export DBUS_SESSION_BUS_ADDRESS
mkdir -p "$work/empty" "$work/state" "$work/state10k"
"$here/gen-profiles.sh" "$work/state10k" 10000

joind=(core/joind --session --config /dev/null)
floor=(bench/footprint/floor net.joind.Floor)

# probe LABEL ROUND NAME [PROBE-OPTIONS] -- COMMAND...: figures to $work/LABEL.ROUND
probe() {
	local label=$1 round=$2 name=$3
	shift 3
	timeout 120 bench/footprint/probe --name "$name" --log "$work/$label.log" "$@" \
		>"$work/$label.$round"
}

for ((r = 0; r < ROUNDS; r++)); do
	probe floor "$r" net.joind.Floor --libs -- "${floor[@]}"
	probe floor-crypto "$r" net.joind.Floor --libs -- "${floor[@]}" --crypto
	probe core "$r" net.joind --libs -- "${joind[@]}" --plugin-dir "$work/empty" \
		--state-dir "$work/state"
	probe joind "$r" net.joind --libs -- "${joind[@]}" --plugin-dir plugins \
		--state-dir "$work/state"
	probe floor-10k "$r" net.joind.Floor --managed-objects -- "${floor[@]}" --managed 10000
	probe joind-10k "$r" net.joind --managed-objects --hup \
		--touch "$work/state10k/bench-00001.psk" -- "${joind[@]}" --plugin-dir plugins \
		--state-dir "$work/state10k"
	if [[ -n ${BEFORE-} ]]; then
		probe before "$r" net.joind --libs -- "$BEFORE/core/joind" --session --config /dev/null \
			--plugin-dir "$BEFORE/plugins" --state-dir "$work/state"
		probe before-10k "$r" net.joind --managed-objects --hup \
			--touch "$work/state10k/bench-00001.psk" -- "$BEFORE/core/joind" --session \
			--config /dev/null --plugin-dir "$BEFORE/plugins" --state-dir "$work/state10k"
	fi
done

# Ethernet ports: joind (every plugin) in a network namespace holding
# DEVICES veth links (as many wired ports), then in one with none.
DEVICES=${DEVICES:-300}
if ip netns add "$netns" 2>/dev/null; then
	for ((i = 0; i < DEVICES / 2; i++)); do
		echo "link add fpa$i type veth peer name fpb$i"
	done >"$work/links"
	ip -n "$netns" -batch "$work/links"
	for ((r = 0; r < ROUNDS; r++)); do
		ip netns exec "$netns" bench/footprint/probe --name net.joind --log "$work/ports.log" -- \
			"${joind[@]}" --plugin-dir plugins --state-dir "$work/state" >"$work/ports.$r"
		[[ -z ${BEFORE-} ]] || ip netns exec "$netns" bench/footprint/probe --name net.joind \
			--log "$work/ports.log" -- "$BEFORE/core/joind" --session --config /dev/null \
			--plugin-dir "$BEFORE/plugins" --state-dir "$work/state" >"$work/before-ports.$r"
	done
	ip netns del "$netns"
	ip netns add "$netns"
	for ((r = 0; r < ROUNDS; r++)); do
		ip netns exec "$netns" bench/footprint/probe --name net.joind --log "$work/noports.log" -- \
			"${joind[@]}" --plugin-dir plugins --state-dir "$work/state" >"$work/noports.$r"
		[[ -z ${BEFORE-} ]] || ip netns exec "$netns" bench/footprint/probe --name net.joind \
			--log "$work/noports.log" -- "$BEFORE/core/joind" --session --config /dev/null \
			--plugin-dir "$BEFORE/plugins" --state-dir "$work/state" >"$work/before-noports.$r"
	done
fi

# median LABEL KEY: the median over the rounds of KEY's value.
median() {
	cat "$work/$1".[0-9]* | awk -v k="$2" '$1 == k { print $2 }' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print v[int((NR + 1) / 2)] }'
}

labels=(floor floor-crypto core joind joind-10k)
[[ -z ${BEFORE-} ]] || labels+=(before before-10k)
row() {
	printf '%-24s' "$1"
	for l in "${labels[@]}"; do printf '%14s' "$(median "$l" "$2")"; done
	printf '\n'
}

echo "== idle, start-up (medians of $ROUNDS; KiB, ms)"
printf '%-24s' ""
for l in "${labels[@]}"; do printf '%14s' "$l"; done
printf '\n'
row "exec -> name (wall ms)" start_ms
row "CPU to name (ms)" start_cpu_ms
row "VmRSS" vmrss_kib
row "RssAnon" rssanon_kib
row "Pss" pss_kib
row "threads" threads
echo "(floor-crypto: after one PBKDF2 + HMAC; core: no plugin; joind: every plugin,"
echo " this host has no WiFi and no 802.1X port; joind-10k: 10,000 known networks)"
echo "joind over the bare floor: VmRSS +$(($(median joind vmrss_kib) - $(median floor vmrss_kib))) KiB," \
	"RssAnon +$(($(median joind rssanon_kib) - $(median floor rssanon_kib))) KiB"

echo
echo "== 10,000 known networks"
anon0=$(median joind rssanon_kib) anon10k=$(median joind-10k rssanon_kib)
echo "heap per profile: $(((anon10k - anon0) * 1024 / 10000)) B  (RssAnon $anon0 -> $anon10k KiB)"
echo "GetManagedObjects: $(median joind-10k managed_objects_ms) ms for $(median joind-10k managed_objects) objects" \
	"($(median joind-10k managed_objects_bytes) bytes; joind's own CPU $(median joind-10k managed_objects_cpu_ms) ms," \
	"the rest is the bus and the client reading the reply)"
echo "  the floor sending a reply of the same shape, built beforehand:" \
	"$(median floor-10k managed_objects_ms) ms ($(median floor-10k managed_objects_bytes) bytes;" \
	"its CPU $(median floor-10k managed_objects_cpu_ms) ms): GDBus's own cost of such a reply"
echo "reload of one changed file: $(median joind-10k reload_one_cpu_ms) ms CPU"
echo "reload of everything (SIGHUP): $(median joind-10k reload_all_cpu_ms) ms CPU"
if [[ -n ${BEFORE-} ]]; then
	b10k=$(median before-10k rssanon_kib)
	echo "before: heap per profile $(((b10k - $(median before rssanon_kib)) * 1024 / 10000)) B," \
		"GetManagedObjects $(median before-10k managed_objects_ms) ms" \
		"(joind's CPU $(median before-10k managed_objects_cpu_ms) ms)," \
		"reload one $(median before-10k reload_one_cpu_ms) ms, SIGHUP $(median before-10k reload_all_cpu_ms) ms"
fi

if [[ -e $work/ports.0 ]]; then
	echo
	echo "== $DEVICES Ethernet ports (veth, in a network namespace)"
	a0=$(median noports rssanon_kib) a1=$(median ports rssanon_kib)
	echo "heap per device: $(((a1 - a0) * 1024 / DEVICES)) B  (RssAnon $a0 -> $a1 KiB)"
	echo "exec -> name: $(median noports start_ms) -> $(median ports start_ms) ms" \
		"(CPU $(median noports start_cpu_ms) -> $(median ports start_cpu_ms) ms)"
	if [[ -e $work/before-ports.0 ]]; then
		b0=$(median before-noports rssanon_kib) b1=$(median before-ports rssanon_kib)
		echo "before: heap per device $(((b1 - b0) * 1024 / DEVICES)) B (RssAnon $b0 -> $b1 KiB)," \
			"exec -> name $(median before-ports start_ms) ms (CPU $(median before-ports start_cpu_ms) ms)"
	fi
fi

echo
echo "== resident size per mapping (KiB, round 1; only those >= 16 KiB in one of them)"
# With BEFORE=, the other build's joind (every plugin) is the last column;
# its libjoind maps from another path, so mappings go by file name.
map_labels=(floor floor-crypto core joind)
[[ -z ${BEFORE-} ]] || map_labels+=(before)
printf '%-32s' mapping
printf '%14s' "${map_labels[@]}"
printf '%14s\n' joind-floor
for l in "${map_labels[@]}"; do
	awk '$1 == "lib" { n = split($2, p, "/"); print p[n], $3 }' "$work/$l.0" | sort >"$work/$l.libs"
done
cp "$work/floor.libs" "$work/joined"
for ((i = 1; i < ${#map_labels[@]}; i++)); do
	fields=0
	for ((j = 2; j <= i + 1; j++)); do fields+=",1.$j"; done
	join -a1 -a2 -e0 -o "$fields,2.2" "$work/joined" "$work/${map_labels[i]}.libs" >"$work/joined.new"
	mv "$work/joined.new" "$work/joined"
done
awk '{ for (i = 2; i <= NF; i++) if ($i >= 16) { print; next } }' "$work/joined" | sort -k5 -n -r |
	awk '{ printf "%-32s", $1; for (i = 2; i <= NF; i++) printf "%14s", $i; printf "%14s\n", $5 - $2 }'

echo
# Each round one run of scan-bench per build (alternating, so that the
# host's load falls on both alike): its first scan is one sample, so the
# median is over the rounds.
scan_runs=(this)
[[ -z ${BEFORE-} || ! -x $BEFORE/bench/footprint/scan-bench ]] || scan_runs+=(before)
for ((r = 0; r < ROUNDS; r++)); do
	for l in "${scan_runs[@]}"; do
		bin=bench/footprint/scan-bench
		[[ $l == this ]] || bin=$BEFORE/bench/footprint/scan-bench
		"$bin" 8 2>>"$work/scan.log" | awk '$1 == "scan"' >"$work/scan-$l.$r"
	done
done
# scan_median LABEL BSSES FIELD: the median over the rounds
scan_median() {
	cat "$work/scan-$1".[0-9]* | awk -v n="$2" -v f="$3" '$2 == n { print $f }' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print v[int((NR + 1) / 2)] }'
}
echo "== scan processing through the fake nl80211 (CPU ms per full scan; first scan:"
echo "   median of $ROUNDS runs; next scans: median of 8 in each run, median of the runs)"
printf '%8s%14s%14s%24s%20s' BSSes "first scan" "next scans" "GetOrderedNetworks ms" \
	"heap/network B"
[[ ${#scan_runs[@]} -eq 1 ]] || printf '%14s%14s' "before first" "before next"
printf '\n'
while read -r _ n _; do
	printf '%8s%14s%14s%24s%20s' "$n" "$(scan_median this "$n" 3)" "$(scan_median this "$n" 4)" \
		"$(scan_median this "$n" 5)" "$(scan_median this "$n" 6)"
	[[ ${#scan_runs[@]} -eq 1 ]] ||
		printf '%14s%14s' "$(scan_median before "$n" 3)" "$(scan_median before "$n" 4)"
	printf '\n'
done <"$work/scan-this.0"
