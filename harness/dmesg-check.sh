#!/bin/sh
# dmesg-check.sh DMESG KERNEL: print the kernel messages of one boot that
# are problems; exit 1 if there is any, 2 if the log cannot be judged
# (bad arguments, a pattern grep cannot compile).
# dmesg-check.sh --severe DMESG: the same for the severe reports only.
#
# Trouble is a line that matches harness/trouble.pattern, a "trouble" line
# of any filesystem of the registry, or the severe and corruption words
# below.  A line of trouble is no problem when
#   - tests/dmesg-expected.txt documents it for KERNEL: vanilla, patched
#     and bisect (the kernels in the middle of the series that
#     harness/bisect-check.sh boots) get the lines that name them and the
#     "*" lines; any other name (a kernel of the user's own that
#     run-matrix.sh booted, passed on by report.sh) gets only the "*"
#     lines, since nothing was documented for it;
#   - it comes inside the window the guest opens while it reads an image
#     corrupt on purpose ("emptylink: expect|allow corruption of FS:
#     begin" ... "...: end", harness/guest-init.sh) and is FS's own report
#     of corruption: see exempt() below.  No corrupt image excuses a
#     severe report, so a window never exempts one.
# With "expect", at least one such report must come inside the window.
# A marker without a filesystem the registry knows, a window begun inside
# another, an end that is not the open window's, and a window never
# closed are each a problem: any of them could exempt lines it should not.
set -eu

# Reports of the kernel itself going wrong: trouble wherever they come,
# never exempt inside a window (a dmesg-expected.txt line may still allow
# one, such as vanilla's gfs2 stack dump).
severe='WARNING:|BUG:|Oops|Call Trace|Kernel panic|general protection fault|KASAN|UBSAN|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|blocked for more than|detected stall|soft lockup|hard LOCKUP'
# The words of a corruption report that does not name its filesystem
# (xfs: "First 128 bytes of corrupted metadata buffer:"; EUCLEAN's text).
# A window exempts them besides its filesystem's own trouble lines; keep
# this short, each word is one a window may hide.
corruption='[Cc]orrupt|Structure needs cleaning'

# Exit 2, not die's 1: "cannot judge" is not "the kernel complained".
cannot() {
	printf 'error: %s\n' "$*" >&2
	exit 2
}

# --severe DMESG: only the reports of the kernel itself going wrong, for
# a boot that reads no image of the registry (harness/guest-suites.sh,
# whose suites corrupt images on purpose and say so in their own logs).
if [ "${1:-}" = --severe ] && [ $# -eq 2 ]; then
	[ -f "$2" ] || cannot "no dmesg at $2"
	rc=0
	LC_ALL=C grep -aE "$severe" "$2" || rc=$?
	[ "$rc" -le 1 ] || cannot "$2: grep failed"
	[ "$rc" -eq 1 ] || exit 1
	exit 0
fi
[ $# -eq 2 ] || cannot "usage: dmesg-check.sh DMESG KERNEL | --severe DMESG"
dmesg=$1 kernel=$2
case "$kernel" in
any) cannot "KERNEL 'any' is no more: no kernel gets every line of tests/dmesg-expected.txt (bisect-check passes 'bisect')" ;;
'' | *[!a-z0-9_-]*) cannot "bad KERNEL '$kernel': vanilla, patched, bisect or the name of a kernel run-matrix.sh booted" ;;
esac
[ -f "$dmesg" ] || cannot "no dmesg at $dmesg"
top=$(cd "$(dirname "$0")/.." && pwd)
expected=$top/tests/dmesg-expected.txt
# Bytes, not characters: a serial log may hold bytes that are not UTF-8.
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# compiles FILE WHAT: a pattern grep cannot compile would make its grep
# "match nothing", and so hide every problem or exempt nothing: refuse it.
compiles() {
	rc=0
	grep -E -f "$1" /dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" -le 1 ] || cannot "$2: $(cat "$tmp/err")"
}

# hits TAG FILE: "LINE TAG" for every line of DMESG a regex of FILE matches.
hits() {
	rc=0
	grep -anE -f "$2" "$dmesg" >"$tmp/hits" 2>"$tmp/err" || rc=$?
	[ "$rc" -le 1 ] || cannot "$dmesg: $(cat "$tmp/err")"
	sed "s/:.*/ $1/" "$tmp/hits" >>"$tmp/tags"
}

# Each filesystem's own trouble lines (a blank one would match every line).
names=$("$top/harness/registry.sh" names) || cannot "harness/registry.sh names failed"
[ -n "$names" ] || cannot "the registry lists no filesystems"
mkdir "$tmp/fs"
for fs in $names; do
	: >"$tmp/fs/$fs"
done
"$top/harness/registry.sh" each trouble >"$tmp/each" ||
	cannot "harness/registry.sh each trouble failed"
# One read of the registry, not one per filesystem: a file of each's lines.
awk -v d="$tmp/fs" '{ f = $1; sub(/^[^ ]+ /, ""); if (NF) print > (d "/" f) }' "$tmp/each"
for fs in $names; do
	compiles "$tmp/fs/$fs" "harness/filesystems.txt: the trouble lines of $fs"
