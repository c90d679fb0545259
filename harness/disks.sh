#!/bin/sh
# disks.sh prepare OUT IMAGES FS...: for each disk filesystem, a throwaway
#   copy of the prebuilt image (IMAGES/FS.img) and a freshly made scratch
#   filesystem, both in OUT; prints the QEMU arguments that attach them,
#   each device named by its serial (FS-image, FS-scratch) so the guest
#   never guesses from the order.
# disks.sh fsck OUT JUDGE KERNEL FS...: after the boot, check every copy
#   the guest wrote to with the filesystem's own checker, read-only, and
#   print the verdicts as KTAP through JUDGE (the test program's --judge).
set -eu
. "$(dirname "$0")/lib.sh"

is_disk() {
	case "$1" in ext4|xfs|btrfs) return 0 ;; esac
	return 1
}

mkscratch() { # fs file
	case "$1" in
	ext4)	truncate -s 64M "$2" && mkfs.ext4 -q -F "$2" ;;
	xfs)	truncate -s 300M "$2" && mkfs.xfs -q -f "$2" ;;
	btrfs)	truncate -s 128M "$2" && mkfs.btrfs -q -f "$2" >/dev/null ;;
	esac
}

# Prints one word: clean, errors, dirty-log or exit:N; the tool's output
# goes to the log.
check() { # fs file log
	rc=0
	case "$1" in
	ext4)	e2fsck -fn "$2" >"$3" 2>&1 || rc=$? ;;
	xfs)	xfs_repair -n "$2" >"$3" 2>&1 || rc=$? ;;
	btrfs)	btrfs check --readonly "$2" >"$3" 2>&1 || rc=$? ;;
	esac
	case "$1:$rc" in
	*:0) echo clean ;;
	ext4:4|xfs:1|btrfs:1) echo errors ;;
	xfs:2) echo dirty-log ;;
	*) echo "exit:$rc" ;;
	esac
}

prepare() {
	out=$1 images=$2
	shift 2
	mkdir -p "$out"
	for fs in "$@"; do
		is_disk "$fs" || continue
		[ -f "$images/$fs.img" ] || die "no prebuilt $fs image at $images/$fs.img"
		cp --sparse=always "$images/$fs.img" "$out/$fs-image.img"
		mkscratch "$fs" "$out/$fs-scratch.img" >"$out/mkfs-$fs.log" 2>&1 ||
			die "mkfs of the $fs scratch filesystem failed: $(cat "$out/mkfs-$fs.log")"
		for kind in image scratch; do
			printf '%s\n' -drive \
				"file=$out/$fs-$kind.img,format=raw,if=none,id=$fs-$kind" \
				-device "virtio-blk-pci,drive=$fs-$kind,serial=$fs-$kind"
		done
	done
}

fsck_all() {
	out=$1 judge=$2 kernel=$3
	shift 3
	n=0
	for fs in "$@"; do
		is_disk "$fs" || continue
		n=$((n + 1))
		"$judge" --judge --kernel "$kernel" --fs "$fs" --source fsck \
			--expect "$(dirname "$0")/../tests/expected.txt" --index "$n" \
			"stock-image=$(check "$fs" "$out/$fs-image.img" "$out/fsck-$fs-image.log")" \
			"stock-scratch=$(check "$fs" "$out/$fs-scratch.img" "$out/fsck-$fs-scratch.log")" || true
	done
}

cmd=$1
shift
case "$cmd" in
prepare) prepare "$@" ;;
fsck) fsck_all "$@" ;;
*) die "usage: disks.sh prepare|fsck ..." ;;
esac
