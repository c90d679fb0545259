#!/bin/sh
# judge-test-dmesg.sh: harness/dmesg-check.sh's own tests, without any
# kernel.  Each line "FILE KERNEL EXIT [TEXT]" of
# tests/judge-data/dmesg/cases.txt runs dmesg-check.sh on the hand-made
# log FILE of that directory as the dmesg of KERNEL (KERNEL "severe":
# dmesg-check.sh --severe FILE); it must exit EXIT
# and print TEXT (a fixed string).  Prints ok or FAILED per fixture,
# then "dmesg fixtures: N passed, M failed"; exits 1 if any failed, and
# keeps the outputs of the run then (named in each FAILED line).  The
# fixtures judge against the real registry, trouble.pattern and
# tests/dmesg-expected.txt: they test those too.
set -eu
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
data=$here/../tests/judge-data/dmesg
[ -f "$data/cases.txt" ] || die "no fixtures at $data/cases.txt"
out=$(mktemp -d)
pass=0 fail=0

# fixture N FILE KERNEL EXIT TEXT: the fixture of line N of cases.txt.
fixture() {
	o=$out/$1-${2%.log}-$3.out
	case "$4" in
	0 | 1 | 2) ;;
	*)	failed "line $1" "not FILE KERNEL EXIT [TEXT]"
		return ;;
	esac
	rc=0
	if [ "$3" = severe ]; then
		"$here/dmesg-check.sh" --severe "$data/$2" </dev/null >"$o" 2>&1 || rc=$?
	else
		"$here/dmesg-check.sh" "$data/$2" "$3" </dev/null >"$o" 2>&1 || rc=$?
	fi
	if [ "$rc" != "$4" ]; then
		failed "$2 $3" "exit $rc, want $4 (output: $o)"
	elif [ -n "$5" ] && ! grep -qF -- "$5" "$o"; then
		failed "$2 $3" "the output lacks \"$5\" (output: $o)"
	else
		pass=$((pass + 1))
		say "dmesg fixture $2 $3: ok"
	fi
}

failed() { # name why
	fail=$((fail + 1))
	say "dmesg fixture $1: FAILED: $2"
}

n=0
while read -r file kernel want text; do
	n=$((n + 1))
	case "$file" in '' | '#'*) continue ;; esac
	fixture "$n" "$file" "${kernel:-}" "${want:-}" "${text:-}"
done <"$data/cases.txt"

echo "dmesg fixtures: $pass passed, $fail failed"
if [ "$fail" -eq 0 ]; then
	rm -rf "$out"
else
	exit 1
fi
