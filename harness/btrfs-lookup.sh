#!/bin/sh
# btrfs-lookup.sh ino IMAGE PATH: the inode number of PATH in the top
#   subvolume of an unmounted btrfs IMAGE (no Debian tool answers this
#   without a mount; dump-tree's DIR_INDEX items name each directory's
#   entries).
# btrfs-lookup.sh isempty IMAGE PATH: true when PATH is a symlink there
#   with an inode item of its own whose size is 0 (a repair that deleted
#   it, moved it to lost+found or gave it a body makes this false).
# No bound of its own: harness/disks.sh runs the isempty test under
# timeout(1), which kills its whole process group, btrfs too
# (PROBE_TIMEOUT).
set -eu

# The DIR_INDEX entry NAME of directory DIR: "INO TYPE".
entry() { # dump dir name
	printf '%s\n' "$1" | awk -v dir="$2" -v name="$3" '
		$4 == "(" dir && $5 == "DIR_INDEX" { want = 1; next }
		want && /location key/ { sub(/\(/, "", $3); loc = $3; type = $7 }
		want && /name: / { if ($2 == name) { print loc, type; exit }; want = 0 }'
}

lookup() { # dump path: "INO TYPE" of the last component
	ino=256 found="256 DIR"
	rest=${2#/}
	while [ -n "$rest" ]; do
		part=${rest%%/*}
		case "$rest" in */*) rest=${rest#*/} ;; *) rest= ;; esac
		found=$(entry "$1" "$ino" "$part")
		[ -n "$found" ] || return 1
		ino=${found%% *}
	done
	echo "$found"
}

cmd=$1 img=$2 path=$3
dump=$(btrfs inspect-internal dump-tree -t fs "$img" 2>/dev/null) || exit 1
found=$(lookup "$dump" "$path") || exit 1
case "$cmd" in
ino) echo "${found%% *}" ;;
isempty)
	[ "${found#* }" = SYMLINK ] || exit 1
	printf '%s\n' "$dump" | awk -v ino="${found%% *}" '
		$4 == "(" ino && $5 == "INODE_ITEM" { want = 1; next }
		want && / size / { for (i = 1; i < NF; i++) if ($i == "size") sz = $(i + 1) }
		want && / mode / { for (i = 1; i < NF; i++) if ($i == "mode") m = $(i + 1); exit }
		END { exit !(m ~ /^120/ && sz == "0") }' ;;
*) echo "usage: btrfs-lookup.sh ino|isempty IMAGE PATH" >&2; exit 2 ;;
esac
