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
# new tests, e2fsck and the runner only; make check builds the rest.
# (Called where set -e does not hold: one chain.)
suite_build() { # mode
	mkdir -p build && cd build &&
		{ [ -f Makefile ] || ../configure --quiet --disable-nls --disable-fuse2fs; } ||
		return 1
	if [ "$1" = new ]; then
		make -j"$jobs" libs && make -j"$jobs" -C e2fsck e2fsck &&
			make -j"$jobs" -C tests test_one
	else
		make -j"$jobs"
	fi
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
	# The two tests that want loop devices must have skipped themselves.
	for t in m_assume_storage_prezeroed u_direct_io; do
		if grep -q "^$t:" "$log" && ! grep -q "^$t: .*skipped" "$log"; then
			die "$t of the e2fsprogs suite did not skip: did it reach this machine's loop devices? See $log"
		fi
	done
	{
		find tests -maxdepth 1 -name '*.ok' | sed 's;.*/;;; s;\.ok$; ok;'
		find tests -maxdepth 1 -name '*.failed' | sed 's;.*/;;; s;\.failed$; failed;'
		sed -n 's;^\([a-z]_[^:]*\): .*: skipped.*;\1 skipped;p' "$log"
	} >"$res"
	# make check fails on a failed test; anything else is a broken run.
	[ "$rc" -eq 0 ] || grep -q ' failed$' "$res" ||
		die "the e2fsprogs suite failed with no failed test, see $log"
}
