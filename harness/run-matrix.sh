#!/bin/sh
# run-matrix.sh RESULTS INITRD "FS..." KERNEL...: boot each kernel once
# (all filesystems in one boot), then judge the run with report.sh.
# The kernel images are build/src/KERNEL/arch/x86/boot/bzImage.
set -eu
. "$(dirname "$0")/lib.sh"

res=$1 initrd=$2 fslist=$3
shift 3
here=$(dirname "$0")
src=${SRC:-build/src}
timeout=${BOOT_TIMEOUT:-600}

[ $# -gt 0 ] || die "no kernel named"
mkdir -p "$res"
accel=$("$here/accel.sh" "$src/$1/arch/x86/boot/bzImage")
fsarg=$(echo "$fslist" | tr ' ' ,)
for k in "$@"; do
	say "booting $k ($accel, filesystems: $fslist, limit ${timeout}s)"
	"$here/qemu-boot.sh" "$src/$k/arch/x86/boot/bzImage" "$initrd" \
		"$res/$k" "$accel" "$timeout" \
		"emptylink.kernel=$k emptylink.fs=$fsarg" || true
done
ln -sfn "$(basename "$res")" "$(dirname "$res")/latest"
"$here/report.sh" "$res" "$@"
