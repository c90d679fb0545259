#!/bin/sh
# report.sh RESULTS KERNEL...: judge one run.  For each kernel: how the boot
# ended (RESULTS/KERNEL/verdict) and what dmesg shows; then the matrix of
# all kernels (RESULTS/matrix.txt, RESULTS/junit.xml).  Exits 1 if any boot
# did not complete, dmesg shows an unexpected problem, or a case is
# unexpected.
set -eu
. "$(dirname "$0")/lib.sh"

res=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
problems='WARNING:|BUG:|Oops|Call Trace|Kernel panic|[Cc]orrupt|Structure needs cleaning|EXT4-fs error|BTRFS (error|critical|warning)|XFS .*(Internal error|Shutting down|Metadata)'
status=0
args=

# One boot: its verdict and its kernel messages.
judge_boot() { # kernel dir name
	bk=$1 bd=$2 bname=$3
	v=$(cat "$bd/verdict")
	say "kernel $bk, $bname boot ($(cat "$bd/accel" 2>/dev/null || echo '?')): $v"
	case "$v" in
	completed:*) ;;
	*)	status=1
		say "  console log: $bd/console.log" ;;
	esac
	# dmesg lines that look like trouble, less those documented for that kernel.
	awk -v k="$bk" '!/^#/ && NF >= 2 && ($1 == k || $1 == "*") {
		sub(/^[^ \t]+[ \t]+/, ""); print }' \
		"$top/tests/dmesg-expected.txt" >"$bd/dmesg-allowed"
	# Corruption reports are expected between the guest's markers, where
	# it reads inodes that are corrupt on purpose; there must be some.
	awk '/emptylink: (expect|allow) corruption: begin/ { inside = 1; next }
	     /emptylink: (expect|allow) corruption: end/ { inside = 0; next }
	     inside { print > "/dev/stderr"; next } { print }' \
		"$bd/dmesg.log" 2>"$bd/dmesg-expected-corruption" |
		grep -E "$problems" | grep -E -v -f "$bd/dmesg-allowed" \
		>"$bd/dmesg-problems" || true
	if grep -q "emptylink: expect corruption: begin" "$bd/dmesg.log" &&
	   ! grep -q 'Metadata corruption detected' "$bd/dmesg-expected-corruption"; then
		echo "no corruption report while reading the corrupt-on-purpose image" \
			>>"$bd/dmesg-problems"
	fi
	if [ -s "$bd/dmesg-problems" ]; then
		status=1
		say "kernel $bk: unexpected kernel messages (all in $bd/dmesg.log):"
		head -n 10 "$bd/dmesg-problems" | sed 's/^/    /'
	fi
	args="$args kernel=$bk $bd/ktap.log"
}

for k in "$@"; do
	d=$res/$k
	[ -f "$d/verdict" ] || die "no boot result in $d (was the $k kernel booted?)"
	judge_boot "$k" "$d" main
	[ -f "$d/recover/verdict" ] && judge_boot "$k" "$d/recover" recovery
	[ -s "$d/fsck.ktap" ] && args="$args kernel=$k $d/fsck.ktap"
done

echo
# shellcheck disable=SC2086
awk -v junit="$res/junit.xml" -f "$top/harness/matrix.awk" $args \
	>"$res/matrix.txt" || status=1
cat "$res/matrix.txt"
echo "results: $res"
exit "$status"
