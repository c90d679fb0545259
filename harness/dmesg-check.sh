#!/bin/sh
# dmesg-check.sh DMESG KERNEL: print the kernel messages of one boot that
# look like trouble (harness/trouble.pattern and the registry's "trouble"
# lines: the one pattern the harness uses), less those tests/dmesg-expected.txt documents for KERNEL ("any":
# every line of it, for the kernels in between, as bisect-check boots).
# Lines between the guest's "emptylink: expect|allow corruption" markers
# are exempt: the guest reads inodes corrupt on purpose there; with
# "expect" at least one such line must come.  Exits 1 on any problem.
set -eu
. "$(dirname "$0")/lib.sh"

dmesg=$1 kernel=$2
top=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$dmesg" ] || die "no dmesg at $dmesg"
# The generic pattern and each filesystem's own ("trouble" lines of the
# registry), as one extended regex.
pattern=$({ cat "$top/harness/trouble.pattern"
	for fs in $("$top/harness/registry.sh" names); do
		"$top/harness/registry.sh" get "$fs" trouble
	done; } | awk 'NF && !seen[$0]++' | paste -sd '|')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -v k="$kernel" '!/^#/ && NF >= 2 && (k == "any" || $1 == k || $1 == "*") {
	sub(/^[^ \t]+[ \t]+/, ""); print }' "$top/tests/dmesg-expected.txt" \
	>"$tmp/allowed"
# A pattern grep cannot compile would make every grep below "match
# nothing" and so hide every problem: refuse it instead (exit 2).
rc=0
grep -E "$pattern" /dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -le 1 ] || die "harness/trouble.pattern or the registry's trouble lines: $(cat "$tmp/err")"
rc=0
grep -E -f "$tmp/allowed" /dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -le 1 ] || die "tests/dmesg-expected.txt: $(cat "$tmp/err")"

awk '/emptylink: (expect|allow) corruption: begin/ { inside = 1; next }
     /emptylink: (expect|allow) corruption: end/ { inside = 0; next }
     inside { print > "/dev/stderr"; next } { print }' \
	"$dmesg" >"$tmp/outside" 2>"$tmp/inside"
# grep -v -f of an empty allow list passes every line, as it should.
{ grep -E "$pattern" "$tmp/outside" || [ $? -eq 1 ]; } >"$tmp/trouble"
{ grep -E -v -f "$tmp/allowed" "$tmp/trouble" || [ $? -eq 1 ]; } >"$tmp/problems"
if grep -q "emptylink: expect corruption: begin" "$dmesg" &&
	! grep -qE "$pattern" "$tmp/inside"; then
	echo "no corruption report while reading the corrupt-on-purpose image" \
		>>"$tmp/problems"
fi
# A marker that began a window but never ended it would exempt the rest
# of the log.
if [ "$(grep -c 'corruption: begin' "$dmesg")" != "$(grep -c 'corruption: end' "$dmesg")" ]; then
	echo "a corrupt-on-purpose window was opened and never closed" >>"$tmp/problems"
fi
cat "$tmp/problems"
[ ! -s "$tmp/problems" ]