done
printf '%s\n' "$severe" >"$tmp/severe"
printf '%s\n' "$corruption" >"$tmp/corruption"
cat "$top/harness/trouble.pattern" "$tmp/severe" "$tmp/corruption" "$tmp/fs"/* |
	awk 'NF && !seen[$0]++' >"$tmp/trouble"
compiles "$tmp/trouble" "harness/trouble.pattern"

# The regexes of tests/dmesg-expected.txt for KERNEL ($tmp/allowed), and
# all of them ($tmp/every, to compile each whichever kernel it is for).
# A KERNEL field that names no known kernel is a typo that would allow
# nothing where it should, or (as "any" once did) everything.
awk -v k="$kernel" -v file="$expected" -v every="$tmp/every" '
	function bad(why) {
		printf "%s:%d: %s\n", file, FNR, why > "/dev/stderr"
		err = 1
	}
	/^[ \t]*#/ || NF == 0 { next }
	NF < 2 { bad("not KERNEL REGEX"); next }
	{
		use = 0
		n = split($1, ks, ",")
		for (i = 1; i <= n; i++) {
			if (ks[i] !~ /^(vanilla|patched|bisect|\*)$/)
				bad("kernel \"" ks[i] "\" is none of vanilla, patched, bisect, *")
			else if (ks[i] == k || ks[i] == "*")
				use = 1
		}
		sub(/^[^ \t]+[ \t]+/, "")
		print > every
		if (use) print
	}
	END { exit err }' "$expected" >"$tmp/allowed" 2>"$tmp/err" ||
	cannot "$(cat "$tmp/err")"
compiles "$tmp/every" "tests/dmesg-expected.txt"

: >"$tmp/tags"
hits trouble "$tmp/trouble"
hits severe "$tmp/severe"
hits corruption "$tmp/corruption"
hits allowed "$tmp/allowed"
for fs in $names; do
	hits "fs=$fs" "$tmp/fs/$fs"
done

# One pass over the log: the windows, and each line of trouble judged by
# its tags.  The problems come in the order of the log (the lines a
# window never closed held, last).
awk -v tags="$tmp/tags" -v known=" $(echo "$names" | tr '\n' ' ') " '
	function problem(line, msg) {
		printf "dmesg line %d: %s\n", line, msg
	}
	# The open window ends: with "expect", its filesystem must have
	# reported corruption inside it.
	function close_window(line) {
		if (mode == "expect" && reports == 0)
			problem(from, "no corruption report of " fs \
				" in its expect window (to line " line ")")
		fs = ""
	}
	# A line of the guest: "emptylink: ..." (after a timestamp, should
	# the kernel print them), nothing before it.
	function marker(   rest, w, name) {
		rest = $0
		sub(/^(\[ *[0-9]+\.[0-9]+\] )?emptylink: /, "", rest)
		sub(/[ \t]+$/, "", rest)
		if (rest !~ /^(expect|allow) corruption of [^ :]+: (begin|end)$/) {
			if (rest ~ /^(expect|allow) corruption( of *)?: (begin|end)$/)
				problem(FNR, "a window marker without a filesystem name: " $0)
			else
				problem(FNR, "a window marker the harness does not know: " $0)
			return
		}
		split(rest, w, " ")
		name = w[4]
		sub(/:$/, "", name)
		if (w[5] == "begin") {
			if (fs != "") {
				problem(FNR, "a window for " name " begins inside the " \
					"window for " fs " (line " from "): nested windows")
				return
			}
			if (index(known, " " name " ") == 0)
				problem(FNR, "a window for " name \
					", a filesystem the registry does not have")
			fs = name
			mode = w[1]
			from = FNR
			reports = nheld = 0
			return
		}
		if (fs == "") {
			problem(FNR, "the end of a window for " name " with no window open")
			return
		}
		if (name != fs || w[1] != mode)
			problem(FNR, "the end of an " w[1] " window for " name \
				" closes the " mode " window for " fs " (line " from ")")
		close_window(FNR)
	}
	# Inside the window of a filesystem the registry knows, that
	# filesystem reporting corruption: a line of one of its own trouble
	# lines, or with a corruption word and claimed by no trouble line of
	# any filesystem (an ext4 error naming corruption belongs to ext4,
	# not to the xfs window it comes in).  Never a severe report.
	function exempt(n) {
		if (fs == "" || index(known, " " fs " ") == 0 || ((n, "severe") in tag))
			return 0
		return ((n, "fs=" fs) in tag) || (((n, "corruption") in tag) && !(n in claimed))
	}
	FILENAME == tags {
		tag[$1, $2] = 1
		if ($2 ~ /^fs=/)
			claimed[$1] = 1
		next
	}
	/^(\[ *[0-9]+\.[0-9]+\] )?emptylink: (expect|allow) corruption/ { marker(); next }
	!((FNR, "trouble") in tag) { next }
	# What the window exempts is held, to be judged after all should the
	# window never close.
	exempt(FNR) {
		reports++
		held[++nheld] = ((FNR, "allowed") in tag) ? "" : $0
		next
	}
	(FNR, "allowed") in tag { next }
	{ print }
	END {
		if (fs != "") {
			problem(from, "the " mode " window for " fs \
				" is never closed: nothing in it is exempt")
			for (i = 1; i <= nheld; i++)
				if (held[i] != "")
					print held[i]
			close_window(FNR)
		}
	}' "$tmp/tags" "$dmesg" >"$tmp/problems"
cat "$tmp/problems"
[ ! -s "$tmp/problems" ]
