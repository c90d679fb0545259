#!/bin/sh
# guest-job.sh KERNEL INITRD ACCEL JOB OUT GOUT LIMIT: run the shell
# script JOB in one boot of KERNEL with this machine's userland
# (harness/guest-suites.sh: the host's / read-only over 9p under a tmpfs
# overlay, OUT shared read-write at the same path), and fail unless the
# boot completed, the job exited 0 ("ok 1 suites" on the KTAP port) and
# dmesg holds no severe report (harness/dmesg-check.sh --severe).  GOUT
# gets the boot's files (console.log, ktap.log, dmesg.log, verdict);
# LIMIT bounds the boot in seconds; GUEST_MEM (MiB) the guest's RAM.
# Used by harness/progs-suite.sh (the fsck tools' suites) and
# harness/fstests.sh.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 accel=$3 job=$4 out=$5 gout=$6 limit=$7
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$kernel" ] || die "no kernel at $kernel"
[ -f "$initrd" ] || die "no initramfs at $initrd"
[ -f "$job" ] || die "no job at $job"
mkdir -p "$gout"
printf '%s\n' -fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
	-fsdev "local,id=out,path=$out,security_model=none,multidevs=remap" \
	-device virtio-9p-pci,fsdev=out,mount_tag=out >"$gout/qemu.args"
"$here/qemu-boot.sh" "$kernel" "$initrd" "$gout" "$accel" "$limit" \
	"rdinit=/suites-init emptylink.job=$job emptylink.out=$out" "$gout/qemu.args" ||
	die "the guest run did not complete: $(cat "$gout/verdict") (see $gout/console.log)"
grep -q '^ok 1 suites$' "$gout/ktap.log" ||
	die "the guest's job failed: $(grep -m1 'suites' "$gout/ktap.log") (see $gout/console.log)"
rc=0
"$here/dmesg-check.sh" --severe "$gout/dmesg.log" >"$gout/dmesg-problems" || rc=$?
[ "$rc" -eq 0 ] ||
	die "the guest's kernel reported problems (exit $rc): $(head -n 3 "$gout/dmesg-problems") (see $gout/dmesg.log)"
