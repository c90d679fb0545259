#!/bin/sh
# dmesg-check.sh DMESG KERNEL: print the kernel messages of one boot that
# look like trouble (harness/trouble.pattern, the one pattern the harness
# uses), less those tests/dmesg-expected.txt documents for KERNEL ("any":
# every line of it, for the kernels in between, as bisect-check boots).
# Lines between the guest's "emptylink: expect|allow corruption" markers
# are exempt: the guest reads inodes corrupt on purpose there; with
# "expect" at least one such line must come.  Exits 1 on any problem.
set -eu
. "$(dirname "$0")/lib.sh"

dmesg=$1 kernel=$2
top=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$dmesg" ] || die "no dmesg at $dmesg"
pattern=$(cat "$top/harness/trouble.pattern")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -v k="$kernel" '!/^#/ && NF >= 2 && (k == "any" || $1 == k || $1 == "*") {
	sub(/^[^ \t]+[ \t]+/, ""); print }' "$top/tests/dmesg-expected.txt" \
	>"$tmp/allowed"
# An empty allow list must allow nothing (grep -f of an empty file
# matches nothing, which is what we want with -v).
awk '/emptylink: (expect|allow) corruption: begin/ { inside = 1; next }
     /emptylink: (expect|allow) corruption: end/ { inside = 0; next }
     inside { print > "/dev/stderr"; next } { print }' \
	"$dmesg" 2>"$tmp/inside" | grep -E "$pattern" |
	grep -E -v -f "$tmp/allowed" >"$tmp/problems" || true
if grep -q "emptylink: expect corruption: begin" "$dmesg" &&
	! grep -qE "$pattern" "$tmp/inside"; then
	echo "no corruption report while reading the corrupt-on-purpose image" \
		>>"$tmp/problems"
fi
cat "$tmp/problems"
[ ! -s "$tmp/problems" ]
