#!/bin/sh
# bisect-check.sh SRC LOG INITRD IMAGES OUT: for each patch of the series,
# in a worktree of its own (SRC/bisect): build the kernel, then boot it
# once with every filesystem attached and require that the run completes
# with no BUG, WARNING, Oops or panic.  The cases' results are not judged
# here (the expectations describe the two ends of the series, vanilla and
# patched); what a bisection needs is a tree that builds and a kernel that
# runs.  ccache makes every build after the first cost only the files the
# patch touches.
set -eu
. "$(dirname "$0")/lib.sh"

src=$1 log=$2 initrd=$3 images=$4 out=$5
here=$(cd "$(dirname "$0")" && pwd)
tree=$src/bisect
fslist=${FS:-tmpfs ext4 xfs btrfs}
gitc() { git -c advice.detachedHead=false "$@"; }

if [ ! -e "$tree/.git" ]; then
	rm -rf "$tree"
	gitc -C "$src/vanilla" worktree prune
	gitc -C "$src/vanilla" worktree add -q --detach "$(cd "$src" && pwd)/bisect" base ||
		die "cannot make the bisect worktree"
fi
accel=$("$here/accel.sh" "$src/vanilla/arch/x86/boot/bzImage")
commits=$(git -C "$src/patched" rev-list --reverse base..HEAD)
n=0
nl='
'
for c in $commits; do
	n=$((n + 1))
	gitc -C "$tree" checkout -q --detach "$c"
	say "bisect-check: patch $n: $(git -C "$tree" log -1 --format=%s)"
	"$here/kernel-build.sh" "$tree" "$log" >/dev/null ||
		die "the tree does not build after patch $n (log: $log)"
	d=$out/patch-$n
	# shellcheck disable=SC2086
	qargs=$("$here/disks.sh" prepare "$d" "$images" $fslist)
	IFS=$nl
	set -f
	# shellcheck disable=SC2086
	"$here/qemu-boot.sh" "$tree/arch/x86/boot/bzImage" "$initrd" "$d" \
		"$accel" "${BOOT_TIMEOUT:-900}" \
		"emptylink.kernel=patch-$n emptylink.fs=$(echo "$fslist" | tr ' ' ,)" \
		$qargs || die "patch $n: $(cat "$d/verdict") (console: $d/console.log)"
	unset IFS
	set +f
	if grep -E 'BUG:|WARNING:|Oops|Kernel panic|Call Trace' "$d/dmesg.log"; then
		die "patch $n: the kernel complained (dmesg: $d/dmesg.log)"
	fi
done
say "bisect-check: the tree builds and boots after each of the $n patches"
