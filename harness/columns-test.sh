#!/bin/sh
# columns-test.sh SRC: the bisect check boots, for each patch, the
# columns that the patch's files can change (bisect-check.sh plan_patch),
# and all of them when a file is not confined to one filesystem.  Each
# case is a commit on top of SRC/patched's HEAD that appends a comment to
# the files it names, made through a temporary index: no worktree
# changes, and the commit is on no branch (git gc takes it later).  FS
# is fixed here, so that a new column in the registry does not change
# the expected lists.  No build, no boot.
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

[ $# -eq 1 ] || die "usage: columns-test.sh SRC"
src=$1
repo=$src/patched
head=$(git -C "$repo" rev-parse HEAD) || die "no kernel tree at $repo"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export FS="tmpfs ext4 ext2 xfs f2fs udf"
pass=0 fail=0

# commit FILE...: a commit that changes each FILE; prints its id.
GIT_INDEX_FILE=$tmp/head git -C "$repo" read-tree "$head"
commit() {
	cp "$tmp/head" "$tmp/index"
	for f in "$@"; do
		blob=$({ git -C "$repo" show "$head:$f" 2>/dev/null || true
			 echo "/* columns-test */"; } |
			git -C "$repo" hash-object -w --stdin)
		GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --add \
			--cacheinfo "100644,$blob,$f"
	done
	tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
	git -C "$repo" -c user.name=columns-test -c user.email=harness@localhost \
		commit-tree "$tree" -p "$head" -m "columns-test $*"
}

# expect "COLUMNS" FILE...: a patch changing FILE... boots COLUMNS ("all"
# for every column).  The cases are collected, then planned in one run.
n=0 commits=''
: >"$tmp/want"
expect() {
	n=$((n + 1))
	printf '%s\n' "$1" >>"$tmp/want"
	shift
	commits="$commits $(commit "$@")"
}

# A filesystem's own code: its columns, whatever the depth or symbol.
expect "ext4 ext2" fs/ext4/inode.c
expect "xfs" fs/xfs/scrub/symlink.c
expect "xfs" fs/xfs/libxfs/xfs_symlink_remote.c
expect "udf" fs/udf/namei.c
expect "f2fs" fs/f2fs/f2fs.h
expect "ext4 ext2 xfs" fs/xfs/xfs_symlink.c fs/ext4/namei.c
# Libraries that other filesystems call: every column, even where the
# registry names the library's symbol for some columns only (fscrypt).
expect all fs/crypto/hooks.c
expect all fs/crypto/fscrypt_private.h
expect all fs/iomap/buffered-io.c
expect all fs/jbd2/journal.c
# The configuration every column shares.
expect all fs/f2fs/Kconfig
expect all fs/xfs/Makefile
# The VFS, headers, anything outside fs/.
expect all fs/namei.c
expect all fs/ramfs/inode.c
expect all include/linux/fs.h
expect all mm/shmem.c
expect all fs/ext4/inode.c mm/shmem.c
# No code: the smoke column only, so that the prefix still boots.
expect tmpfs Documentation/filesystems/vfs.rst
# Not in the kernel (a selftest, its Makefile included): the same.
expect tmpfs tools/testing/selftests/filesystems/empty_symlink/Makefile MAINTAINERS

# shellcheck disable=SC2086
"$here/bisect-check.sh" --columns "$src" $commits >"$tmp/got" ||
	die "bisect-check.sh --columns failed"
i=0
while IFS= read -r want; do
	i=$((i + 1))
	line=$(sed -n "${i}p" "$tmp/got")
	# "N columns-test FILE...: COLUMNS (WHY)"
	what=${line#"$i columns-test "}
	what=${what%%: *}
	got=${line#*"$what: "}
	got=${got%% (*}
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
		say "columns-test $what: $got: ok"
	else
		fail=$((fail + 1))
		say "columns-test $what: FAILED: boots '$got', expected '$want' ($line)"
	fi
done <"$tmp/want"
[ "$i" -eq "$n" ] || die "columns-test: $n cases, $i judged"
say "columns-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
