#!/bin/sh
# share-9p.sh DIR MANIFEST SETS: write into DIR (made empty) the entries
# of fs-images/manifest.txt whose SET is one of SETS (a,b,...), in the
# form QEMU's 9p server keeps with security_model=mapped-xattr: files
# and directories as they are, a symlink as a regular file holding its
# target, with the 4-byte little-endian attribute user.virtfs.mode =
# S_IFLNK|0777 (hw/9pfs/9p-local.c, local_symlink()).  An empty target
# is an empty file: the empty link no host tool can make as a symlink.
set -eu
. "$(dirname "$0")/lib.sh"

dir=$1 manifest=$2 sets=$3
command -v setfattr >/dev/null ||
	die "setfattr is missing (Debian package attr)"
rm -rf "$dir"
mkdir -p "$dir"

# A manifest body: "text", c*N (N copies of c), or - .
body() {
	case "$1" in
	\"*\") b=${1#\"}; printf '%s' "${b%\"}" ;;
	?\*[0-9]*) head -c "${1#??}" /dev/zero | tr '\0' "$(printf '%.1s' "$1")" ;;
	esac
}

awk -v sets="$sets" '
	BEGIN { n = split(sets, s, ","); for (i = 1; i <= n; i++) want[s[i]] = 1 }
	/^#/ || NF < 4 { next }
	$1 in want { print $3, $2, $4 }' "$manifest" |
while read -r type path b; do
	f=$dir$path
	case "$type" in
	dir) mkdir -p "$f" ;;
	reg) body "$b" >"$f" ;;
	lnk)
		body "$b" >"$f"
		# 0120777 (0xa1ff) as 4 bytes, least significant first.
		setfattr -n user.virtfs.mode -v 0xffa10000 "$f" 2>"$dir.err" ||
			die "cannot set user.virtfs.mode on $f (user xattrs on the results' filesystem?): $(cat "$dir.err")"
		rm -f "$dir.err" ;;
	*) die "share-9p.sh: $path: no mapped form for type $type" ;;
	esac
done
