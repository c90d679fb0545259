#!/bin/sh
# bisect-check.sh SRC LOG: build the kernel after each patch of the series,
# in a worktree of its own (SRC/bisect), so that a bisection through the
# series never meets a tree that does not build.  ccache makes every step
# after the first cost only the files the patch touches.
set -eu
. "$(dirname "$0")/lib.sh"

src=$1
log=$2
here=$(cd "$(dirname "$0")" && pwd)
tree=$src/bisect
gitc() { git -c advice.detachedHead=false "$@"; }

if [ ! -e "$tree/.git" ]; then
	rm -rf "$tree"
	gitc -C "$src/vanilla" worktree prune
	gitc -C "$src/vanilla" worktree add -q --detach "$(cd "$src" && pwd)/bisect" base ||
		die "cannot make the bisect worktree"
fi
commits=$(git -C "$src/patched" rev-list --reverse base..HEAD)
n=0
for c in $commits; do
	n=$((n + 1))
	gitc -C "$tree" checkout -q --detach "$c"
	say "bisect-check: patch $n: $(git -C "$tree" log -1 --format=%s)"
	"$here/kernel-build.sh" "$tree" "$log" >/dev/null ||
		die "the tree does not build after patch $n (log: $log)"
done
say "bisect-check: the tree builds after each of the $n patches"
