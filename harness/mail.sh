#!/bin/sh
# mail.sh TREE PATCHDIR OUT: write the series of PATCHDIR (cover letter
# and patches) to OUT, ready for `git send-email OUT/*.patch`, with To:
# and Cc: headers from TREE's scripts/get_maintainer.pl.  It sends
# nothing.
#
# Each patch: To: the maintainers of the files it touches, Cc: their
# reviewers and lists, and linux-fsdevel, the list the whole series
# belongs to.  The cover letter: To: the VFS maintainers (patch 1's),
# Cc: everyone any patch names, so each maintainer sees why the patch
# addressed to them exists.  A patch whose files have no maintainer
# (fs/minix) goes to the VFS maintainers.  get_maintainer.pl runs without git: the
# release tarball has no history, so neither the authors of the files
# nor those of the commits a Fixes: tag names can be looked up here
# (--nofixes; docs/decisions.md).
set -eu
. "$(dirname "$0")/lib.sh"

tree=$1
dir=$(cd "$2" && pwd)
out=$3
[ -f "$tree/scripts/get_maintainer.pl" ] ||
	die "$tree has no scripts/get_maintainer.pl: not a kernel tree"
[ -f "$dir/0000-cover-letter.patch" ] || die "$dir has no 0000-cover-letter.patch"
list=linux-fsdevel@vger.kernel.org

# who PATCH: get_maintainer.pl's answer for PATCH, one address a line
# with its role: "ADDRESS<tab>to" for a maintainer (M:, whatever the
# section's status), "ADDRESS<tab>cc" for a reviewer or a list.
who() {
	(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
		--nofixes --rolestats --no-subsystem --no-status "$1") >"$tmp/gm" ||
		die "get_maintainer.pl failed on $(basename "$1")"
	awk '{
		# "Name <address> (role:SECTION)" or "list@host (open list:...)"
		if (index($0, ">")) {
			addr = substr($0, 1, index($0, ">"))
		} else {
			addr = $1
		}
		role = substr($0, length(addr) + 1); sub(/^ *\(/, "", role)
		print addr "\t" (role ~ /^(reviewer|open list|moderated list|list|subscriber)/ ? "cc" : "to")
	}' "$tmp/gm"
}

# headers FILE TO CC: FILE with "To: TO" and "Cc: CC" (each a list of
# lines) before its Subject:, folded one address a line.
headers() {
	awk -v to="$2" -v cc="$3" '
		function field(name, l,    n, a, i, s) {
			n = split(l, a, "\n")
			s = ""
			for (i = 1; i <= n; i++)
				if (a[i] != "")
					s = s (s == "" ? name ": " : ",\n    ") a[i]
			if (s != "")
				print s
		}
		!done && /^Subject: / { field("To", to); field("Cc", cc); done = 1 }
		{ print }
		END { if (!done) exit 1 }' "$1"
}

rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/all"
p=$(ls "$dir"/0001-*.patch)
who "$p" | awk -F '\t' '$2 == "to" { print $1 }' >"$tmp/vfs"
[ -s "$tmp/vfs" ] || die "get_maintainer.pl names no maintainer for $p"
n=0
for p in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
	f=$(basename "$p")
	[ "$f" = 0000-cover-letter.patch ] && continue
	who "$p" >"$tmp/who"
	to=$(awk -F '\t' '$2 == "to" { print $1 }' "$tmp/who")
	# A filesystem without a MAINTAINERS entry (minix) goes to the
	# VFS maintainers, as its patches do upstream.
	[ -n "$to" ] || to=$(cat "$tmp/vfs")
	cc=$({ awk -F '\t' '$2 == "cc" { print $1 }' "$tmp/who"; echo "$list"; } |
		awk '!seen[$0]++')
	printf '%s\n%s\n' "$to" "$cc" >>"$tmp/all"
	headers "$p" "$to" "$cc" >"$out/$f" || die "$f has no Subject: line"
	n=$((n + 1))
done
# Once each, by address: MAINTAINERS spells some names two ways.
cc=$(cat "$tmp/vfs" "$tmp/all" | awk '
	{ a = tolower($0); sub(/^.*</, "", a); sub(/>.*$/, "", a) }
	!seen[a]++ && NR > vfs' vfs="$(wc -l <"$tmp/vfs")")
headers "$dir/0000-cover-letter.patch" "$(cat "$tmp/vfs")" "$cc" \
	>"$out/0000-cover-letter.patch" || die "the cover letter has no Subject: line"
say "mail: cover letter and $n patches in $out, for git send-email; nothing sent"
