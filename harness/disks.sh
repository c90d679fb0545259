#!/bin/sh
# disks.sh prepare OUT IMAGES FS...: for each disk filesystem, a throwaway
#   copy of the prebuilt image (IMAGES/FS.img) and two freshly made
#   filesystems (scratch, and crash for the crash and recovery boots),
#   all in OUT; prints the QEMU arguments that attach them, each device
#   named by its serial (FS-image, FS-scratch, FS-crash) so the guest
#   never guesses from the order.
# disks.sh args OUT FS...: the same QEMU arguments again, for the next
#   boot on the same disks.
# disks.sh fsck OUT JUDGE KERNEL FS...: after the boot, check every copy
#   the guest wrote to with the filesystem's own checker, read-only, and
#   print the verdicts as KTAP through JUDGE (the test program's --judge).
set -eu
. "$(dirname "$0")/lib.sh"
PROGS=${PROGS:-build/progs}

# Layout variants (ext4_inline, ...) have scratch filesystems only.
has_image() {
	case "$1" in *_*) return 1 ;; esac
	return 0
}

# Images of other entries besides FS.img (fs-images/manifest.txt).
extra_images() {
	case "$1" in ext4|xfs) echo bad ;; esac
}

is_disk() {
	case "$1" in ext4|ext4_*|xfs|btrfs) return 0 ;; esac
	return 1
}

# A filesystem name is its type, or TYPE_LAYOUT for a variant.
fstype() {
	echo "${1%%_*}"
}

mkscratch() { # fs file
	case "$1" in
	ext4)	truncate -s 64M "$2" && mkfs.ext4 -q -F "$2" ;;
	ext4_inline)
		truncate -s 64M "$2" && mkfs.ext4 -q -F -O inline_data "$2" ;;
	ext4_eainode)
		truncate -s 64M "$2" && mkfs.ext4 -q -F -O ea_inode "$2" ;;
	ext4_crypt)
		truncate -s 64M "$2" && mkfs.ext4 -q -F -O encrypt "$2" ;;
	xfs)	truncate -s 300M "$2" && mkfs.xfs -q -f "$2" ;;
	btrfs)	truncate -s 128M "$2" && mkfs.btrfs -q -f "$2" >/dev/null ;;
	esac
}

# The checker of each filesystem, read-only; the patched build of it is
# in $PROGS/bin once the fsck issues have built it (harness/progs.sh).
checker() { # fs stock|patched
	bin=
	[ "$2" = patched ] && bin=$PROGS/bin/
	case "$(fstype "$1")" in
	ext4)	tool=e2fsck args=-fn ;;
	xfs)	tool=xfs_repair args=-n ;;
	btrfs)	tool="btrfs check" args=--readonly ;;
	esac
	[ "$2" = stock ] || [ -x "$bin${tool%% *}" ] || return 1
	echo "$bin$tool $args"
}

# Prints one word: clean, errors, dirty-log or exit:N; the tool's output
# goes to the log.
check() { # fs file log command...
	fs=$1 file=$2 log=$3
	shift 3
	rc=0
	"$@" "$file" >"$log" 2>&1 || rc=$?
	# btrfs check has two independent implementations; ask both.
	if [ "$fs" = btrfs ] && [ "$rc" -eq 0 ]; then
		"$@" --mode=lowmem "$file" >>"$log" 2>&1 || rc=$?
	fi
	case "$(fstype "$fs"):$rc" in
	*:0) echo clean ;;
	ext4:4|xfs:1|btrfs:1) echo errors ;;
	xfs:2) echo dirty-log ;;
	*) echo "exit:$rc" ;;
	esac
}

# Repair (not just check) a copy of the image with the stock or patched
# tool, then look for the image's /empty with the filesystem's own
# debugger: "kept" or "deleted".
repair_keeps() { # fs image log variant
	copy=$2.repair
	bin=
	[ "$4" = patched ] && bin=$PROGS/bin/
	cp --sparse=always "$2" "$copy"
	case "$1" in
	ext4)	"${bin}e2fsck" -fy "$copy" >"$3" 2>&1 || true
		debugfs -R "stat /empty" "$copy" 2>&1 |
			grep -q 'Type: symlink' && echo kept || echo deleted ;;
	xfs)	"${bin}xfs_repair" "$copy" >"$3" 2>&1 || true
		xfs_db -c "path /empty" -c "print core.mode" "$copy" 2>&1 |
			grep -q 'core.mode = 0120777' && echo kept || echo deleted ;;
	btrfs)	"${bin}btrfs" check --repair --force "$copy" >"$3" 2>&1 || true
		btrfs inspect-internal dump-tree -t fs "$copy" 2>&1 |
			grep -q 'name: inline0' && echo kept || echo deleted ;;
	esac
	rm -f "$copy"
}

prepare() {
	out=$1 images=$2
	shift 2
	mkdir -p "$out"
	for fs in "$@"; do
		is_disk "$fs" || continue
		if has_image "$fs"; then
			[ -f "$images/$fs.img" ] ||
				die "no prebuilt $fs image at $images/$fs.img"
			cp --sparse=always "$images/$fs.img" "$out/$fs-image.img"
		fi
		for x in $(extra_images "$fs"); do
			[ -f "$images/$fs-$x.img" ] ||
				die "no prebuilt $fs-$x image at $images/$fs-$x.img"
			cp --sparse=always "$images/$fs-$x.img" "$out/$fs-$x.img"
		done
		for kind in scratch crash; do
			mkscratch "$fs" "$out/$fs-$kind.img" >"$out/mkfs-$fs.log" 2>&1 ||
				die "mkfs of the $fs $kind filesystem failed: $(cat "$out/mkfs-$fs.log")"
		done
	done
	args "$out" "$@"
}

args() {
	out=$1
	shift
	for fs in "$@"; do
		is_disk "$fs" || continue
		for kind in image scratch crash $(extra_images "$fs"); do
			[ -f "$out/$fs-$kind.img" ] || continue
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
		set --
		for v in stock patched; do
			cmd=$(checker "$fs" "$v") || continue
			for kind in image scratch crash; do
				[ -f "$out/$fs-$kind.img" ] || continue
				# shellcheck disable=SC2086
				set -- "$@" "$v-$kind=$(check "$fs" "$out/$fs-$kind.img" \
					"$out/fsck-$v-$fs-$kind.log" $cmd)"
			done
			# Corrupt on purpose: the checker must still say so.
			for x in $(extra_images "$fs"); do
				# shellcheck disable=SC2086
				set -- "$@" "$v-$x-image=$(check "$fs" "$out/$fs-$x.img" \
					"$out/fsck-$v-$fs-$x.log" $cmd)=errors"
			done
			[ -f "$out/$fs-image.img" ] && set -- "$@" "$v-repair-image=$(repair_keeps \
				"$fs" "$out/$fs-image.img" "$out/repair-$v-$fs.log" "$v")=kept"
		done
		"$judge" --judge --kernel "$kernel" --fs "$fs" --source fsck \
			--expect "$(dirname "$0")/../tests/expected.txt" --index "$n" \
			"$@" || true
	done
}

cmd=$1
shift
case "$cmd" in
prepare) prepare "$@" ;;
args) args "$@" ;;
fsck) fsck_all "$@" ;;
*) die "usage: disks.sh prepare|args|fsck ..." ;;
esac
