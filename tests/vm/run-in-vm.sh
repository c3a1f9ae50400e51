#!/bin/bash
# tests/vm/run-in-vm.sh - run one command as root in a disposable qemu VM that
# boots Debian's own kernel and sees the host's files.
#
# The host kernel may lack cfg80211 and cannot load modules, so joind's WiFi
# tests (mac80211_hwsim radios, hostapd access points, joind as the station)
# run inside a guest kernel. Nothing is installed into an image:
#   - the guest kernel is the host's /boot/vmlinuz-<ver>, unpacked once into
#     an ELF vmlinux that qemu starts through its PVH entry with qboot (under
#     TCG this skips the slow BIOS and in-guest decompression);
#   - a small busybox initramfs loads the virtio/9p/overlay modules, mounts the
#     host's / read-only over 9p, stacks a tmpfs overlay on it (guest writes
#     succeed and are dropped at power-off), mounts tmpfs on /run, /tmp,
#     /var/tmp (so a guest's sockets and scratch files never touch the
#     host), mounts the shares (-r, -s and the current directory) at their
#     host paths on top and switch_roots; /lib/modules/<ver> comes from the
#     host, so modprobe works;
#   - PID 1 is then a bash script that runs the command in the same directory,
#     sends its output to a virtio console (this script's stdout), records the
#     exit status in a shared exchange directory and powers off.
# Both the vmlinux and the initramfs are cached (JOIND_VM_CACHE).
#
# Usage: run-in-vm.sh [options] [--] COMMAND [ARG...]
#   -t SECONDS  wall-clock limit for the VM (default 300)
#   -m MiB      guest memory (default 768)
#   -c N        guest CPUs (default 2)
#   -r DIR      also share DIR read-write at its path (repeatable); the
#               current directory is always shared read-write
#   -s DIR      share DIR read-only at its path (repeatable): a tree the
#               command reads (a source checkout) must be shared, since
#               the guest's fresh tmpfs on /tmp and /var/tmp hides what
#               the host keeps there; a directory shared both ways is
#               read-write
#   -n          print the shares (TAG ro|rw PATH, in mount order) and exit
#   -P          COMMAND replaces stage 2 as PID 1 (an init such as systemd,
#               started by a script that prepares the root first); it must
#               write its status to /run/joind-vm/status and power off
#   -e VAR=VAL  environment for COMMAND (repeatable)
#   -l FILE     write the guest's kernel console to FILE
#   -a ACCEL    kvm | tcg | auto (default auto: KVM only where it can work)
#   -k VERSION  guest kernel version (default: newest /boot/vmlinuz-*)
#   -h          this help
# Exit status: COMMAND's; 124 when the time limit hit; 125 when the VM ended
# before COMMAND did (panic, missing module); 2 for usage errors.
#
# Pitfalls learnt the hard way (see ../../../shared/vmtest/README.md for the
# measurements this is based on):
#   - 9p cannot hold Unix sockets: the command keeps hostapd's and
#     dbus-daemon's sockets on the guest's own tmpfs (/run, /tmp), never in
#     a share; any checkout path works as long as the trees the command
#     uses are shared (-s, -r), /tmp and /var/tmp included;
#   - /, /run, /tmp and /var/tmp themselves cannot be shared: the guest's
#     tmpfs belongs there;
#   - 9p/virtio/overlay are modules in Debian's kernel, loaded in order below;
#   - sharing / needs multidevs=remap (several host devices on one share).
set -euo pipefail

