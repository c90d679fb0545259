#!/bin/sh
# xfs-features.sh mkfs FEATURES IMAGE: a new xfs with the incompatible
# features FEATURES (a comma-separated list of the names below), as an
# administrator would make it.  emptysymlinks comes from the patched
# mkfs.xfs (patches/xfsprogs/, -i emptysymlinks=1, built by
# harness/progs.sh into PROGS/bin; its xfs_db checks the result);
# mkfs.xfs 6.1 cannot set exchrange, so xfs_db writes that bit with -d:
# its write verifier rejects a bit xfsprogs 6.1 does not know; the CRC
# is still recomputed.
#   emptysymlinks  XFS_SB_FEAT_INCOMPAT_EMPTY_SYMLINKS (1 << 30), patches
#                  0003 and 0008: the filesystem may hold empty symlink
#                  targets (docs/xfs.md, "Compatibility")
#   exchrange      XFS_SB_FEAT_INCOMPAT_EXCHRANGE (1 << 6), which 6.12's
#                  online repair needs to swap a rebuilt symlink target in,
#                  with reverse mappings (so mkfs.xfs -m rmapbt=1)
# xfs-features.sh set FEATURES IMAGE: the bits set with xfs_db on an xfs
# made otherwise (fs-images/make-images.sh: the images are made with the
# distribution's tools), in every AG's superblock.
# xfs-features.sh clear FEATURES IMAGE: the bits cleared again, after the
# guest unmounted the disk: xfs_repair 6.1 (stock and patched) refuses
# exchrange, which it does not know.  That bit only allows
# mapping-exchange intents in the log, and the log of a cleanly unmounted
# disk holds none (xfs_repair -n still reports a dirty log).
# No bound of its own: harness/disks.sh runs it under timeout(1).
set -eu
usage() {
	echo "usage: xfs-features.sh mkfs|set|clear emptysymlinks,exchrange IMAGE" >&2
	exit 1
}
mode=${1:-} features=${2:-} img=${3:-}
[ -f "$img" ] || usage
top=$(cd "$(dirname "$0")/.." && pwd)
PROGS=${PROGS:-$top/build/progs}

bits=0 mkfsopts=
for f in $(echo "$features" | tr , ' '); do
	case "$f" in
	emptysymlinks) bits=$((bits | 0x40000000)) ;;
	exchrange) bits=$((bits | 0x40)) mkfsopts="-m rmapbt=1,reflink=1" ;;
	*) echo "xfs-features.sh: unknown feature $f" >&2; usage ;;
	esac
done
[ "$bits" -ne 0 ] || usage

incompat() { # [AG]
	v=$(xfs_db -r -c "sb ${1:-0}" -c "print features_incompat" "$img" 2>/dev/null)
	case "$v" in
	"features_incompat = 0x"*) echo "${v#features_incompat = }" ;;
	*) echo "xfs-features.sh: cannot read features_incompat of $img: $v" >&2
	   exit 1 ;;
	esac
}

# In every AG's superblock, as xfs_admin would: xfs_repair compares the
# secondary superblocks' features with the primary's ("would fix incompat
# feature mismatch in AG 1 super").
set_incompat() { # value
	v=$(xfs_db -r -c "sb 0" -c "print agcount" "$img" 2>/dev/null)
	case "$v" in
	"agcount = "[0-9]*) ags=${v#agcount = } ;;
	*) echo "xfs-features.sh: cannot read agcount of $img: $v" >&2
	   exit 1 ;;
	esac
	ag=0
	while [ "$ag" -lt "$ags" ]; do
		xfs_db -x -c "sb $ag" -c "write -d features_incompat $1" "$img" >/dev/null
		now=$(incompat "$ag")
		[ $((now)) -eq $(($1)) ] || {
			echo "xfs-features.sh: features_incompat of $img, AG $ag, is $now, not $1" >&2
			exit 1
		}
		ag=$((ag + 1))
	done
}

# (v=$(incompat) on a line of its own: set -e ends the script when it
# fails, which it would not inside an arithmetic expansion.)
case "$mode" in
mkfs)
	mkfs=mkfs.xfs
	if [ $((bits & 0x40000000)) -ne 0 ]; then
		mkfs=$PROGS/bin/mkfs.xfs
		[ -x "$mkfs" ] || {
			echo "xfs-features.sh: $mkfs is missing: make progs builds it (harness/progs.sh xfsprogs)" >&2
			exit 1
		}
		mkfsopts="$mkfsopts -i emptysymlinks=1"
		bits=$((bits & ~0x40000000))
	fi
	# shellcheck disable=SC2086
	"$mkfs" -q -f $mkfsopts "$img"
	# The patched xfs_db names the feature mkfs set (xfsprogs 0007).
	if [ "$mkfs" != mkfs.xfs ]; then
		v=$("$PROGS/bin/xfs_db" -r -c version "$img" 2>&1) || true
		case "$v" in
		*,EMPTYSYMLINKS*) ;;
		*) echo "xfs-features.sh: $PROGS/bin/xfs_db does not see the empty symlinks feature on $img: $v" >&2
		   exit 1 ;;
		esac
	fi
	if [ "$bits" -ne 0 ]; then
		v=$(incompat)
		set_incompat "$(printf '0x%x' $((v | bits)))"
	fi ;;
set)
	v=$(incompat)
	set_incompat "$(printf '0x%x' $((v | bits)))" ;;
clear)
	v=$(incompat)
	set_incompat "$(printf '0x%x' $((v & ~bits)))" ;;
*)
	usage ;;
esac
