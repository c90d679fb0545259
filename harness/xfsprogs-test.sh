#!/bin/sh
# xfsprogs-test.sh PROGS: the patched xfsprogs' handling of the empty
# symlinks feature (patches/xfsprogs/), on small files on the host: no
# kernel, no mount.  Each case runs a tool from PROGS/bin and checks its
# exit status and what it printed or wrote:
#   mkfs.xfs -i emptysymlinks=1 sets the bit (xfs_db version), and its
#   geometry report says emptysymlinks=1; the default is without it;
#   the same from a mkfs config file ([inode] emptysymlinks=1); refused
#   without CRCs (and =0 accepted there); xfs_db info reports it;
#   xfs_repair -c emptysymlinks=1 adds it to a filesystem without it, in
#   every AG's superblock and without leaving NEEDSREPAIR behind, refuses
#   =0, says so when it is already there, and with -n writes nothing;
#   xfs_admin -O emptysymlinks=1 does the same through it.  xfs_repair -n
#   must call each new or upgraded filesystem clean.  That the upgrade
#   keeps empty links already on disk is the matrix's row
#   patched-upgrade-bad (column xfs_nobit, harness/disks.sh).
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: xfsprogs-test.sh PROGS"
bin=$(cd "$1" && pwd)/bin
for t in mkfs.xfs xfs_db xfs_repair xfs_admin; do
	[ -x "$bin/$t" ] || die "$bin/$t is missing: make progs builds it"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
img=$tmp/disk.img
pass=0 fail=0 n=0

ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() {
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n - $1"
	sed 's/^/#   /' "$tmp/out"
}

# run WANT-RC CMD...: CMD (a tool of bin) with its output in tmp/out;
# 0 when its exit status is WANT-RC.  bin comes first in PATH, for the
# tools xfs_admin runs.
run() {
	want=$1
	shift
	t=$1
	shift
	rc=0
	PATH=$bin:$PATH bounded "$TOOL_TIMEOUT" "$bin/$t" "$@" </dev/null \
		>"$tmp/out" 2>&1 || rc=$?
	echo "# exit $rc: $t $*" >>"$tmp/out"
	[ "$rc" -eq "$want" ]
}

# check NAME WANT-RC PATTERN CMD...: CMD exits WANT-RC and prints a
# line matching the extended regex PATTERN.
check() {
	name=$1 want=$2 pat=$3
	shift 3
	if run "$want" "$@" && grep -Eq "$pat" "$tmp/out"; then
		ok "$name"
	else
		notok "$name"
	fi
}

# check_not NAME PATTERN CMD...: CMD exits 0 and prints no line
# matching PATTERN.
check_not() {
	name=$1 pat=$2
	shift 2
	if run 0 "$@" && ! grep -Eq "$pat" "$tmp/out"; then
		ok "$name"
	else
		notok "$name"
	fi
}

# clean NAME: xfs_repair -n exits 0 on the image and reports nothing
# it would change.
clean() {
	if run 0 xfs_repair -n "$img" &&
	   ! grep -Eq "zero size symlink|would|[Cc]orrupt" "$tmp/out"; then
		ok "$1"
	else
		notok "$1"
	fi
}

# has_bits NAME AG MASK WANT: features_incompat of AG's superblock, and
# MASK, is WANT.
has_bits() {
	if run 0 xfs_db -r -c "sb $2" -c "print features_incompat" "$img" &&
	   v=$(sed -n 's/^features_incompat = //p' "$tmp/out") &&
	   [ -n "$v" ] && [ $((v & ($3))) -eq $(($4)) ]; then
		ok "$1"
	else
		notok "$1"
	fi
}

empty=0x40000000 needsrepair=0x10

mkfs() { rm -f "$img" && truncate -s 300M "$img" && run 0 mkfs.xfs -f "$@" "$img"; }

if mkfs -i emptysymlinks=1 && grep -Eq "emptysymlinks=1" "$tmp/out"; then
	ok "mkfs -i emptysymlinks=1 reports emptysymlinks=1"
else
	notok "mkfs -i emptysymlinks=1 reports emptysymlinks=1"
fi
check "the new filesystem has the bit (xfs_db version)" 0 \
	"EMPTYSYMLINKS" xfs_db -r -c version "$img"
check "xfs_db info reports emptysymlinks=1" 0 \
	"emptysymlinks=1" xfs_db -r -c info "$img"
clean "xfs_repair -n calls it clean"
check "xfs_repair -c emptysymlinks=1 says it is already there" 0 \
	"already supports empty symlinks" xfs_repair -c emptysymlinks=1 "$img"

if mkfs && grep -Eq "emptysymlinks=0" "$tmp/out"; then
	ok "mkfs without the option reports emptysymlinks=0"
else
	notok "mkfs without the option reports emptysymlinks=0"
fi
check_not "a default filesystem has no bit" "EMPTYSYMLINKS" \
	xfs_db -r -c version "$img"
check "xfs_repair -c emptysymlinks=0 is refused" 1 \
	"only supports upgrades" xfs_repair -c emptysymlinks=0 "$img"
cp "$img" "$tmp/before.img"
check "xfs_repair -n -c emptysymlinks=1 says what it would add" 0 \
	"Adding empty symlink support" xfs_repair -n -c emptysymlinks=1 "$img"
if cmp -s "$img" "$tmp/before.img"; then
	ok "and writes nothing"
else
	echo "# $img differs from the copy made before" >"$tmp/out"
	notok "and writes nothing"
fi
rm -f "$tmp/before.img"
check "xfs_repair -c emptysymlinks=1 adds the feature" 0 \
	"Adding empty symlink support" xfs_repair -c emptysymlinks=1 "$img"
check "then the filesystem has the bit" 0 "EMPTYSYMLINKS" \
	xfs_db -r -c version "$img"
has_bits "in the primary superblock, without NEEDSREPAIR" 0 \
	"$empty | $needsrepair" "$empty"
has_bits "and in AG 1's superblock, without NEEDSREPAIR" 1 \
	"$empty | $needsrepair" "$empty"
clean "and xfs_repair -n calls it clean"

if mkfs && run 0 xfs_admin -O emptysymlinks=1 "$img" &&
   grep -q "Adding empty symlink support" "$tmp/out"; then
	ok "xfs_admin -O emptysymlinks=1 adds the feature"
else
	notok "xfs_admin -O emptysymlinks=1 adds the feature"
fi
has_bits "in the last AG's superblock too" 3 "$empty | $needsrepair" "$empty"
clean "and xfs_repair -n calls it clean"

printf '[inode]\nemptysymlinks=1\n' >"$tmp/emptysymlinks.conf"
if mkfs -c options="$tmp/emptysymlinks.conf" &&
   grep -Eq "emptysymlinks=1" "$tmp/out"; then
	ok "mkfs config file [inode] emptysymlinks=1 sets the feature"
else
	notok "mkfs config file [inode] emptysymlinks=1 sets the feature"
fi

rm -f "$img" && truncate -s 300M "$img"
check "mkfs refuses emptysymlinks without CRCs" 1 \
	"empty symlinks not supported without CRC support" \
	mkfs.xfs -f -m crc=0 -i emptysymlinks=1 "$img"
check "and takes emptysymlinks=0 without CRCs" 0 "emptysymlinks=0" \
	mkfs.xfs -f -m crc=0 -i emptysymlinks=0 "$img"

echo "1..$n"
echo "# xfsprogs-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || die "xfsprogs-test: $fail of $n cases failed"
