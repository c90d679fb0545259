#!/bin/sh
# xfs-exchrange.sh mkfs IMAGE: an xfs on which 6.12's online repair can
# rebuild a symlink: reverse mappings (mkfs -m rmapbt=1), and the
# exchange-range feature (XFS_SB_FEAT_INCOMPAT_EXCHRANGE, 1 << 6), which
# xrep_symlink() needs to swap the rebuilt target in and which mkfs.xfs
# 6.1 cannot set: xfs_db sets the bit.  -d: xfs_db's write verifier
# rejects a feature bit xfsprogs 6.1 does not know; the CRC is still
# recomputed.
# xfs-exchrange.sh set IMAGE: the bit set on an xfs made otherwise
# (fs-images/make-images.sh, the image xfs-online).
# xfs-exchrange.sh clear IMAGE: the bit cleared again, after the guest
# unmounted the disk, so that xfs_repair 6.1 (stock and patched), which
# refuses any unknown incompatible feature, can check it.  The bit only
# allows mapping-exchange intents in the log, and the log of a cleanly
# unmounted disk holds none (xfs_repair -n still reports a dirty log).
# No bound of its own: harness/disks.sh runs it under timeout(1).
set -eu
mode=${1:-} img=${2:-}
[ -f "$img" ] || { echo "usage: xfs-exchrange.sh mkfs|set|clear IMAGE" >&2; exit 1; }
bit=0x40

incompat() {
	v=$(xfs_db -r -c "sb 0" -c "print features_incompat" "$img" 2>/dev/null)
	case "$v" in
	"features_incompat = 0x"*) echo "${v#features_incompat = }" ;;
	*) echo "xfs-exchrange.sh: cannot read features_incompat of $img: $v" >&2
	   exit 1 ;;
	esac
}

set_incompat() { # value
	xfs_db -x -c "sb 0" -c "write -d features_incompat $1" "$img" >/dev/null
	now=$(incompat)
	[ $((now)) -eq $(($1)) ] || {
		echo "xfs-exchrange.sh: features_incompat of $img is $now, not $1" >&2
		exit 1
	}
}

# (v=$(incompat) on a line of its own: set -e ends the script when it
# fails, which it would not inside an arithmetic expansion.)
case "$mode" in
mkfs)
	mkfs.xfs -q -f -m rmapbt=1,reflink=1 "$img"
	v=$(incompat)
	set_incompat "$(printf '0x%x' $((v | bit)))" ;;
set)
	v=$(incompat)
	set_incompat "$(printf '0x%x' $((v | bit)))" ;;
clear)
	v=$(incompat)
	set_incompat "$(printf '0x%x' $((v & ~bit)))" ;;
*)
	echo "usage: xfs-exchrange.sh mkfs|set|clear IMAGE" >&2
	exit 1 ;;
esac
