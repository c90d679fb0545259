#!/bin/sh
# run-matrix.sh RESULTS INITRD IMAGES TESTBIN "FS..." KERNEL...: for each
# kernel (SRC/KERNEL/arch/x86/boot/bzImage, SRC=build/src), boot it with
# every filesystem attached (all suites in that one boot, which ends in a
# deliberate crash) and again to recover the crashed disks, check every
# disk with its checkers on the host, then judge the whole run with
# report.sh.
set -eu
. "$(dirname "$0")/lib.sh"

res=$1 initrd=$2 images=$3 testbin=$4 fslist=$5
shift 5
here=$(dirname "$0")
src=${SRC:-build/src}

[ $# -gt 0 ] || die "no kernel named"
"$here/registry.sh" validate || die "harness/filesystems.txt is malformed"
# shellcheck disable=SC2086
"$here/registry.sh" known $fslist || die "FS names a filesystem the registry does not have"
[ -n "$fslist" ] || die "no filesystem named"
for k in "$@"; do
	case "$k" in
	*[!a-z0-9_-]*) die "bad kernel name '$k'" ;;
	esac
	[ -f "$src/$k/arch/x86/boot/bzImage" ] ||
		die "no kernel '$k' at $src/$k (KERNEL may name vanilla and patched)"
done
mkdir -p "$res"
echo "$*" >"$res/kernels"
echo "$fslist" >"$res/filesystems"
accel=$("$here/accel.sh" "$src/$1/arch/x86/boot/bzImage")
phases=main
for fs in $fslist; do
	"$here/registry.sh" has "$fs" crash && phases="main recover"
done
for k in "$@"; do
	# shellcheck disable=SC2086
	"$here/boot-kernel.sh" "$src/$k/arch/x86/boot/bzImage" "$initrd" \
		"$images" "$accel" "$k" "$res/$k" "$phases" $fslist || true
	say "checking the disks of $k on the host"
	# A failure here leaves fsck.ktap short; the judge then reports the
	# missing results, and the report still runs.
	# shellcheck disable=SC2086
	"$here/disks.sh" fsck "$res/$k" "$testbin" $fslist >"$res/$k/fsck.ktap" ||
		say "checking the disks of $k failed: its fsck results will be missing"
done
ln -sfn "$(basename "$res")" "$(dirname "$res")/latest"
"$here/report.sh" "$res" "$testbin"
