# shellcheck shell=bash
# bench/common/vm-host.sh - what the host wrappers of the benches that boot
# the test VM share (sourced by bench/*/run.sh, from the build directory).
#
#   bench_header ARGS...   HEADER: how it was run (BENCH_ONLY and ARGS)
#                          and how busy the host was; printed to stderr
#   bench_install NAME     joind as a package installs it, into
#                          bench-NAME-install/ (bench_guest_joind copies it
#                          into the guest's RAM-backed root, so that joind
#                          is not paged in over the uncached 9p share of the
#                          build tree while iwd and wpa_supplicant come from
#                          the cached root file system)
#   bench_results NAME     meson-logs/bench-NAME/results.txt, which the
#                          guest wrote, with HEADER and the load after it in
#                          front; printed

# The times are emulated: a loaded host stretches them.
bench_header() {
	local command_line
	command_line=$(printf '%q ' "BENCH_ONLY=${BENCH_ONLY-}" "$0" "$@")
	HEADER="run: ${command_line% } (in $PWD, $(date -u '+%F %T UTC'))"
	HEADER+=$'\n'"host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	BENCH_T0=$EPOCHSECONDS
	echo "$HEADER" >&2
}

bench_install() {
	rm -rf "bench-$1-install"
	meson install --no-rebuild --quiet --destdir "$PWD/bench-$1-install" >/dev/null
}

bench_results() {
	local d=meson-logs/bench-$1
	{
		echo "$HEADER"
		echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) ($(date -u '+%T UTC'); $((EPOCHSECONDS - BENCH_T0)) s)"
		cat "$d/results.txt"
	} >"$d/results.new"
	mv "$d/results.new" "$d/results.txt"
	cat "$d/results.txt"
}
