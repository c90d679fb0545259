# Sourced by harness/progs-suite.sh: e2fsprogs' own test suite, its
# make check (tests/NAME/, one directory per test; the suite leaves
# NAME.ok or NAME.failed, and prints "NAME: ...: skipped" for a skip).
# shellcheck shell=sh disable=SC2154 # jobs, set by progs-suite.sh

# The tests a list of changed paths (stdin) touches.
suite_test_names() {
	sed -n 's;^tests/\([a-z]_[^/]*\)/.*;\1;p'
}

suite_test_path() { # test
	echo "tests/$1"
}

# In the worktree: configure and build, out of tree (build/).  For the
# new tests, what they run (e2fsck, debugfs, mke2fs) and the runner only;
# make check builds the rest.
# (Called where set -e does not hold: one chain.)
suite_build() { # mode
	mkdir -p build && cd build &&
		{ [ -f Makefile ] || ../configure --quiet --disable-nls --disable-fuse2fs; } ||
		return 1
	if [ "$1" = new ]; then
		make -j"$jobs" libs && make -j"$jobs" -C e2fsck e2fsck &&
			make -j"$jobs" -C debugfs debugfs &&
			make -j"$jobs" -C misc mke2fs &&
			make -j"$jobs" -C tests test_one
	else
		make -j"$jobs"
	fi
}

# The tests that attach loop devices (when run as root).
loop_tests='m_assume_storage_prezeroed u_direct_io'

# In build/: what the suite left (NAME.ok, NAME.failed, the skip lines
# in LOG) as "NAME RESULT" lines; a skip for want of a loop device is
# "kernel".
collect() { # log
	find tests -maxdepth 1 -name '*.ok' | sed 's;.*/;;; s;\.ok$; ok;'
	find tests -maxdepth 1 -name '*.failed' | sed 's;.*/;;; s;\.failed$; failed;'
	sed -n 's;^\([a-z]_[^:]*\): .*: skipped (no loop devices).*;\1 kernel;p
		s;^\([a-z]_[^:]*\): .*: skipped.*;\1 skipped;p' "$1"
}

# In the worktree: run TEST... (directories, of any worktree) or, without
# them, the whole make check, output to LOG; one "NAME RESULT" line per
# test to RESULTS (ok, failed or skipped).
suite_run() { # results log [test...]
	res=$1 log=$2
	shift 2
	cd build || die "no build directory in $(pwd)"
	rm -f tests/*.ok tests/*.failed
	rc=0
	if [ $# -eq 0 ]; then
		bounded 3600 make -j"$jobs" check >"$log" 2>&1 || rc=$?
	else
		(cd tests && for t; do ./test_one "$t"; done) >"$log" 2>&1 || rc=$?
	fi
	[ "$rc" -ne 124 ] || die "the e2fsprogs suite timed out after 3600 s, see $log"
	# The tests that want loop devices must have skipped themselves (the
	# losetup they found fails): "kernel", for suite_run_guest.
	for t in $loop_tests; do
		if grep -q "^$t:" "$log" && ! grep -q "^$t: .*skipped (no loop devices)" "$log"; then
			die "$t of the e2fsprogs suite did not skip: did it reach this machine's loop devices? See $log"
		fi
	done
	collect "$log" >"$res"
	# make check fails on a failed test; anything else is a broken run.
	[ "$rc" -eq 0 ] || grep -q ' failed$' "$res" ||
		die "the e2fsprogs suite failed with no failed test, see $log"
}

# In the worktree, in the guest (harness/guest-suites.sh): the tests
# TEST... (names) that suite_run left to the kernel.
suite_run_guest() { # results log test...
	res=$1 log=$2
	shift 2
	cd build/tests || die "no build/tests in $(pwd)"
	top=$(cd ../.. && pwd)
	rm -f ./*.ok ./*.failed
	for t; do
		./test_one "$top/tests/$t" || true
		# Its own log is in the guest's RAM, gone after the boot.
		[ ! -f "$t.failed" ] || cat "$t.log"
	done >"$log" 2>&1
	cd ..
	collect "$log" >"$res"
}
