#!/bin/sh
# boot-kernel.sh BZIMAGE INITRD IMAGES ACCEL NAME OUT PHASES FS...: make
# the disks FS... need in OUT (harness/disks.sh), then boot BZIMAGE once
# per phase in PHASES ("main", or "main recover": the main boot ends in
# a deliberate crash and the recovery boot mounts the crashed disks, so
# their journal or log is replayed).  The main boot's results land in
# OUT, the recovery boot's in OUT/recover (harness/qemu-boot.sh).
# Exits 1 when a boot did not complete; the verdicts say why.  Each step
# is a stage of the stage clock (harness/lib.sh): boot/NAME/disks and
# boot/NAME/PHASE.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 images=$3 accel=$4 name=$5 out=$6 phases=$7
shift 7
here=$(dirname "$0")
limit=${BOOT_TIMEOUT:-900}
fsarg=$(echo "$*" | tr ' ' ,)
# The parameters of built-in drivers that FS... need (nandsim's chip).
extra=$("$here/registry.sh" cmdline "$@" | paste -s -d ' ')

stage "boot/$name/disks" "$here/disks.sh" prepare "$out" "$images" "$@"
echo "$*" >"$out/filesystems"
status=0
for phase in $phases; do
	d=$out
	[ "$phase" = main ] || d=$out/$phase
	say "booting $name, $phase ($accel, filesystems: $*, limit ${limit}s)"
	stage "boot/$name/$phase" "$here/qemu-boot.sh" "$kernel" "$initrd" "$d" \
		"$accel" "$limit" \
		"emptylink.kernel=$name emptylink.fs=$fsarg emptylink.phase=$phase${extra:+ $extra}" \
		"$out/qemu.args" || status=1
done
exit "$status"
