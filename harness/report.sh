#!/bin/sh
# report.sh RESULTS TESTBIN: judge one run, on the host only; re-judging
# an archived run is the same call (make rejudge RESULTS=...).
#   - per boot: how it ended (verdict) and what its dmesg shows
#     (harness/dmesg-check.sh);
#   - every result, the guest's and the host's fsck, against the cases'
#     answers and tests/expected.txt: TESTBIN judge writes
#     RESULTS/judged.ktap, with a plan from the registry of every result
#     the run must have;
#   - the tree's own KTAP parser (tools/testing/kunit/kunit.py parse)
#     must read every KTAP file of the run;
#   - the matrix (RESULTS/matrix.txt, RESULTS/junit.xml).
# EXPECTED names another expectations file, STRICT_RULES=1 fails on
# unused rules in any run (both for the harness's self-tests).
# Reads no disk image: a run whose disks were deleted after judging
# (clean-results.sh disks) is judged again the same.
# Exits 1 if a boot did not complete, dmesg shows an unexpected problem,
# a result is unexpected or missing, a rule of tests/expected.txt is
# unused in a full run, or a KTAP file cannot be parsed.
set -eu
. "$(dirname "$0")/lib.sh"

res=$1 testbin=$2
here=$(cd "$(dirname "$0")" && pwd)
# Absolute: kunit.py changes into the kernel tree before it reads a file.
[ -d "$res" ] || die "no results at $res"
res=$(cd "$res" && pwd)
top=$(cd "$here/.." && pwd)
kunit=${KUNIT:-$top/build/src/vanilla/tools/testing/kunit/kunit.py}
expected=${EXPECTED:-$top/tests/expected.txt}
[ -d "$res" ] || die "no results at $res"
if [ ! -f "$res/kernels" ] || [ ! -f "$res/filesystems" ]; then
	die "$res is not the results of a run (no kernels or filesystems file)"
fi
[ -x "$testbin" ] || die "no test program at $testbin (make builds it)"
[ -f "$kunit" ] || die "no KTAP parser at $kunit (make trees extracts it)"
kernels=$(cat "$res/kernels")
fslist=$(cat "$res/filesystems")
status=0

judge_boot() { # kernel dir name
	v=$(cat "$2/verdict" 2>/dev/null || echo "missing: no verdict in $2")
	say "kernel $1, $3 boot ($(cat "$2/accel" 2>/dev/null || echo '?')): $v"
	case "$v" in
	completed:*) ;;
	*)	status=1
		say "  console log: $2/console.log" ;;
	esac
	[ -f "$2/dmesg.log" ] || return 0
	if ! "$here/dmesg-check.sh" "$2/dmesg.log" "$1" >"$2/dmesg-problems"; then
		status=1
		say "kernel $1: unexpected kernel messages (all in $2/dmesg.log):"
		head -n 10 "$2/dmesg-problems" | sed 's/^/    /'
	fi
}

: >"$res/plan"
set --
for k in $kernels; do
	judge_boot "$k" "$res/$k" main
	[ -d "$res/$k/recover" ] && judge_boot "$k" "$res/$k/recover" recovery
	# shellcheck disable=SC2086
	"$here/registry.sh" plan "$k" $fslist >>"$res/plan"
	for f in "$res/$k/ktap.log" "$res/$k/recover/ktap.log" "$res/$k/fsck.ktap"; do
		[ -s "$f" ] && set -- "$@" "$k=$f"
	done
done

# Unused or shadowed rules fail only a run of every kernel and
# filesystem; a subset leaves rules unused by design.
strict=--strict-rules
for k in vanilla patched; do
	case " $kernels " in *" $k "*) ;; *) strict= ;; esac
done
for fs in $("$here/registry.sh" names); do
	case " $fslist " in *" $fs "*) ;; *) strict= ;; esac
done
[ "${STRICT_RULES:-}" = 1 ] && strict=--strict-rules

echo
"$testbin" judge --expect "$expected" \
	--registry "$here/filesystems.txt" --plan "$res/plan" $strict "$@" \
	>"$res/judged.ktap" 2>"$res/judge.err" || status=1
cat "$res/judge.err"

# The tree's parser must read every KTAP document; its verdict on the
# tests is not asked (the judge made it), only whether it could read.
# It runs under timeout(1), for TOOL_TIMEOUT seconds (harness/lib.sh).
for f in "$res/judged.ktap" "$@"; do
	f=${f#*=}
	# A document of no tests (the host's fsck of a run whose columns
	# have no host suite) is valid KTAP, which kunit.py calls an error.
	if [ "$(cat "$f")" = "$(printf 'KTAP version 1\n1..0')" ]; then
		continue
	fi
	rc=0
	bounded "$TOOL_TIMEOUT" python3 "$kunit" parse "$f" </dev/null \
		>"$f.kunit" 2>&1 || rc=$?
	if [ "$rc" -eq 124 ]; then
		status=1
		say "kunit.py parse timed out on $f (killed after ${TOOL_TIMEOUT}s; its output: $f.kunit)"
	elif grep -q 'ERROR' "$f.kunit" || ! grep -q 'Testing complete' "$f.kunit"; then
		status=1
		say "kunit.py parse cannot read $f (its output: $f.kunit):"
		grep -E 'ERROR|Error|Traceback' "$f.kunit" | head -n 5 | sed 's/^/    /'
	fi
done

# A set-up step that failed must show as broken:STEP in a suite of its
# filesystem; one that failed after its group's last suite (an unmount,
# the crash set-up) shows nowhere else, so it fails the run here.
for k in $kernels; do
	for f in "$res/$k/ktap.log" "$res/$k/recover/ktap.log"; do
		[ -f "$f" ] || continue
		sed -n 's/^# \([^ ]*\): step \([^ ]*\) failed: \(.*\)/\1 \2 \3/p' "$f" |
		while read -r group step why; do
			fs=${group%_*}
			if ! awk -v s="    # Subtest: $k.$fs." -v b="observed=broken:$step" '
				index($0, s) == 1 { inside = 1; next }
				/^    # Subtest: / { inside = 0 }
				inside && index($0, b) { found = 1 }
				END { exit !found }' "$res/judged.ktap"; then
				echo "kernel $k: step $step of $group failed and no result shows it: $why"
			fi
		done
	done
done >"$res/step-problems"
if [ -s "$res/step-problems" ]; then
	status=1
	sed 's/^/    /' "$res/step-problems"
fi

awk -v junit="$res/junit.xml" -f "$here/matrix.awk" "$res/judged.ktap" \
	>"$res/matrix.txt" || status=1
cat "$res/matrix.txt"
echo "results: $res"
exit "$status"
