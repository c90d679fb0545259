#!/bin/sh
# make-images.sh OUTDIR BTRFS_EMPTY_LINK: regenerate the prebuilt images
# OUTDIR/{ext4,ext4-bad,xfs,xfs-bad,btrfs}.img.zst that fs-images/manifest.txt
# describes,
# with the filesystems' own userspace tools only: no kernel is involved,
# since the point is to get empty links on disk the way another system
# would have written them.  Each link that ends up empty is first made
# with the one-byte body "E", then edited:
#   ext4   debugfs -w: i_size 0 (and i_block zeroed for fast links)
#   xfs    xfs_db -x: di_size 0, so the local data fork is zero-length
#   btrfs  fs-images/btrfs-empty-link.c (no Debian tool edits items)
# Fixed UUIDs and timestamps keep the result the same from run to run
# where the tools allow it.
set -eu
. "$(dirname "$0")/../harness/lib.sh"

mkdir -p "$1"
out=$(cd "$1" && pwd)
bel=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
export E2FSPROGS_FAKE_TIME=1000000000
stamp=@1000000000
work=$(mktemp -d)
current=
# Each make_* step runs under set -e (not in an || list, where the shell
# would ignore it), so the first failing tool stops the script; say which
# image it was making.
trap 'rc=$?; rm -rf "$work"; [ "$rc" -eq 0 ] || echo "error: could not make the $current image" >&2' EXIT

# 200 bytes: a slow link on ext4 (over 60); on xfs it stays in the inode,
# because mkfs.xfs 6.1 writes remote symlink blocks without their v5
# header (xfs_repair: "Bad symlink buffer CRC"); scratch runs cover remote
# links (ctl.long_readlink).
long=$(printf 'x%.0s' $(seq 200))

# The tree every image starts from; "E" marks links to be emptied.
tree=$work/tree
mkdir -p "$tree/dir"
printf hello >"$tree/file"
ln -s file "$tree/normal"
ln -s missing "$tree/dangling"
ln -s / "$tree/root"
ln -s "$long" "$tree/long"
ln -s E "$tree/empty"
ln -s E "$tree/dir/empty"

stamp_tree() {
	find "$1" -exec touch -h -d "$stamp" {} +
}

make_ext4() {
	t=$work/ext4-tree
	cp -a "$tree" "$t"
	ln -s "$(printf 'y%.0s' $(seq 100))" "$t/slowempty"
	stamp_tree "$t"
	img=$work/ext4.img
	mkfs.ext4 -q -F -d "$t" -U 6c2e5b1e-0000-4000-8000-00000000e4e4 \
		-E hash_seed=6c2e5b1e-0000-4000-8000-0000000000e4 -L emptylink \
		"$img" 32M >/dev/null
	for l in /empty /dir/empty; do
		debugfs -w -R "sif $l size 0" "$img" 2>/dev/null
		debugfs -w -R "sif $l block[0] 0" "$img" 2>/dev/null
	done
	# The block keeps its body, as another system would write "": a NUL.
	debugfs -w -R "sif /slowempty size 0" "$img" 2>/dev/null
	debugfs -w -R "zap_block -f /slowempty -o 0 -l 1 -p 0 0" "$img" 2>/dev/null
}

# A fast symlink whose i_size (5) does not end at its body's NUL ("abc"):
# the fast symlink length check must still reject it.
make_ext4_bad() {
	img=$work/ext4-bad.img
	mkfs.ext4 -q -F -U 6c2e5b1e-0000-4000-8000-0000000bad04 \
		-E hash_seed=6c2e5b1e-0000-4000-8000-0000000bad44 -L emptylinkbad \
		"$img" 32M >/dev/null
	debugfs -w -R "symlink /badfast abc" "$img" 2>/dev/null
	debugfs -w -R "sif /badfast size 5" "$img" 2>/dev/null
}

make_xfs() {
	proto=$work/xfs.proto
	cat >"$proto" <<PROTO
emptylink
0 0
d--755 0 0
file ---644 0 0 $tree/file
normal l--777 0 0 file
dangling l--777 0 0 missing
root l--777 0 0 /
long l--777 0 0 $long
empty l--777 0 0 E
dir d--755 0 0
empty l--777 0 0 E
\$
\$
PROTO
	img=$work/xfs.img
	truncate -s 300M "$img"
	mkfs.xfs -q -f -m uuid=6c2e5b1e-0000-4000-8000-0000000000f5 -L emptylink \
		-p "$proto" "$img"
	for l in /empty /dir/empty; do
		xfs_db -x -c "path $l" -c "write core.size 0" "$img" >/dev/null
	done
}

# Inodes that are corrupt on purpose, so the tests show that the patched
# kernel and xfs_repair still reject what the zero-length checks were
# for: a zero-length directory, a zero-length symlink that maps blocks
# (extents format), a local symlink whose size exceeds its fork.
make_xfs_bad() {
	proto=$work/xfs-bad.proto
	cat >"$proto" <<PROTO
emptylink-bad
0 0
d--755 0 0
zerodir d--755 0 0
\$
zeroext l--777 0 0 $(printf 'z%.0s' $(seq 400))
bigsize l--777 0 0 E
\$
PROTO
	img=$work/xfs-bad.img
	truncate -s 300M "$img"
	mkfs.xfs -q -f -m uuid=6c2e5b1e-0000-4000-8000-0000000bad05 -L emptylinkbad \
		-p "$proto" "$img"
	for edit in /zerodir:0 /zeroext:0 /bigsize:1000; do
		xfs_db -x -c "path ${edit%%:*}" -c "write core.size ${edit#*:}" \
			"$img" >/dev/null
	done
}

make_btrfs() {
	t=$work/btrfs-tree
	cp -a "$tree" "$t"
	ln -s E "$t/inline0"
	stamp_tree "$t"
	img=$work/btrfs.img
	truncate -s 128M "$img"
	mkfs.btrfs -q -f -m single -d single -U 6c2e5b1e-0000-4000-8000-0000000b7f50 \
		-L emptylink --rootdir "$t" "$img" >/dev/null
	dump=$(btrfs inspect-internal dump-tree -t fs "$img")
	for l in empty:noextent inline0:inline0 dir/empty:noextent; do
		name=${l%%:*}
		ino=$(ino_of "$dump" "$name")
		"$bel" "$img" "$ino" "${l#*:}"
	done
}

# The inode number of a path in the dump of an fs tree, one level deep
# at most (DIR_INDEX items name the entries of each directory).
ino_of() {
	dirino=256
	case "$2" in
	*/*)	dirino=$(ino_in "$1" 256 "${2%%/*}")
		ino_in "$1" "$dirino" "${2#*/}" ;;
	*)	ino_in "$1" "$dirino" "$2" ;;
	esac
}

ino_in() {
	printf '%s\n' "$1" | awk -v dir="$2" -v name="$3" '
		$4 == "(" dir && $5 == "DIR_INDEX" { want = 1; next }
		want && /location key/ { sub(/\(/, "", $3); loc = $3 }
		want && /name: / { if ($2 == name) { print loc; exit } ; want = 0 }'
}

for fs in ext4 ext4_bad xfs xfs_bad btrfs; do
	say "images: making $fs"
	current=$fs
	"make_$fs"
	name=$(echo "$fs" | tr _ -)
	zstd -q -19 -f "$work/$name.img" -o "$out/$name.img.zst"
	say "images: $out/$name.img.zst ($(stat -c %s "$out/$name.img.zst") bytes)"
done
