#!/bin/sh
# checkpatch-test.sh TREE: harness/checkpatch.sh must fail a patch whose
# Fixes: tag is not a row of docs/fixes-tags.md (checkpatch.pl cannot
# check the id here: it ignores UNKNOWN_COMMIT_ID), and pass it again
# once the tag is the one the table has.  No build, no boot.
set -eu
. "$(dirname "$0")/lib.sh"

tree=$1
top=$(cd "$(dirname "$0")/.." && pwd)
src=$(grep -l '^Fixes: ' "$top"/patches/0[0-9][0-9][0-9]-*.patch | head -n 1)
[ -n "$src" ] || die "no patch of the series has a Fixes: tag to test with"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The same patch with the tag's id one digit off: a typo the table
# would not show.
tag=$(sed -n 's/^Fixes: \([0-9a-f]*\) .*/\1/p' "$src" | head -n 1)
bad=$(printf '%s' "$tag" | sed 's/.$//')$(printf '%s' "$tag" | sed 's/.*\(.\)$/\1/' | tr 0-9a-f 1-9a-f0)
sed "s/^Fixes: $tag /Fixes: $bad /" "$src" >"$work/0001-test.patch"
grep -q "^Fixes: $bad " "$work/0001-test.patch" || die "could not change the Fixes: tag of $src"
if out=$("$top/harness/checkpatch.sh" "$tree" "$work" 2>&1); then
	printf '%s\n' "$out"
	die "checkpatch.sh passed a Fixes: tag ($bad) that docs/fixes-tags.md does not have"
fi
printf '%s\n' "$out" | grep -qF "Fixes: $bad " ||
	die "checkpatch.sh failed, but not for the Fixes: tag: $out"
cp "$src" "$work/0001-test.patch"
"$top/harness/checkpatch.sh" "$tree" "$work" >/dev/null ||
	die "checkpatch.sh failed $(basename "$src") as it is"
say "checkpatch-test: a Fixes: tag not in docs/fixes-tags.md fails ($bad for $tag), the real one passes"
