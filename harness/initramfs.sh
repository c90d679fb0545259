#!/bin/sh
# initramfs.sh GEN_INIT_CPIO TESTBIN EXPECTED MANIFEST BTRFS OUT: the
# guest's initramfs: busybox-static, /init, the test program, the
# expectations, the images' manifest, a static btrfs tool (snapshots,
# send/receive), and the fixture empty links (a second cpio archive
# appended to the first).
set -eu
. "$(dirname "$0")/lib.sh"

gen=$1
testbin=$2
expected=$3
manifest=$4
btrfs=$5
out=$6
here=$(cd "$(dirname "$0")" && pwd)

[ -x "$btrfs" ] || die "$btrfs is missing: make builds it (harness/progs.sh btrfs-progs)"
[ -x "$gen" ] || die "$gen is missing: build the vanilla kernel first"
[ -x /bin/busybox ] || die "/bin/busybox is missing (Debian package busybox-static)"
! readelf -l /bin/busybox | grep -q INTERP ||
	die "/bin/busybox is not static: install busybox-static, not busybox"

list=$(mktemp)
trap 'rm -f "$list"' EXIT
cat >"$list" <<LIST
dir /bin 0755 0 0
dir /dev 0755 0 0
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /mnt 0755 0 0
dir /fixtures 0755 0 0
dir /img 0755 0 0
nod /dev/console 0600 0 0 c 5 1
file /bin/busybox /bin/busybox 0755 0 0
slink /bin/sh busybox 0777 0 0
file /init $here/guest-init.sh 0755 0 0
file /emptylink $testbin 0755 0 0
file /expected.txt $expected 0644 0 0
file /manifest.txt $manifest 0644 0 0
file /bin/btrfs $btrfs 0755 0 0
LIST

{ "$gen" -t 0 "$list" && "$here/cpio-empty-links.sh" /fixtures/empty; } >"$out.tmp" ||
	die "cannot write the initramfs"
mv "$out.tmp" "$out"
say "initramfs: $out ($(($(stat -c %s "$out") / 1024)) KiB)"
