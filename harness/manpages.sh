#!/bin/sh
# manpages.sh OUT: apply patches/manpages/ to Debian's manpages source
# (apt-get source, into OUT/manpages) and check every page they change:
# man-db's `man -l` and groff with all warnings must print nothing, the
# project's own lint (lint-man-groff, lint-man-tbl, lint-man-mandoc)
# must pass, and each page must say what tests/manpages-expected.txt
# says it says (so a patch that renders nothing new fails).
#
# Where the mirror has the upstream tarball but not Debian's part
# (seen here: manpages_6.03-2.debian.tar.xz answered 404), the upstream
# tarball is used, checked against the .dsc's SHA-256, provided that
# every page the patches touch is byte for byte the one the installed
# manpages package ships: Debian's patches do not touch them then.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$1"
out=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
expected=$top/tests/manpages-expected.txt
src=$out/manpages
dl=$out/dl-manpages
patches=$(find "$top/patches/manpages" -name '*.patch' | sort)
[ -n "$patches" ] || die "patches/manpages/ holds no patch"

# The pages the patches change, as paths in the source (man2/symlink.2).
# shellcheck disable=SC2086
pages=$(sed -n 's|^+++ b/||p' $patches | sort -u)

# Every page the expectations name must be one the patches change.
awk -F '\t' '!/^#/ && NF { print $1 }' "$expected" | sort -u | while read -r want; do
	printf '%s\n' "$pages" | grep -q "/$want\$" ||
		die "tests/manpages-expected.txt names $want, which no patch in patches/manpages changes"
done

if [ ! -f "$src/.emptylink-unpacked" ]; then
	rm -rf "$src" "$dl"
	mkdir -p "$dl"
	"$(dirname "$0")/deb-src.sh" manpages
	say "manpages: apt-get source manpages"
	(cd "$dl" && bounded "$TOOL_TIMEOUT" apt-get source -q manpages \
		>"$out/manpages.source.log" 2>&1) || true
	dir=$(find "$dl" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	if [ -z "$dir" ]; then
		dsc=$(find "$dl" -name 'manpages_*.dsc' | head -n 1)
		orig=$(find "$dl" -name 'manpages_*.orig.tar.*' | head -n 1)
		if [ -z "$dsc" ] || [ -z "$orig" ]; then
			die "apt-get source manpages fetched no source, see $out/manpages.source.log"
		fi
		sum=$(sha256sum "$orig" | cut -d' ' -f1)
		grep -q "^ $sum [0-9]* $(basename "$orig")\$" "$dsc" ||
			die "$(basename "$orig") does not match the SHA-256 in $(basename "$dsc")"
		say "manpages: Debian's part is missing on the mirror; using the upstream tarball"
		mkdir -p "$dl/orig"
		tar -xf "$orig" -C "$dl/orig"
		dir=$(find "$dl/orig" -mindepth 1 -maxdepth 1 -type d | head -n 1)
		[ -n "$dir" ] || die "$(basename "$orig") unpacked nothing"
		for pg in $pages; do
			inst=/usr/share/man/${pg%/*}/${pg##*/}.gz
			[ -f "$inst" ] ||
				die "$inst is missing: install Debian's manpages package"
			zcat "$inst" | cmp -s - "$dir/$pg" ||
				die "$pg in the upstream tarball is not the page Debian installs ($inst): Debian's source is needed"
		done
	fi
	mv "$dir" "$src"
	touch "$src/.emptylink-unpacked"
fi

# Each run starts from the source as unpacked: the pages, from the copy
# kept beside them.
for pg in $pages; do
	if [ -f "$src/$pg.orig-emptylink" ]; then
		cp "$src/$pg.orig-emptylink" "$src/$pg"
	else
		cp "$src/$pg" "$src/$pg.orig-emptylink"
	fi
done
for p in $patches; do
	(cd "$src" && patch -s -p1 --no-backup-if-mismatch <"$p") >"$out/manpages.patch.log" 2>&1 || {
		cat "$out/manpages.patch.log" >&2
		die "$(basename "$p") does not apply to Debian's manpages"
	}
done

status=0
for pg in $pages; do
	# man-db passes --warnings=w on to groff: every warning groff has.
	warn=$(cd "$src" && LC_ALL=C.UTF-8 MANWIDTH=80 \
		man --warnings=w --nh --nj -l "$pg" 2>&1 >"$out/${pg##*/}.txt") || warn="${warn:-man -l failed}"
	warn=$warn$(groff -man -ww -z "$src/$pg" 2>&1)
	if [ -n "$warn" ]; then
		say "manpages: $pg: warnings:"
		printf '%s\n' "$warn" | sed 's/^/    /'
		status=1
		continue
	fi
	# PAGE<tab>TEXT: the rendered page must contain TEXT (spaces
	# squeezed, so that justification and line breaks do not matter).
	missing=$(awk -F '\t' -v pg="${pg##*/}" '$1 == pg { print $2 }' "$expected" |
		while IFS= read -r want; do
			tr -s ' \n' '  ' <"$out/${pg##*/}.txt" | grep -qF -- "$want" ||
				printf '%s\n' "$want"
		done)
	awk -F '\t' -v pg="${pg##*/}" '$1 == pg { n++ } END { exit n == 0 }' "$expected" ||
		missing="(no line for this page in tests/manpages-expected.txt)"
	if [ -n "$missing" ]; then
		say "manpages: $pg: the rendered page lacks:"
		printf '%s\n' "$missing" | sed 's/^/    /'
		status=1
	else
		say "manpages: $pg: renders without warnings and says what it should"
	fi
done

# The project's own checks, on the changed pages.
lint="lint-man-groff lint-man-tbl lint-man-mandoc"
# shellcheck disable=SC2086
if ! (cd "$src" && LC_ALL=C.UTF-8 make -s $lint \
	LINTMAN="$(printf './%s ' $pages)") >"$out/manpages.lint.log" 2>&1; then
	say "manpages: make $lint failed:"
	sed 's/^/    /' "$out/manpages.lint.log"
	status=1
fi
[ "$status" -eq 0 ] || die "the patched man pages have problems (above)"
say "manpages: $(echo "$pages" | wc -l) pages pass man -l, groff -ww and make $lint"
