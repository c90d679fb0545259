#!/bin/sh
# kernel-tree.sh SRC: make the two kernel trees under SRC (an ignored build
# folder), never in the repository.
#   SRC/vanilla  Debian's linux-source-6.12 as shipped, in git (tag "base")
#   SRC/patched  a git worktree of it with patches/0*.patch applied by git am
# Re-running re-applies the series onto base; the files whose content it
# leaves the same keep their times, so the next kernel build stays
# incremental (below).
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$1"
src=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
# Fixed identity and dates: the trees are build products, not anyone's work.
gitc() {
	git -c user.name="emptylink harness" -c user.email="harness@localhost" \
	    -c advice.detachedHead=false "$@"
}

[ -f "$tarball" ] || die "$tarball is missing (Debian package linux-source-6.12)"
mkdir -p "$src"

if ! git -C "$src/vanilla" rev-parse -q --verify base >/dev/null 2>&1; then
	say "extracting $tarball"
	rm -rf "$src/vanilla" "$src/patched" "$src/vanilla.tmp"
	mkdir "$src/vanilla.tmp"
	tar -xf "$tarball" -C "$src/vanilla.tmp" --strip-components=1 ||
		die "cannot extract $tarball"
	# Debian's top-level .gitignore ignores everything ("/*"): add with -f.
	(cd "$src/vanilla.tmp" && gitc init -q && gitc add -f -A . &&
	 GIT_COMMITTER_DATE=2000-01-01T00:00:00Z gitc commit -q --date=2000-01-01T00:00:00Z \
		-m "Linux $(make -s kernelversion) (Debian linux-source-6.12)" &&
	 gitc tag base) || die "cannot put the vanilla tree in git"
	mv "$src/vanilla.tmp" "$src/vanilla"
fi

if [ ! -e "$src/patched/.git" ]; then
	rm -rf "$src/patched"
	gitc -C "$src/vanilla" worktree prune
	gitc -C "$src/vanilla" worktree add -q --detach "$(cd "$src" && pwd)/patched" base ||
		die "cannot make the patched worktree"
fi

series=$(find "$top/patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
	! -name '0000-*' | sort)
[ -n "$series" ] || die "no patches in $top/patches"
say "applying $(echo "$series" | wc -l) patches to $src/patched"
cd "$src/patched"
gitc am --abort >/dev/null 2>&1 || true

# Going back to base and applying the series again rewrites every file
# the series touches, and make rebuilds what depends on a file by its
# time: 0022 changes include/linux/fs.h, so a change to one commit
# message alone would rebuild the whole kernel.  So the times of the
# files the previous series left (as committed, no local change) are
# kept aside, and each file whose content the new series leaves the same
# gets its time back: the build then does only what changed.
stamps=$src/patched-times
rm -rf "$stamps"
old=$(git rev-parse -q --verify HEAD) || old=
if [ -n "$old" ]; then
	git diff --name-only base "$old" -- | while IFS= read -r f; do
		[ -f "$f" ] || continue
		git diff --quiet "$old" -- "$f" || continue
		mkdir -p "$stamps/$(dirname "$f")"
		touch -r "$f" "$stamps/$f"
	done
fi

gitc reset -q --hard base
# shellcheck disable=SC2086
if ! gitc am -q --committer-date-is-author-date $series >"$src/am.log" 2>&1; then
	cat "$src/am.log" >&2
	gitc am --abort >/dev/null 2>&1 || true
	rm -rf "$stamps"
	die "a patch in patches/ does not apply to 6.12 (see above)"
fi
if [ -d "$stamps" ]; then
	kept=$(git diff --name-only base HEAD -- | while IFS= read -r f; do
		[ -f "$stamps/$f" ] || continue
		[ "$(git rev-parse -q --verify "$old:$f")" = \
		  "$(git rev-parse -q --verify "HEAD:$f")" ] || continue
		touch -r "$stamps/$f" "$f" && echo "$f"
	done | wc -l)
	rm -rf "$stamps"
	say "kept the times of $kept unchanged files of the series (an incremental build)"
fi
