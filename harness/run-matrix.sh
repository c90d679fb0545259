#!/bin/sh
# run-matrix.sh RESULTS INITRD IMAGES JUDGE "FS..." KERNEL...: boot each
# kernel once with every filesystem attached (all suites in that one
# boot, which ends in a deliberate crash), boot it a second time to
# recover the crashed disks, check every disk with fsck, then judge the
# whole run with report.sh.  Kernel images: $SRC/KERNEL/arch/x86/boot/bzImage.
set -eu
. "$(dirname "$0")/lib.sh"

res=$1 initrd=$2 images=$3 judge=$4 fslist=$5
shift 5
here=$(dirname "$0")
src=${SRC:-build/src}
timeout=${BOOT_TIMEOUT:-900}

[ $# -gt 0 ] || die "no kernel named"
for fs in $fslist; do
	case "$fs" in
	tmpfs|ext4|ext4_inline|ext4_eainode|ext4_crypt|xfs|btrfs) ;;
	*) die "unknown filesystem '$fs' in FS (known: tmpfs ext4 ext4_inline ext4_eainode ext4_crypt xfs btrfs)" ;;
	esac
done
for k in "$@"; do
	[ -f "$src/$k/arch/x86/boot/bzImage" ] ||
		die "no kernel '$k' at $src/$k (KERNEL may name vanilla and patched)"
done
mkdir -p "$res"
accel=$("$here/accel.sh" "$src/$1/arch/x86/boot/bzImage")
fsarg=$(echo "$fslist" | tr ' ' ,)
nl='
'
for k in "$@"; do
	d=$res/$k
	# shellcheck disable=SC2086
	qargs=$("$here/disks.sh" prepare "$d" "$images" $fslist)
	say "booting $k ($accel, filesystems: $fslist, limit ${timeout}s)"
	# One QEMU argument per line of qargs.
	IFS=$nl
	set -f
	# shellcheck disable=SC2086
	"$here/qemu-boot.sh" "$src/$k/arch/x86/boot/bzImage" "$initrd" "$d" \
		"$accel" "$timeout" "emptylink.kernel=$k emptylink.fs=$fsarg" \
		$qargs || true
	# The main boot ended by crashing on purpose (crash.c); the second
	# boot mounts the crash disks, so their journal or log is replayed.
	if [ -n "$qargs" ]; then
		say "booting $k again after the crash (log recovery)"
		"$here/qemu-boot.sh" "$src/$k/arch/x86/boot/bzImage" "$initrd" \
			"$d/recover" "$accel" "$timeout" \
			"emptylink.kernel=$k emptylink.fs=$fsarg emptylink.phase=recover" \
			$qargs || true
	fi
	unset IFS
	set +f
	# shellcheck disable=SC2086
	"$here/disks.sh" fsck "$d" "$judge" "$k" $fslist >"$d/fsck.ktap"
done
ln -sfn "$(basename "$res")" "$(dirname "$res")/latest"
"$here/report.sh" "$res" "$@"
