#!/bin/sh
# selftest.sh BZIMAGE INITRD TESTBIN OUTDIR: prove the harness reports
# each way a run can go wrong as what it is.  Each check provokes one
# failure on purpose and asserts the harness's verdict and exit status.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 testbin=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
accel=$("$here/accel.sh" "$kernel")
pass=0 fail=0
rm -rf "$out"
mkdir -p "$out"

check() { # name, then a command that must succeed
	name=$1
	shift
	if "$@" >"$out/$name.out" 2>&1; then
		pass=$((pass + 1))
		say "selftest $name: ok"
	else
		fail=$((fail + 1))
		say "selftest $name: FAILED (output in $out/$name.out)"
	fi
}

boot() { # dir limit cmdline [kernel]
	"$here/qemu-boot.sh" "${4:-$kernel}" "$initrd" "$out/$1" "$accel" "$2" \
		"emptylink.kernel=patched emptylink.fs=tmpfs $3"
}

verdict_is() { # dir word
	grep -q "^$2:" "$out/$1/verdict" || { cat "$out/$1/verdict"; return 1; }
}

# A run of the patched kernel on tmpfs whose first case claims a wrong
# answer (emptylink.selftest=fail); the later checks re-judge it.
fail_run() {
	[ -f "$out/fail/patched/verdict" ] && return 0
	mkdir -p "$out/fail"
	echo patched >"$out/fail/kernels"
	echo tmpfs >"$out/fail/filesystems"
	boot fail/patched 300 emptylink.selftest=fail || true
}

# A case whose answer is wrong completes the boot but fails the
# report, and the report names that case.
failing_case() {
	fail_run
	verdict_is fail/patched completed || return 1
	if "$here/report.sh" "$out/fail" "$testbin"; then
		echo "report.sh passed a run with a failing case"
		return 1
	fi
	grep -q 'selftest.must_fail: observed ENOENT, expected ok' "$out/fail/matrix.txt"
}

# The same run judged again with a rule no cell can match, and one that
# an earlier rule always decides first: the judge names both lines.
unused_rules() {
	fail_run
	x=$out/expected-unused.txt
	cp "$top/tests/expected.txt" "$x"
	echo "patched tmpfs scratch no.such_case ok selftest: matches nothing" >>"$x"
	unused=$(wc -l <"$x")
	echo "patched tmpfs scratch self.xfs_scrub SKIP selftest: shadowed" >>"$x"
	shadowed=$(wc -l <"$x")
	if EXPECTED=$x STRICT_RULES=1 "$here/report.sh" "$out/fail" "$testbin"; then
		echo "report.sh passed a run with an unused and a shadowed rule"
		return 1
	fi
	grep -q "expected-unused.txt:$unused: rule matches nothing" "$out/fail/judge.err" &&
		grep -q "expected-unused.txt:$shadowed: rule is shadowed by line" \
			"$out/fail/judge.err"
}

# A filesystem the run was to cover but has no result for: every result
# the registry says it must have is reported missing.
missing_results() {
	fail_run
	cp -r "$out/fail" "$out/missing"
	echo "tmpfs ext4" >"$out/missing/filesystems"
	if "$here/report.sh" "$out/missing" "$testbin"; then
		echo "report.sh passed a run with missing results"
		return 1
	fi
	grep -q 'patched.ext4.scratch # no result' "$out/missing/judged.ktap"
}

# A patched checker that was not built is a failing cell, not a row
# that silently disappears.
missing_checker() {
	"$here/disks.sh" prepare "$out/nochecker" "$out" ext4_inline >/dev/null
	PROGS=$out/no-such-progs "$here/disks.sh" fsck "$out/nochecker" \
		"$testbin" ext4_inline >"$out/nochecker/fsck.ktap"
	grep -q 'observed=missing:' "$out/nochecker/fsck.ktap"
}

# init exits: the kernel panics; the run must say "panic", not pass.
panicking_guest() {
	! boot panic 120 emptylink.selftest=panic && verdict_is panic panic
}

# init never ends: the host's limit stops QEMU and says "timeout".
hanging_guest() {
	! boot hang 20 emptylink.selftest=hang && verdict_is hang timeout
}

# Not a kernel at all: QEMU cannot boot it.
unbootable_kernel() {
	printf 'not a kernel\n' >"$out/garbage.bzImage"
	! boot garbage 60 "" "$out/garbage.bzImage" && verdict_is garbage boot-failed
}

# A wrong path is refused with a message before QEMU starts.
missing_kernel() {
	! boot missing 60 "" "$out/no-such-bzImage" 2>"$out/missing.err" &&
		grep -q 'no kernel image at' "$out/missing.err"
}

# An unknown filesystem in FS is refused by name before anything boots.
unknown_filesystem() {
	! "$here/run-matrix.sh" "$out/unknown" "$initrd" "$out" "$testbin" \
		"tmpfs nosuchfs" patched 2>"$out/unknown.err" &&
		grep -q "unknown filesystem 'nosuchfs'" "$out/unknown.err"
}

# A missing prebuilt image is named, not skipped.
missing_image() {
	! "$here/disks.sh" prepare "$out/noimg" "$out/no-such-dir" ext4 \
		2>"$out/noimg.err" >/dev/null &&
		grep -q 'no prebuilt image of ext4 at' "$out/noimg.err"
}

check failing_case failing_case
check unused_rules unused_rules
check missing_results missing_results
check missing_checker missing_checker
check panicking_guest panicking_guest
check hanging_guest hanging_guest
check unbootable_kernel unbootable_kernel
check missing_kernel missing_kernel
check unknown_filesystem unknown_filesystem
check missing_image missing_image
echo "selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
