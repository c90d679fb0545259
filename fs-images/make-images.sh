#!/bin/sh
# make-images.sh OUTDIR BTRFS_EMPTY_LINK [FILE...]: regenerate the prebuilt images
# that harness/filesystems.txt names ("image FILE SETS", "bad FILE SET")
# as OUTDIR/FILE.img.zst; fs-images/manifest.txt describes them.  Each is
# made by the recipe make_RECIPE below: for an image the last of its
# SETS (extfs, xfs, btrfs), for a bad image its SET.  With FILE...,
# only those images.  Where they can, they use the filesystems' own
# userspace tools only, with no kernel involved, since the point is to
# get empty links on disk the way another system would have written
# them.  Each link that ends up empty is first made with the one-byte
# body "E", then edited:
#   ext4   debugfs -w: i_size 0 (and i_block zeroed for fast links)
#   xfs    xfs_db -x: di_size 0, so the local data fork is zero-length
#   btrfs  fs-images/btrfs-empty-link.c (no Debian tool edits items)
# The read-only formats' images (recipe "ro": squashfs, erofs, cramfs,
# romfs, isofs) are packed by the format's own tool (the registry's
# mkimage) under fs-images/empty-link-shim.c, which shows it each link
# to "E" as an empty one.  The other filesystems' images (recipe
# "kernel") are written by the patched kernel in the guest, where no
# Debian tool can make a link.
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
placeholder=
corrupt=
# Each make_* step runs under set -e (not in an || list, where the shell
# would ignore it), so the first failing tool stops the script; say which
# image it was making.
# shellcheck disable=SC2154 # rc is assigned in the trap itself
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

top=$(cd "$(dirname "$0")/.." && pwd)
reg() { "$top/harness/registry.sh" "$@"; }