me=${0##*/}
usage() { sed -n '/^# Usage:/,/^# Exit status:/p' "$0" | sed 's/^# \{0,1\}//'; }
die() {
	echo "$me: $*" >&2
	exit 2
}

limit=300 mem=768 cpus=2 accel=auto kver="" console_log="" print_shares=0 as_init=0
rw_shares=() ro_shares=() envs=()
while getopts ":t:m:c:r:s:e:l:a:k:nPh" o; do
	case $o in
	t) limit=$OPTARG ;;
	m) mem=$OPTARG ;;
	c) cpus=$OPTARG ;;
	r) rw_shares+=("$(realpath -e -- "$OPTARG")") || die "no directory $OPTARG" ;;
	s) ro_shares+=("$(realpath -e -- "$OPTARG")") || die "no directory $OPTARG" ;;
	e) [[ $OPTARG == [A-Za-z_]*=* ]] || die "-e wants VAR=VALUE"; envs+=("$OPTARG") ;;
	l) console_log=$OPTARG ;;
	a) accel=$OPTARG ;;
	k) kver=$OPTARG ;;
	n) print_shares=1 ;;
	P) as_init=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ ${1-} == -- ]] && shift
(($# > 0)) || ((print_shares)) || { usage >&2; exit 2; }

# share_plan: "TAG ro|rw PATH" per share, shortest path first so that a
# nested share (a build directory inside its checkout) is mounted on top;
# a path given both ways is shared read-write.
share_plan() {
	local -A mode=()
	local dir n=0
	for dir in "${ro_shares[@]}"; do mode[$dir]=ro; done
	for dir in "$(realpath -e -- "$PWD")" "${rw_shares[@]}"; do mode[$dir]=rw; done
	for dir in "${!mode[@]}"; do
		case $dir in
		/ | /run | /tmp | /var | /var/tmp | /proc | /sys | /dev)
			die "$dir cannot be shared: the guest mounts its own there" ;;
		*[[:space:]]*) die "paths with white space cannot be shared: $dir" ;;
		esac
	done
	while IFS= read -r dir; do
		echo "share$n ${mode[$dir]} $dir"
		n=$((n + 1))
	done < <(printf '%s\n' "${!mode[@]}" | awk '{ print length($0), $0 }' |
		sort -n -s -k1,1 | cut -d' ' -f2-)
}
plan=$(share_plan) || exit 2
if ((print_shares)); then
	printf '%s\n' "$plan"
	exit 0
fi

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (scripts/install-deps)"
# Not `busybox --list | grep -q`: busybox writes one applet name per
# write(2), grep quits at the first match, and under pipefail the SIGPIPE
# of the names after switch_root fails the check (3 in 2000 runs here).
grep -qx switch_root <<<"$(/bin/busybox --list 2>/dev/null)" ||
	die "/bin/busybox is not busybox-static"
[[ -r /usr/share/qemu/qboot.rom ]] || die "/usr/share/qemu/qboot.rom missing (qemu-system-x86)"

# KVM works only with a real kvm_intel/kvm_amd; a PVM host (kvm_pvm) offers
# /dev/kvm but aborts or hangs ordinary guests.
if [[ $accel == auto ]]; then
	accel=tcg
	if [[ -w /dev/kvm ]] && [[ -d /sys/module/kvm_intel || -d /sys/module/kvm_amd ]] &&
		[[ ! -d /sys/module/kvm_pvm ]]; then
		accel=kvm
	fi
fi
case $accel in
tcg) accel_args=(-accel tcg,thread=multi -cpu max) ;;
kvm) accel_args=(-accel kvm -cpu host) ;;
*) die "-a wants kvm, tcg or auto" ;;
esac

[[ -n $kver ]] || kver=$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|.*/vmlinuz-||' | sort -V | tail -n 1)
[[ -n $kver && -r /boot/vmlinuz-$kver && -d /lib/modules/$kver ]] ||
	die "no usable guest kernel (linux-image-amd64 provides /boot/vmlinuz-* and /lib/modules)"

cache=${JOIND_VM_CACHE:-/var/tmp/joind-vm-cache}
mkdir -p "$cache"

