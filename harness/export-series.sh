#!/bin/sh
# export-series.sh TREE: write the commits of TREE on top of its "base" tag
# to patches/ as git format-patch files, with the cover letter's subject
# and text taken from docs/cover-letter.txt (first line: the subject).
# Used when a developer has changed the series in build/src/patched.
set -eu
. "$(dirname "$0")/lib.sh"

tree=$1
top=$(cd "$(dirname "$0")/.." && pwd)
blurb=$top/docs/cover-letter.txt
[ -f "$blurb" ] || die "$blurb is missing"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$tree" format-patch -q --zero-commit --no-signature --cover-letter \
	-o "$tmp" base..HEAD || die "git format-patch failed in $tree"
subject=$(head -n 1 "$blurb")
awk -v subject="$subject" -v blurbfile="$blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		getline l < blurbfile	# the subject line
		while ((getline l < blurbfile) > 0)
			print l
		next
	}
	{ print }' "$tmp/0000-cover-letter.patch" >"$tmp/cover" &&
	mv "$tmp/cover" "$tmp/0000-cover-letter.patch"
# Drop the date line of the cover letter: it changes on every export.
sed -i '/^Date: /d' "$tmp/0000-cover-letter.patch"
rm -f "$top"/patches/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$top/patches/"
say "series: $(find "$top/patches" -maxdepth 1 -name '[0-9]*.patch' | wc -l) files in patches/"
