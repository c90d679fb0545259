#!/bin/sh
# /suites-init of the guest (busybox sh; the kernel runs it instead of
# /init when the command line says rdinit=/suites-init): runs the tests
# of the fsck tools' own suites that mount or use loop devices
# (harness/progs-suite.sh), on the guest's kernel with this machine's
# userland, never on this machine's kernel.  QEMU shares the host's /
# read-only over 9p (tag hostroot); an overlay whose upper layer is in
# the guest's RAM makes it writable, so the tests write where they
# would on the host and nothing reaches it.  The results directory
# emptylink.out= is shared read-write (tag out) at the path it has on
# the host.  In that root the guest runs the script emptylink.job= (the
# host wrote it there) and reports, as every boot does
# (harness/qemu-boot.sh): EMPTYLINK-BOOTED, a KTAP line on ttyS1 with
# the job's verdict, its dmesg on ttyS2, EMPTYLINK-DONE; EMPTYLINK-ERROR
# when it cannot set up the root.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^emptylink\.$1=//p"
}
job=$(arg job) out=$(arg out)
echo "EMPTYLINK-BOOTED $(uname -r) suites job=$job"
exec 3>/dev/ttyS1
echo "KTAP version 1" >&3
echo "1..1" >&3

fail() {
	echo "EMPTYLINK-ERROR: $*"
	reboot -f
	exit 1
}
if [ -z "$job" ] || [ -z "$out" ]; then
	fail "emptylink.job= and emptylink.out= are both needed"
fi

r=/newroot
mkdir -p /host /rw $r
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 \
	hostroot /host || fail "cannot mount the host's root (9p tag hostroot)"
# The overlay's upper layer: what the suites write under their trees
# (restored images, the loop devices' backing files of btrfs-progs'
# tests).  /tmp (e2fsprogs' backing files) gets a quarter of RAM.
mount -t tmpfs -o size=60% rw /rw || fail "cannot mount the tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work \
	root $r || fail "cannot mount the overlay of the host's root"
for m in proc:proc sysfs:sys devtmpfs:dev; do
	mount -t "${m%:*}" "${m%:*}" "$r/${m#*:}" ||
		fail "cannot mount ${m%:*} on /${m#*:} in the new root"
done
mount -t tmpfs -o size=25% tmp "$r/tmp" || fail "cannot mount /tmp in the new root"
# Made where it is not (under the guest's own /tmp, say).
mkdir -p "$r$out" || fail "cannot make the mount point $out"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out "$r$out" ||
	fail "cannot mount the results directory (9p tag out)"
[ -f "$r$job" ] || fail "no job $job"

rc=0
chroot $r /bin/sh "$job" </dev/null || rc=$?
echo "EMPTYLINK-SUITES-EXIT $rc"
if [ "$rc" -eq 0 ]; then
	echo "ok 1 suites" >&3
else
	echo "not ok 1 suites # exit $rc" >&3
fi
sync
umount "$r$out"
# The whole kernel log, for the host's check (dmesg-check.sh --severe).
if [ -c /dev/ttyS2 ]; then
	dmesg >/dev/ttyS2
else
	echo "EMPTYLINK-ERROR: no /dev/ttyS2 for the kernel log"
fi
echo "EMPTYLINK-DONE"
reboot -f
