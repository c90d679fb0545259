# Sourced by harness/progs-suite.sh: btrfs-progs' fsck tests
# (tests/fsck-tests/NNN-name/, run by tests/fsck-tests.sh), each in both
# modes of btrfs check: original, and lowmem as its make
# test-check-lowmem runs them.  The driver stops at the first failure
# and prints no totals, so each test runs on its own (TEST=NAME); its
# exit status is its verdict, "[NOTRUN]" or "[SKIPPED]" a skip.  A test
# that mounts or uses loop devices would do it on this machine's kernel
# (the harness runs as root): it is not run here, "kernel" in RESULTS.
# shellcheck shell=sh disable=SC2154 # jobs, set by progs-suite.sh

suite_test_names() {
	sed -n 's;^tests/fsck-tests/\([0-9][^/]*\)/.*;\1;p'
}

suite_test_path() { # test
	echo "tests/fsck-tests/$1"
}

# In the worktree: what the fsck tests need (Makefile: test-fsck),
# mkfs.btrfs for the tests that make a filesystem.  (Called where set -e
# does not hold: one chain.)
suite_build() { # mode
	{ [ -f Makefile.inc ] || { ./autogen.sh && ./configure --disable-documentation \
		--disable-python --disable-convert; }; } &&
		make -j"$jobs" btrfs btrfs-image btrfs-corrupt-block btrfstune mkfs.btrfs
}

# A test that mounts, or attaches or wipes a device (comments aside).
# No test.sh: images checked by the driver.  One that cannot be read
# counts as needing the kernel.
needs_kernel() { # test.sh
	[ -e "$1" ] || return 1
	[ -r "$1" ] || return 0
	grep -v '^[[:space:]]*#' "$1" |
		grep -qwE 'mount|umount|losetup|wipefs|dmsetup|swapon|prepare_test_dev|run_check_mount_test_dev|setup_loopdevs|prepare_loopdevs'
}

# In the worktree: fsck test T in both modes; one "T[:lowmem] RESULT"
# line each to RESULTS (ok, failed or skipped), the output to LOG.
run_one() { # test results log
	[ -d "tests/fsck-tests/$1" ] || die "no fsck test $1 in $(pwd)"
	for m in original lowmem; do
		name=$1
		[ "$m" = original ] || name=$1:$m
		# The suite inserts TEST_ARGS_CHECK only when the override is on.
		ov=false
		[ "$m" = original ] || ov=true
		rc=0
		TEST=$1 TEST_ENABLE_OVERRIDE=$ov TEST_ARGS_CHECK=--mode=lowmem \
			bounded 600 bash tests/fsck-tests.sh >"$3.one" 2>&1 || rc=$?
		{
			echo "=== $name: exit $rc"
			cat "$3.one"
			# The failing command's output is in the suite's log.
			[ "$rc" -eq 0 ] ||
				tail -n 30 tests/fsck-tests-results.txt 2>/dev/null || true
		} >>"$3"
		# 124: timed out (the log says exit 124).  The driver says
		# which test it runs: none means it found none (no verdict).
		if ! grep -q "\[TEST/fsck\] *$1\$" "$3.one"; then
			echo "=== $name: the driver ran no test $1" >>"$3"
			echo "$name failed" >>"$2"
		elif [ "$rc" -ne 0 ]; then
			echo "$name failed" >>"$2"
		elif grep -qE '\[(NOTRUN|SKIPPED)\]' "$3.one"; then
			echo "$name skipped" >>"$2"
		else
			echo "$name ok" >>"$2"
		fi
	done
	rm -f "$3.one"
}

# In the worktree, on the host: run TEST... (directories, of any
# worktree: copied into this one for the run) or, without them, every
# fsck test; output to LOG, one line per run to RESULTS, "kernel" for
# the tests this machine's kernel would serve (suite_run_guest runs
# them).
suite_run() { # results log [test...]
	res=$1 log=$2
	shift 2
	# Results and restored images of an earlier run, tests copied in.
	git clean -q -fdx -- tests/fsck-tests tests/fsck-tests-results.txt
	if [ $# -eq 0 ]; then
		set -- tests/fsck-tests/[0-9]*/
	else
		for t; do
			[ -d "tests/fsck-tests/$(basename "$t")" ] || cp -r "$t" tests/fsck-tests/
		done
	fi
	: >"$log"
	: >"$res"
	for t; do
		t=$(basename "$t")
		if needs_kernel "tests/fsck-tests/$t/test.sh"; then
			echo "$t kernel" >>"$res"
			echo "$t:lowmem kernel" >>"$res"
		else
			run_one "$t" "$res" "$log"
		fi
	done
	# Tests copied in stay for suite_run_guest; the next run cleans.
}

# In the worktree, in the guest (harness/guest-suites.sh): the tests
# TEST... (names) that suite_run left to the kernel.
suite_run_guest() { # results log test...
	res=$1 log=$2
	shift 2
	: >"$log"
	: >"$res"
	for t; do
		run_one "$t" "$res" "$log"
	done
}