# Any filesystem of the ext family: mke2fs -t TYPE (the registry's type).
make_extfs() { # fs img
	type=$(reg get "$1" type)
	t=$work/ext4-tree
	rm -rf "$t"
	cp -a "$tree" "$t"
	ln -s "$(printf 'y%.0s' $(seq 100))" "$t/slowempty"
	stamp_tree "$t"
	img=$2
	mke2fs -t "${type:-$1}" -q -F -d "$t" -U 6c2e5b1e-0000-4000-8000-00000000e4e4 \
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
make_ext4_bad() { # fs img
	img=$2
	mkfs.ext4 -q -F -U 6c2e5b1e-0000-4000-8000-0000000bad04 \
		-E hash_seed=6c2e5b1e-0000-4000-8000-0000000bad44 -L emptylinkbad \
		"$img" 32M >/dev/null
	debugfs -w -R "symlink /badfast abc" "$img" 2>/dev/null
	debugfs -w -R "sif /badfast size 5" "$img" 2>/dev/null
}

# xfs as any xfs made before the empty symlinks feature: empty links on a
# filesystem without it (the column xfs_nobit).
make_xfs_nobit() { # fs img
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
	img=$2
	truncate -s 300M "$img"
	mkfs.xfs -q -f -m uuid=6c2e5b1e-0000-4000-8000-0000000000f5 -L emptylink \
		-p "$proto" "$img"
	for l in /empty /dir/empty; do
		xfs_db -x -c "path $l" -c "write core.size 0" "$img" >/dev/null
	done
}

# The same links on an xfs with the feature that allows them (patches
# 0003 and 0008), set last: xfs_db 6.1 still reads such a disk.
make_xfs() { # fs img
	make_xfs_nobit "$@"
	"$top/harness/xfs-features.sh" set emptysymlinks "$2"
}

# Inodes that are corrupt on purpose, so the tests show that the patched
# kernel and xfs_repair still reject what the zero-length checks were
# for: a zero-length directory, a zero-length symlink that maps blocks
# (extents format), a local symlink whose size exceeds its fork.
# xfs_bad_inodes IMG NAME UUID LABEL MKFS-OPTS [ENTRY...]: IMG made with
# them, and with the proto ENTRY lines at its root before them;
# MKFS-OPTS (empty, or starting with ",") follow uuid=UUID in -m.
xfs_bad_inodes() {
	xb_img=$1 xb_name=$2 proto=$work/$2.proto uuid=$3 label=$4 opts=$5
	shift 5
	{
		printf '%s\n' "$xb_name" "0 0" "d--755 0 0" "$@"
		cat <<PROTO
zerodir d--755 0 0
\$
zeroext l--777 0 0 $(printf 'z%.0s' $(seq 400))
bigsize l--777 0 0 E
\$
PROTO
	} >"$proto"
	truncate -s 300M "$xb_img"
	mkfs.xfs -q -f -m "uuid=$uuid$opts" -L "$label" -p "$proto" "$xb_img"
	for edit in /zerodir:0 /zeroext:0 /bigsize:1000; do
		xfs_db -x -c "path ${edit%%:*}" -c "write core.size ${edit#*:}" \
			"$xb_img" >/dev/null
	done
}

make_xfs_bad() { # fs img
	xfs_bad_inodes "$2" emptylink-bad 6c2e5b1e-0000-4000-8000-0000000bad05 \
		emptylinkbad ''
}

# xfs_online's corrupt-on-purpose image, made as harness/xfs-features.sh
# makes that column's disks (reverse mappings, exchange-range, empty
# symlinks), for
# online repair: the inodes of xfs-bad; a sound empty link; and an empty
# link whose inode fails the dinode verifier for another reason (the
# reflink flag, which only regular files may carry), so that inode
# repair meets a zero size where it rewrites the inode.
make_xfs_online() { # fs img
	xfs_bad_inodes "$2" emptylink-online \
		6c2e5b1e-0000-4000-8000-0000000bad06 emptylinkonl \
		,rmapbt=1,reflink=1 "empty l--777 0 0 E" "emptyflag l--777 0 0 E"
	xfs_db -x -c "path /empty" -c "write core.size 0" "$2" >/dev/null
	# One call: once its size is 0, xfs_db 6.1 cannot look it up.
	xfs_db -x -c "path /emptyflag" -c "write core.size 0" \
		-c "write v3.reflink 1" "$2" >/dev/null
	"$top/harness/xfs-features.sh" set emptysymlinks,exchrange "$2"
}

make_btrfs() { # fs img
	t=$work/btrfs-tree
	rm -rf "$t"
	cp -a "$tree" "$t"
	ln -s E "$t/inline0"
	stamp_tree "$t"
	img=$2
	truncate -s 128M "$img"
	mkfs.btrfs -q -f -m single -d single -U 6c2e5b1e-0000-4000-8000-0000000b7f50 \
		-L emptylink --rootdir "$t" "$img" >/dev/null
	for l in /empty:noextent /inline0:inline0 /dir/empty:noextent; do
		ino=$("$top/harness/btrfs-lookup.sh" ino "$img" "${l%%:*}")
		"$bel" "$img" "$ino" "${l#*:}"
	done
}

# Read-only formats: the host kernel cannot make an empty link, so the
# tool runs under the shim (SHIM, from the Makefile), which makes
# readlink() and lstat() of a link to "E" say "" and 0; the tool stores
# what they say, as it would on a system that has empty links.
make_ro() { # fs img
	: "${SHIM:?SHIM= the empty-link shim (make images builds it)}"
	cmd=$(reg get "$1" mkimage)
	[ -n "$cmd" ] || die "$1: the recipe ro needs a mkimage line in harness/filesystems.txt"
	t=$work/ro-tree
	rm -rf "$t"
	cp -a "$tree" "$t"
	stamp_tree "$t"
	cmd=$(echo "$cmd" | sed -e "s|@DIR|$t|g" -e "s|@IMG|$2|g")
	# shellcheck disable=SC2086 # the registry's words
	LD_PRELOAD=$SHIM $cmd >/dev/null
	[ -s "$2" ] || die "$1: $cmd made no image"
}

# Filesystems whose userspace cannot put a link on disk: a blank
# filesystem from the registry's mkfs now, and the tree written later by
# the patched kernel in one boot of the guest for all of them
# (harness/guest-init.sh, emptylink.mkimage=1).  The kernel must store
# empty targets there (SB_I_EMPTY_SYMLINKS).  KERNEL, INITRD and ACCEL
# come from the Makefile.
make_kernel() { # fs img
	truncate -s "$(reg get "$1" size)" "$2"
	# shellcheck disable=SC2046
	$(reg get "$1" mkfs) "$2" >/dev/null 2>&1 || die "mkfs of the $1 image failed"
	kernel_disk "$@"
}

# Attach img as FS-image to the boot that writes the trees.
kernel_disk() { # fs img
	printf '%s\n' -drive "file=$2,format=raw,if=none,id=$1-image" \
		-device "virtio-blk-pci,drive=$1-image,serial=$1-image" \
		>>"$work/kernel.args"
	echo "$1" >>"$work/kernel.list"
}

# jffs2 has no mkfs (its scratch is mtdram, erased RAM of 16 MiB): its
# image starts as 16 MiB of erased flash, an MTD device in the guest
# through block2mtd, which jffs2 mounts empty.
make_jffs2() { # fs img
	truncate -s 16M "$2"
	"$top/harness/erased-flash.sh" "$2"
	kernel_disk "$@"
}

# ntfs3 does not store "" (it stays out of SB_I_EMPTY_SYMLINKS), so the
# kernel writes "E" and this empties the names of its reparse point: an
# IO_REPARSE_TAG_SYMLINK whose substitute and print names both have
# length 0, what another implementation could leave for "".  The bytes
# are those of ntfs_create_reparse_buffer() for a relative "E": tag,
# data length 16, substitute name at 2 (2 bytes), print name at 0
# (2 bytes), flags SYMLINK_FLAG_RELATIVE, then "E" twice in UTF-16.
make_ntfs3() { # fs img
	make_kernel "$@"
	echo "$1 $2" >>"$work/edit.list"
	placeholder=$placeholder,$1
}

# An image written by a kernel of its own (VAR, a bzImage whose FS stores
# empty targets), so in a boot of its own: make images ONLY=FS VAR=...
own_boot() { # fs kernel var
	[ -n "$2" ] || die "$1: give $3= a bzImage whose $1 stores empty targets"
	[ ! -s "$work/kernel.list" ] ||
		die "make the $1 image on its own: make images ONLY=$1 $3=..."
	KERNEL=$2
}

# reiserfs does not store "" (it has not opted in: creating and then
# renaming and removing such links made its leaves fail is_leaf() in a
# test, docs/filesystems.md), so its image is written, in the guest as
# for recipe "kernel", by a kernel with reiserfs opted in, given as
# REISERFS_KERNEL, in a boot of its own; the links are only made, never
# read there.  make images ONLY=reiserfs REISERFS_KERNEL=...
make_reiserfs() { # fs img
	own_boot "$1" "${REISERFS_KERNEL:-}" REISERFS_KERNEL
	corrupt=$corrupt,$1
	make_kernel "$@"
}

edit_ntfs3() { # fs img
	pat='\x0c\x00\x00\xa0\x10\x00\x00\x00\x02\x00\x02\x00\x00\x00\x02\x00\x01\x00\x00\x00E\x00E\x00'
	offs=$(LC_ALL=C grep -obUaP "$pat" "$2" | cut -d: -f1)
	[ "$(echo "$offs" | grep -c .)" -eq 2 ] ||
		die "ntfs3: expected the reparse points of /empty and /dir/empty, found: $offs"
	for o in $offs; do
		for field in 10 14; do	# SubstituteNameLength, PrintNameLength
			printf '\000\000' | dd of="$2" bs=1 seek=$((o + field)) \
				conv=notrunc status=none
		done
	done
}

boot_kernel_images() {
	: "${KERNEL:?KERNEL= the patched bzImage}" "${INITRD:?INITRD=}" "${ACCEL:?ACCEL=}"
	current="kernel-written ($(paste -s -d" " "$work/kernel.list"))"
	fsarg=$(paste -s -d, "$work/kernel.list")
	say "images: booting $KERNEL to write the images of $fsarg"
	"$top/harness/qemu-boot.sh" "$KERNEL" "$INITRD" "$work/boot" "$ACCEL" 900 \
		"emptylink.kernel=patched emptylink.fs=$fsarg emptylink.mkimage=1 emptylink.placeholder=${placeholder#,} emptylink.corrupt=${corrupt#,}" \
		"$work/kernel.args" || die "the guest did not finish: $(cat "$work/boot/verdict")"
	! grep -a 'EMPTYLINK-ERROR' "$work/boot/console.log" ||
		die "the guest could not write every image"
}

# Every image the registry names, once each: "FILE RECIPE" lines.
for fs in $(reg names); do
	img=$(reg word "$fs" image 1)
	[ -z "$img" ] || echo "$img $(reg word "$fs" image 2 | sed 's/.*,//') $fs"
	bad=$(reg word "$fs" bad 1)
	[ -z "$bad" ] || echo "$bad $(reg word "$fs" bad 2) $fs"
done | awk '!seen[$1]++' >"$work/list"
shift 2
if [ $# -gt 0 ]; then
	for name in "$@"; do
		grep -q "^$name " "$work/list" ||
			die "no image $name in harness/filesystems.txt"
	done
	only=" $* "
	awk -v only="$only" 'index(only, " " $1 " ")' "$work/list" >"$work/only"
	mv "$work/only" "$work/list"
fi

while read -r name recipe fs; do
	say "images: making $name (recipe $recipe, for $fs)"
	current=$name
	"make_$(echo "$recipe" | tr - _)" "$fs" "$work/$name.img" </dev/null
done <"$work/list"
[ ! -s "$work/kernel.list" ] || boot_kernel_images
if [ -s "$work/edit.list" ]; then
	while read -r fs img; do
		current=$fs
		"edit_$fs" "$fs" "$img"
	done <"$work/edit.list"
fi
while read -r name recipe fs; do
	current=$name
	# The editing tools can fail quietly (debugfs -R exits 0 when its
	# request fails): every empty link the manifest lists must be one.
	# (The kernel's images are checked by the guest that wrote them.)
	if [ "$name" = "$(reg word "$fs" image 1)" ] && [ -n "$(reg get "$fs" isempty)" ]; then
		for l in $(reg empty-links "$top/fs-images/manifest.txt" \
			"$(reg word "$fs" image 2)"); do
			img=$work/$name.img path=$l sh -c "$(reg get "$fs" isempty)" \
				>/dev/null 2>&1 || die "$name: $l is not an empty link"
		done
	fi
	zstd -q -19 -f "$work/$name.img" -o "$out/$name.img.zst"
	say "images: $out/$name.img.zst ($(stat -c %s "$out/$name.img.zst") bytes)"
done <"$work/list"
