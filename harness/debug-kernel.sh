#!/bin/sh
# debug-kernel.sh SRC LOG: the debug flavour of the patched kernel.
# SRC/debug is a git worktree of SRC/vanilla at the commit SRC/patched
# has checked out (the whole series), configured as the patched kernel
# plus harness/kernel-debug.config (KASAN, lockdep, UBSAN, ...), and
# built by harness/kernel-build.sh.  Its objects differ from the plain
# kernels' (other compiler flags), so ccache helps only its next build.
set -eu
. "$(dirname "$0")/lib.sh"

src=$1
here=$(cd "$(dirname "$0")" && pwd)
head=$(git -C "$src/patched" rev-parse -q --verify HEAD) ||
	die "no patched tree at $src/patched (make trees first)"
[ -z "$(git -C "$src/patched" status --porcelain --untracked-files=no)" ] ||
	say "debug kernel: $src/patched has local changes; the debug tree takes its commit $head without them"
if [ ! -e "$src/debug/.git" ]; then
	rm -rf "$src/debug"
	git -C "$src/vanilla" worktree prune
	git -C "$src/vanilla" -c advice.detachedHead=false worktree add -q \
		--detach "$(cd "$src" && pwd)/debug" "$head" ||
		die "cannot make the debug worktree at $src/debug"
fi
# A no-op when it is there already: make keeps what it built.
git -C "$src/debug" -c advice.detachedHead=false checkout -q --detach "$head" ||
	die "cannot move $src/debug to $head"
exec "$here/kernel-build.sh" "$src/debug" "$2" "$here/kernel-debug.config"
