#!/bin/sh
# checkpatch.sh TREE PATCHDIR: scripts/checkpatch.pl --strict on every
# kernel patch of the series (not the cover letter); fails on any error,
# warning or check.
set -eu
. "$(dirname "$0")/lib.sh"

tree=$1
dir=$(cd "$2" && pwd)
fixes=$(cd "$(dirname "$0")/.." && pwd)/docs/fixes-tags.md
status=0
for p in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
	case "$p" in */0000-cover-letter.patch) continue ;; esac
	# The tree is a release tarball without upstream history, so a
	# Fixes: tag's commit cannot be looked up here: checkpatch's
	# "Unknown commit id" is ignored, and instead every Fixes: tag must
	# be a row of docs/fixes-tags.md, id and subject as in the patch,
	# with how it was checked.  ntfs3 names its on-disk fields as
	# Microsoft's documents do (SubstituteNameLength, ...): a patch that
	# only touches fs/ntfs3 cannot avoid CamelCase.
	unchecked=$(grep '^Fixes: ' "$p" | while read -r _ tag; do
		grep -qF "| $tag |" "$fixes" ||
			printf 'Fixes: %s is not in docs/fixes-tags.md\n' "$tag"
	done)
	ignore=UNKNOWN_COMMIT_ID
	if ! grep '^+++ b/' "$p" | grep -qv '^+++ b/fs/ntfs3/'; then
		ignore=$ignore,CAMELCASE
	fi
	# A selftest skips where a system call is missing, and says so by
	# ENOSYS, which checkpatch flags on any line of C that names it.
	if ! grep '^+++ b/' "$p" | grep -qv '^+++ b/tools/testing/selftests/\|^+++ b/MAINTAINERS$'; then
		ignore=$ignore,ENOSYS
	fi
	# Debian's python3 first: scripts/spdxcheck.py, which checkpatch
	# runs on new files, needs its python3-ply and python3-git (another
	# python3 may come first on PATH, pyenv's here).
	out=$(cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		--terse --no-summary --ignore "$ignore" "$p") ||
		out=${out:-"checkpatch.pl failed"}
	out=$(printf '%s\n%s\n' "$unchecked" "$out" | sed '/^$/d')
	if [ -z "$out" ]; then
		say "checkpatch: $(basename "$p"): clean"
	else
		status=1
		say "checkpatch: $(basename "$p"):"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
done
[ "$status" -eq 0 ] || die "checkpatch --strict reported problems"
