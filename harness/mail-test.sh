#!/bin/sh
# mail-test.sh TREE: make mail's output (harness/mail.sh on patches/),
# checked without trusting get_maintainer.pl:
#   - every file of patches/ is there, and is the same file once its To:
#     and Cc: headers are taken out;
#   - each patch's To: holds every maintainer (M:) of the MAINTAINERS
#     section its subject prefix names (tests/mail-sections.txt);
#   - the cover letter goes to the VFS maintainers, with everyone any
#     patch is addressed to in To: or Cc:;
#   - git send-email --dry-run reads every file and would send it;
#   - checkpatch --strict still passes on the outgoing patches.
set -eu
. "$(dirname "$0")/lib.sh"

tree=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
sections=$top/tests/mail-sections.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/outgoing
"$here/mail.sh" "$tree" "$top/patches" "$out" >/dev/null

fail=0
bad() {
	printf 'mail-test: %s\n' "$*" >&2
	fail=1
}

# addrs FIELD FILE: the addresses of header FIELD (To or Cc), lower
# case, one a line.
addrs() {
	awk -v f="$1:" '
		/^$/ { exit }
		/^[^ \t]/ { on = ($1 == f) }
		on { print }' "$2" |
		grep -o '[^<>, 	]*@[^<>, 	]*' | tr '[:upper:]' '[:lower:]' | sort -u
}

# maint SECTION: the M: addresses of a MAINTAINERS section.
maint() {
	awk -v s="$1" '
		$0 == s { on = 1; next }
		on && /^$/ { exit }
		on && /^M:/ { print }' "$tree/MAINTAINERS" |
		grep -o '[^<> 	]*@[^<> 	]*' | tr '[:upper:]' '[:lower:]' | sort -u
}

n=0
for p in "$top"/patches/[0-9][0-9][0-9][0-9]-*.patch; do
	f=$(basename "$p")
	o=$out/$f
	[ -f "$o" ] || { bad "$f: not written"; continue; }
	n=$((n + 1))
	# The headers mail.sh adds, folded lines included, and nothing else.
	awk '/^$/ { body = 1 } !body && /^(To|Cc): / { skip = 1; next }
		!body && skip && /^[ \t]/ { next } { skip = 0; print }' "$o" |
		cmp -s - "$p" || bad "$f: differs from patches/$f beyond To: and Cc:"
	addrs To "$o" >"$tmp/to"
	[ -s "$tmp/to" ] || bad "$f: no To: address"
	[ "$f" = 0000-cover-letter.patch ] && continue
	subj=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$p")
	prefix=${subj%%:*}
	section=$(awk -F '\t' -v p="$prefix" '!/^#/ && $1 == p { print $2 }' "$sections")
	if [ -z "$section" ]; then
		bad "$f: subject prefix '$prefix' has no line in tests/mail-sections.txt"
		continue
	fi
	maint "$section" >"$tmp/want"
	[ -s "$tmp/want" ] || bad "$f: MAINTAINERS has no M: in section '$section'"
	missing=$(comm -23 "$tmp/want" "$tmp/to")
	[ -z "$missing" ] || bad "$f: To: lacks the $section maintainers:" "$(printf '%s\n' "$missing" | tr '\n' ' ')"
	{ addrs To "$o"; addrs Cc "$o"; } >>"$tmp/everyone"
done
[ "$(find "$out" -name '*.patch' | wc -l)" -eq "$n" ] ||
	bad "mail.sh wrote files that patches/ does not have"

cover=$out/0000-cover-letter.patch
maint "FILESYSTEMS (VFS and infrastructure)" >"$tmp/vfs"
addrs To "$cover" >"$tmp/cto"
cmp -s "$tmp/vfs" "$tmp/cto" || bad "the cover letter's To: is not the VFS maintainers"
{ addrs To "$cover"; addrs Cc "$cover"; } | sort -u >"$tmp/call"
missing=$(sort -u "$tmp/everyone" | comm -23 - "$tmp/call")
[ -z "$missing" ] || bad "the cover letter does not reach:" "$(printf '%s\n' "$missing" | tr '\n' ' ')"

# git send-email parses each file as it would send it (nothing is sent).
# shellcheck disable=SC2046
if ! (cd "$tree" && bounded "$TOOL_TIMEOUT" git send-email --dry-run --confirm=never \
	--no-annotate --suppress-cc=self --from="Harness <harness@example.invalid>" \
	$(find "$out" -name '*.patch' | sort)) >"$tmp/send.log" 2>&1; then
	sed 's/^/    /' "$tmp/send.log" >&2
	bad "git send-email --dry-run failed"
fi
ok=$(grep -c '^Result: OK' "$tmp/send.log" || true)
[ "$ok" -eq "$n" ] || bad "git send-email --dry-run accepted $ok of $n mails"

"$here/checkpatch.sh" "$tree" "$out" >"$tmp/checkpatch.log" 2>&1 || {
	sed 's/^/    /' "$tmp/checkpatch.log" >&2
	bad "checkpatch --strict fails on the outgoing patches"
}
[ "$fail" -eq 0 ] || die "make mail's output is wrong (above)"
say "mail-test: $n mails, each to its maintainers; send-email --dry-run and checkpatch accept them"
