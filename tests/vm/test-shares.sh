#!/bin/bash
# test-shares: the VM sees the checkout and the build directory wherever
# they are. The guest mounts fresh tmpfs on /tmp and /var/tmp (its sockets
# and scratch files stay there), so a tree the host keeps there is visible
# only when shared. Checks the shares the wifi suite's runner asks
# run-in-vm.sh for (vm-suite.sh shares, which prints run-in-vm.sh -n) for
# checkouts under /tmp and /var/tmp, with the build directory inside and
# outside the checkout, and that run-in-vm.sh refuses to share the guest's
# own mount points. Booting the VM from such clones is the wifi suite's
# job (README: Development).
set -euo pipefail
: "${JOIND_SOURCE_ROOT:?}"
runner=$JOIND_SOURCE_ROOT/tests/wifi/vm-suite.sh
vm=$JOIND_SOURCE_ROOT/tests/vm/run-in-vm.sh
tmp=$(mktemp -d /tmp/joind-shares.XXXXXX)
vtmp=$(mktemp -d /var/tmp/joind-shares.XXXXXX)
trap 'rm -rf "$tmp" "$vtmp"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

# expect SRC BUILD: the checkout shared read-only, the build directory
# read-write, nothing else; a nested build directory mounted after (on top
# of) its checkout.
expect() {
	local src=$1 build=$2 plan
	mkdir -p "$src" "$build"
	plan=$(JOIND_SOURCE_ROOT=$src JOIND_BUILD_ROOT=$build "$runner" shares) ||
		fail "vm-suite.sh shares for $src and $build"
	echo "checkout $src, build $build:"
	sed 's/^/  /' <<<"$plan"
	[[ $(wc -l <<<"$plan") == 2 ]] || fail "expected two shares"
	grep -qxE "share[0-9]+ ro $src" <<<"$plan" || fail "$src not shared read-only"
	grep -qxE "share[0-9]+ rw $build" <<<"$plan" || fail "$build not shared read-write"
	if [[ $build == "$src"/* ]]; then
		[[ $(head -n 1 <<<"$plan") == *" $src" ]] || fail "$build would be mounted under $src"
	fi
}

expect "$tmp/clone" "$tmp/clone/build"
expect "$vtmp/clone" "$vtmp/clone/build"
expect "$tmp/src" "$vtmp/build"

# A directory shared both ways is read-write (the current one always is).
plan=$(cd "$tmp/clone" && "$vm" -n -s "$tmp/clone") || fail "run-in-vm.sh -n"
[[ $plan == "share0 rw $tmp/clone" ]] || fail "shared both ways: $plan"

for dir in / /tmp /var/tmp /run; do
	if err=$(cd "$tmp" && "$vm" -n -s "$dir" 2>&1); then
		fail "run-in-vm.sh agreed to share $dir: $err"
	fi
	grep -q "cannot be shared" <<<"$err" || fail "sharing $dir: $err"
done
echo "vm-shares: ok"