# ------------------------------------------------------------ kernel ---
# bzImage = setup code + XZ stream of the ELF; unpack the stream once.
vmlinux=$cache/vmlinux-$kver
if [[ ! -s $vmlinux || $vmlinux -ot /boot/vmlinuz-$kver ]]; then
	at=$(grep -abo $'\xfd7zXZ\x00' "/boot/vmlinuz-$kver" | head -n 1 | cut -d: -f1)
	[[ -n $at ]] || die "/boot/vmlinuz-$kver holds no XZ stream"
	part=$(mktemp "$vmlinux.XXXXXX")
	# xz reports the padding after the stream as garbage; the ELF is whole.
	tail -c +$((at + 1)) "/boot/vmlinuz-$kver" | xz -dc 2>/dev/null >"$part" || true
	[[ $(head -c 4 "$part" | od -An -tx1 | tr -d ' ') == 7f454c46 ]] ||
		{ rm -f "$part"; die "unpacking /boot/vmlinuz-$kver failed"; }
	chmod 644 "$part"
	mv -f "$part" "$vmlinux"
fi

# --------------------------------------------------------- initramfs ---
mods=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
	virtio_console 9pnet 9pnet_virtio netfs fscache 9p overlay)

# Stage 1 (busybox, PID 1 in the initramfs). Shares to mount are listed in
# the exchange directory so no path crosses the kernel command line.
read -r -d '' init_script <<'INIT' || true
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
halt_with() { echo "joind-vm init: $*" >/dev/ttyS0; echo o >/proc/sysrq-trigger; sleep 30; }
for m in $(cat /modules); do insmod /ko/$m.ko || halt_with "insmod $m"; done
o=trans=virtio,version=9p2000.L,msize=262144
mkdir -p /x /host /mem /root
mount -t 9p -o $o,cache=none xchg /x || halt_with "exchange share"
mount -t 9p -o $o,ro,cache=loose hostroot /host || halt_with "host root"
mount -t tmpfs -o mode=0755 tmpfs /mem
mkdir -p /mem/u /mem/w
mount -t overlay -o lowerdir=/host,upperdir=/mem/u,workdir=/mem/w overlay /root ||
	halt_with "overlay"
R=/root
for d in proc sys dev; do mount --move /$d $R/$d; done
mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs $R/run
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs $R/tmp
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs $R/var/tmp
mkdir -p $R/run/joind-vm
mount --move /x $R/run/joind-vm
while read -r tag mode path; do
	[ -n "$tag" ] || continue
	mkdir -p "$R$path"
	mount -t 9p -o $o,$mode,cache=none "$tag" "$R$path" || halt_with "share $path"
done <$R/run/joind-vm/shares
mkdir -p $R/dev/pts $R/dev/shm
# devtmpfs lacks these; bash process substitution needs /dev/fd.
ln -sf /proc/self/fd $R/dev/fd
ln -sf /proc/self/fd/0 $R/dev/stdin
ln -sf /proc/self/fd/1 $R/dev/stdout
ln -sf /proc/self/fd/2 $R/dev/stderr
mount -t devpts -o mode=0620,ptmxmode=0666 devpts $R/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $R/dev/shm
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
hostname joind-vm
ip link set lo up
# The virtio console is the host's stdout; open it from the new root's /dev
# (this /dev moved away) and keep it as fd 3 for stage 2.
exec 3<>$R/dev/hvc0 || halt_with "no hvc0"
stty -onlcr -echo <&3
exec switch_root $R /bin/bash /run/joind-vm/stage2
INIT

