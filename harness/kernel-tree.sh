#!/bin/sh
# kernel-tree.sh SRC: make the two kernel trees under SRC (an ignored build
# folder), never in the repository.
#   SRC/vanilla  Debian's linux-source-6.12 as shipped, in git (tag "base")
#   SRC/patched  a git worktree of it with patches/0*.patch applied by git am
# Re-running re-applies the series onto base; git rewrites only the files
# that differ, so the next kernel build stays incremental.
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
gitc reset -q --hard base
# shellcheck disable=SC2086
if ! gitc am -q --committer-date-is-author-date $series >"$src/am.log" 2>&1; then
	cat "$src/am.log" >&2
	gitc am --abort >/dev/null 2>&1 || true
	die "a patch in patches/ does not apply to 6.12 (see above)"
fi
