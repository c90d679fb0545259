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
needs_kernel() { # test.sh
	[ -f "$1" ] && grep -v '^[[:space:]]*#' "$1" |
		grep -qwE 'mount|umount|losetup|wipefs|prepare_test_dev|run_check_mount_test_dev|setup_loopdevs|prepare_loopdevs'
}

# In the worktree: run TEST... (directories, of any worktree: copied into
# this one for the run) or, without them, every fsck test, each in both
# modes; output to LOG, one "NAME[:lowmem] RESULT" line per run to
# RESULTS (ok, failed, skipped or kernel).
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
			continue
		fi
		for m in original lowmem; do
			name=$t
			[ "$m" = original ] || name=$t:$m
			rc=0
			if [ "$m" = original ]; then
				TEST=$t bounded 600 bash tests/fsck-tests.sh >"$log.one" 2>&1 || rc=$?
			else
				TEST=$t TEST_ENABLE_OVERRIDE=true TEST_ARGS_CHECK=--mode=lowmem \
					bounded 600 bash tests/fsck-tests.sh >"$log.one" 2>&1 || rc=$?
			fi
			{
				echo "=== $name: exit $rc"
				cat "$log.one"
				# The failing command's output is in the suite's log.
				[ "$rc" -eq 0 ] || tail -n 30 tests/fsck-tests-results.txt
			} >>"$log"
			# 124: timed out (the log says exit 124).
			if [ "$rc" -ne 0 ]; then
				echo "$name failed" >>"$res"
			elif grep -qE '\[(NOTRUN|SKIPPED)\]' "$log.one"; then
				echo "$name skipped" >>"$res"
			else
				echo "$name ok" >>"$res"
			fi
		done
	done
	rm -f "$log.one"
	git clean -q -fdx -- tests/fsck-tests tests/fsck-tests-results.txt
}