# Named by its content: checkouts with different init scripts share the
# cache without rebuilding (or swapping) each other's initramfs.
want=$(printf '%s\n' "$init_script" "${mods[*]}" | md5sum | cut -c1-16)
initrd=$cache/initrd-$kver-$want.cpio.gz
if [[ ! -s $initrd ]]; then
	tree=$(mktemp -d)
	mkdir -p "$tree"/{bin,ko,proc,sys,dev,root}
	cp /bin/busybox "$tree/bin/"
	for m in "${mods[@]}"; do
		f=$(modinfo -k "$kver" -n "$m") || { rm -rf "$tree"; die "module $m missing for $kver"; }
		case $f in
		*.ko) cp "$f" "$tree/ko/$m.ko" ;;
		*.ko.xz) xz -dc "$f" >"$tree/ko/$m.ko" ;;
		*.ko.zst) zstd -qdc "$f" >"$tree/ko/$m.ko" ;;
		*) rm -rf "$tree"; die "unknown module format $f" ;;
		esac
	done
	echo "${mods[*]}" >"$tree/modules"
	printf '%s\n' "$init_script" >"$tree/init"
	chmod 755 "$tree/init"
	part=$(mktemp "$initrd.XXXXXX")
	(cd "$tree" && find . | cpio -o -H newc --quiet | gzip -1) >"$part"
	rm -rf "$tree"
	chmod 644 "$part"
	mv -f "$part" "$initrd"
fi

# ------------------------------------------------------ exchange dir ---
xchg=$(mktemp -d /tmp/joind-vm.XXXXXX)
qpid=""
on_exit() {
	[[ -n $qpid ]] && kill "$qpid" 2>/dev/null
	rm -rf "$xchg"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

share_args=()
printf '%s\n' "$plan" >"$xchg/shares"
while read -r tag mode dir; do
	ro=""
	[[ $mode == ro ]] && ro=,readonly=on
	share_args+=(-virtfs "local,path=$dir,mount_tag=$tag,security_model=none,multidevs=remap$ro")
done <<<"$plan"

{
	printf 'cd %q || exit 125\n' "$PWD"
	for e in "${envs[@]}"; do printf 'export %q\n' "$e"; done
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$xchg/command"

if ((as_init)); then
	# The command's shell becomes PID 1 (its command file ends in exec).
	cat >"$xchg/stage2" <<'STAGE2'
export JOIND_VM=1 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8
exec bash /run/joind-vm/command </dev/null >&3 2>&3
STAGE2
else
	cat >"$xchg/stage2" <<'STAGE2'
# Stage 2: PID 1 on the host tree. Runs the command, keeps its status.
read -r JOIND_VM_BOOT_SECONDS _ </proc/uptime
export JOIND_VM_BOOT_SECONDS JOIND_VM=1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8
(exec 3>&-; bash /run/joind-vm/command) </dev/null >&3 2>&3
echo $? >/run/joind-vm/status
# Give the console a moment to drain before the power goes.
sleep 0.3
exec 3>&-
sync
echo o >/proc/sysrq-trigger
sleep 30
STAGE2
fi

[[ -n $console_log ]] || console_log=$xchg/console.log
qemu=(qemu-system-x86_64 "${accel_args[@]}"
	-machine pc -m "$mem" -smp "$cpus"
	-bios /usr/share/qemu/qboot.rom
	-nodefaults -no-user-config -display none -monitor none -no-reboot
	-kernel "$vmlinux" -initrd "$initrd"
	-append "console=ttyS0 quiet loglevel=3 panic=-1 oops=panic tsc=reliable no_timer_check"
	-chardev "file,id=klog,path=$console_log" -serial chardev:klog
	-chardev stdio,id=out,signal=off
	-device virtio-serial-pci -device virtconsole,chardev=out
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$xchg,mount_tag=xchg,security_model=none,multidevs=remap"
	"${share_args[@]}")

set +e
timeout -k 5 "$limit" "${qemu[@]}" </dev/null &
qpid=$!
wait "$qpid"
qrc=$?
qpid=""
set -e

if [[ -f $xchg/status ]]; then
	exit "$(cat "$xchg/status")"
fi
if ((qrc == 124 || qrc == 137)); then
	echo "$me: the VM hit the time limit of ${limit}s" >&2
	exit 124
fi
echo "$me: the VM ended (qemu status $qrc) before the command; kernel console:" >&2
tail -n 40 "$console_log" >&2 || true
exit 125
