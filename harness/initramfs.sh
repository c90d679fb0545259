#!/bin/sh
# initramfs.sh GEN_INIT_CPIO TESTBIN PROGSBIN OUT KSELFTEST: the guest's
# initramfs: busybox-static, /init, /suites-init (rdinit= for the fsck
# tools' suites, harness/guest-suites.sh), the test program, the series'
# kselftest (KSELFTEST, /empty_symlink_test), the registry of filesystems
# and its reader, the images' manifest, the programs the registry's
# "guest" lines name (from PROGSBIN, e.g. a static btrfs for snapshots
# and send/receive), and the fixture empty links (a second cpio archive
# appended to the first): the tmpfs column's, and the lower layer of the
# overlayfs columns.
set -eu
. "$(dirname "$0")/lib.sh"

gen=$1 testbin=$2 progs=$3 out=$4 ksft=$5
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

[ -x "$ksft" ] || die "$ksft is missing: make builds it from the patched tree"
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
dir /ovl-lower 0755 0 0
dir /img 0755 0 0
nod /dev/console 0600 0 0 c 5 1
file /bin/busybox /bin/busybox 0755 0 0
slink /bin/sh busybox 0777 0 0
file /init $here/guest-init.sh 0755 0 0
file /suites-init $here/guest-suites.sh 0755 0 0
file /registry.sh $here/registry.sh 0755 0 0
file /filesystems.txt $here/filesystems.txt 0644 0 0
file /emptylink $testbin 0755 0 0
file /empty_symlink_test $ksft 0755 0 0
file /manifest.txt $top/fs-images/manifest.txt 0644 0 0
LIST
# shellcheck disable=SC2046
"$here/registry.sh" guest $("$here/registry.sh" names) | while read -r tool path; do
	[ -x "$progs/$tool" ] ||
		die "$progs/$tool is missing: make builds it (harness/progs.sh)"
	echo "file $path $progs/$tool 0755 0 0"
done >>"$list"

{ "$gen" -t 0 "$list" && "$here/cpio-empty-links.sh" /fixtures/empty \
	/ovl-lower/empty /ovl-lower/meta; } >"$out.tmp" ||
	die "cannot write the initramfs"
mv "$out.tmp" "$out"
say "initramfs: $out ($(($(stat -c %s "$out") / 1024)) KiB)"
