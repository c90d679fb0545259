#!/bin/sh
# progs-suite.sh NAME PROGS OUT [new]: the own test suite of NAME
# (e2fsprogs, btrfs-progs), for Debian's source as it is (stock) and
# with patches/NAME/ applied (patched), each built in a git worktree of
# its own beside the tree harness/progs.sh made (PROGS/NAME, whose tag
# "base" is Debian's source): PROGS/NAME-suite-stock and -patched.
# harness/suite-NAME.sh says how to build and run that suite.
#   without "new": the whole suite (make progs-check).  Wants: every
#   test that fails as patched also fails stock, and each test the
#   patches add or change passes as patched.
#   with "new": only the tests the patches add or change (make check):
#   each must pass as patched, and each the patches add must fail on
#   the stock build (run there from the patched tree).
# The tests run on files on the host, never on its kernel: mount,
# umount, losetup, insmod, rmmod, dmsetup, swapon and swapoff found
# first in PATH fail (checked), and
# modprobe loads nothing (see below).  A test that needs a kernel skips
# itself or is not run on the host ("kernel"); with GUEST_KERNEL, those
# of both variants then run in one boot of it (see guest()).
# Writes OUT/NAME-VARIANT.log (the suite's output on the host),
# .guest.log (in the guest), .results (one line per test run: NAME
# RESULT [guest]), and one line per variant to OUT/suites.txt:
#   NAME VARIANT ran=N passed=N failed=N skipped=N in-guest=N kernel=N [failed: TESTS]
# (in-guest: of those, run in the guest; kernel: not run, no guest) and
# fails, naming the tests, when the wants are not met.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: progs-suite.sh NAME PROGS OUT [new]"
name=$1 mode=${4:-all}
here=$(cd "$(dirname "$0")" && pwd)
suite=$here/suite-$name.sh
[ -f "$suite" ] || die "progs-suite.sh: no suite for $name (no $suite)"
# shellcheck source=/dev/null # one of harness/suite-*.sh
. "$suite"
progs=$(cd "$2" && pwd)
mkdir -p "$3"
out=$(cd "$3" && pwd)
src=$progs/$name
git -C "$src" rev-parse -q --verify base >/dev/null 2>&1 ||
	die "no $name source in $src: make progs builds it (harness/progs.sh)"
jobs=$(($(nproc) + 1)) # for the suite's builds and runs
export jobs

# The tests the patches add (absent from base) and change.
added='' changed=''
for t in $(git -C "$src" diff --name-only base HEAD | suite_test_names | sort -u); do
	if git -C "$src" cat-file -e "base:$(suite_test_path "$t")" 2>/dev/null; then
		changed="$changed $t"
	else
		added="$added $t"
	fi
done
[ -n "$added" ] || die "patches/$name adds no test of its own suite"

# A worktree of SRC at COMMIT, built for the suite.
build() { # variant commit
	wt=$progs/$name-suite-$1
	# By tree: harness/progs.sh makes new commits of the same patches.
	if [ "$(git -C "$wt" rev-parse 'HEAD^{tree}' 2>/dev/null)" != \
	     "$(git -C "$src" rev-parse "$2^{tree}")" ]; then
		rm -rf "$wt"
		git -C "$src" worktree prune
		git -C "$src" worktree add -q --detach "$wt" "$2" ||
			die "cannot make the $1 worktree of $name at $wt"
	fi
	blog=$out/$name-$1.build.log
	say "progs-suite: building $name ($1, log: $blog)"
	(cd "$wt" && suite_build "$mode") >"$blog" 2>&1 || {
		tail -n 20 "$blog" >&2
		die "building $name ($1) failed, see $blog"
	}
}

# Run TEST... (directories) or the whole suite for VARIANT on the host.
run() { # variant test...
	v=$1
	shift
	log=$out/$name-$v.log
	say "progs-suite: $name test suite ($v${1:+, $# tests}, log: $log)"
	(cd "$progs/$name-suite-$v" && suite_run "$out/$name-$v.results" "$log" "$@")
}

# The tests the host left to a kernel ("kernel" in VARIANT's results),
# by name.
kernel_tests() { # variant
	sed -n 's/\(:[a-z]*\)\{0,1\} kernel$//p' "$out/$name-$1.results" | sort -u
}

# Those tests of both variants, in one boot of GUEST_KERNEL (make
# progs-check sets it, GUEST_INITRD and ACCEL) with this machine's
# userland (harness/guest-suites.sh); their results replace the
# "kernel" lines.  Without GUEST_KERNEL they stay "kernel": not run.
guest() {
	[ -n "$(kernel_tests stock)$(kernel_tests patched)" ] || return 0
	if [ -z "${GUEST_KERNEL:-}" ]; then
		say "progs-suite: $name: the tests that need a kernel are not run (no GUEST_KERNEL)"
		return 0
	fi
	job=$out/$name-guest-job.sh gout=$out/$name-guest
	{
		echo '#!/bin/sh'
		echo '# Written by harness/progs-suite.sh; run in the guest by harness/guest-suites.sh.'
		echo 'set -eu'
		echo 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
		echo 'HOME=/root LANG=C jobs=2'
		echo 'export PATH HOME LANG jobs'
		echo ". '$here/lib.sh'"
		echo ". '$suite'"
		for v in stock patched; do
			echo "(cd '$progs/$name-suite-$v' && suite_run_guest '$out/$name-$v.guest.results'" \
				"'$out/$name-$v.guest.log' $(kernel_tests "$v" | tr '\n' ' '))"
		done
	} >"$job"
	limit=${SUITE_BOOT_TIMEOUT:-5400}
	say "progs-suite: $name: $(kernel_tests stock | wc -l) stock and $(kernel_tests patched | wc -l) patched tests in the guest ($ACCEL, limit ${limit}s, log: $gout/console.log)"
	GUEST_MEM=2048 "$here/guest-job.sh" "$GUEST_KERNEL" "$GUEST_INITRD" "$ACCEL" "$job" \
		"$out" "$gout" "$limit" || die "progs-suite: $name: the guest run failed (above)"
	for v in stock patched; do
		gres=$out/$name-$v.guest.results
		[ -f "$gres" ] || die "progs-suite: $name: the guest wrote no $gres"
		for t in $(kernel_tests "$v"); do
			grep -q "^$t\(:[a-z]*\)\{0,1\} \(ok\|failed\|skipped\)\$" "$gres" ||
				die "progs-suite: $name: the guest did not run $t ($v), see $out/$name-$v.guest.log"
		done
		# A test the guest left to a kernel again found none there.
		! grep -q ' kernel$' "$gres" ||
			die "progs-suite: $name: in the guest, $(sed -n 's/ kernel$//p' "$gres" | tr '\n' ' ')($v) still found no loop device or mount, see $out/$name-$v.guest.log"
		# The host's lines but "kernel", then the guest's ("... guest").
		{ grep -v ' kernel$' "$out/$name-$v.results" || true
		  sed 's/$/ guest/' "$gres"; } >"$out/$name-$v.results.new"
		mv "$out/$name-$v.results.new" "$out/$name-$v.results"
	done
}

# VARIANT's totals into suites.txt; its failed tests into NAME-VARIANT.failed.
tally() { # variant
	v=$1 res=$out/$name-$1.results
	count() { grep -c " $1\( guest\)\{0,1\}\$" "$res" || true; }
	ok=$(count ok) nf=$(count failed) skipped=$(count skipped) kernel=$(count kernel)
	inguest=$(grep -c ' guest$' "$res" || true)
	failed=$(sed -n 's/ failed\( guest\)\{0,1\}$//p' "$res" | sort | tr '\n' ' ')
	line="$name $v ran=$((ok + nf)) passed=$ok failed=$nf skipped=$skipped in-guest=$inguest kernel=$kernel"
	[ -z "$failed" ] || line="$line failed: $failed"
	echo "$line" >>"$out/suites.txt"
	say "progs-suite: $line"
	echo "$failed" >"$out/$name-$v.failed"
}

# A test of the new ones, in any mode the suite runs it (NAME[:MODE]).
in_list() { # list test
	for _f in $1; do
		case "$_f" in "$2" | "$2":*) return 0 ;; esac
	done
	return 1
}

# The guest's inputs, checked before the host's part of the run.
if [ -n "${GUEST_KERNEL:-}" ]; then
	[ -f "$GUEST_KERNEL" ] || die "no kernel at GUEST_KERNEL=$GUEST_KERNEL"
	[ -f "${GUEST_INITRD:-}" ] || die "no initramfs at GUEST_INITRD=${GUEST_INITRD:-}"
	case "${ACCEL:-}" in
	kvm | tcg) ;;
	*) die "ACCEL=${ACCEL:-} is neither kvm nor tcg" ;;
	esac
fi
touch "$out/suites.txt"
sed -i "/^$name /d" "$out/suites.txt"
# What the suites find first in PATH: nothing of theirs reaches this
# machine's kernel.  modprobe succeeds without loading anything:
# btrfs-progs' driver calls it when /proc/filesystems lacks btrfs, and
# its fsck tests read image files only.
nok=$out/no-kernel
mkdir -p "$nok"
for c in mount umount losetup insmod rmmod dmsetup swapon swapoff; do
	printf '#!/bin/sh\necho "%s: not on this machine'"'"'s kernel (harness/progs-suite.sh)" >&2\nexit 1\n' \
		"$c" >"$nok/$c"
done
printf '#!/bin/sh\necho "modprobe $*: nothing loaded into this machine'"'"'s kernel (harness/progs-suite.sh)" >&2\n' \
	>"$nok/modprobe"
chmod +x "$nok"/*
PATH=$nok:$PATH
export PATH
# They are what a suite finds, and they run (not on a noexec mount,
# where a shell would go on searching PATH): else refuse to go on.
for c in mount losetup; do
	[ "$(command -v "$c")" = "$nok/$c" ] ||
		die "progs-suite: $c is not $nok/$c first in PATH"
	rc=0
	"$c" 2>/dev/null || rc=$?
	[ "$rc" -eq 1 ] ||
		die "progs-suite: $nok/$c does not run (exit $rc): is $out on a noexec mount?"
done
# The btrfs-progs suite takes these from the environment: its own.
unset TEST_DEV TEST_MNT TOP
build stock base
build patched HEAD
bad=''
if [ "$mode" = new ]; then
	dirs=''
	for t in $added $changed; do
		dirs="$dirs $progs/$name-suite-patched/$(suite_test_path "$t")"
	done
	# shellcheck disable=SC2086
	run stock $dirs
	# shellcheck disable=SC2086
	run patched $dirs
	guest
	tally stock
	tally patched
	for t in $added; do
		in_list "$(cat "$out/$name-stock.failed")" "$t" ||
			bad="$bad $t(passes-on-stock)"
	done
else
	run stock
	run patched
	guest
	tally stock
	tally patched
	read -r failed_patched <"$out/$name-patched.failed" || true
	for t in $failed_patched; do
		case " $(cat "$out/$name-stock.failed") " in
		*" $t "*) ;;
		*) bad="$bad $t(regression)" ;;
		esac
	done
fi
for t in $added $changed; do
	! in_list "$(cat "$out/$name-patched.failed")" "$t" ||
		bad="$bad $t(fails-patched)"
	grep -q "^$t\(:[a-z]*\)\{0,1\} ok\( guest\)\{0,1\}\$" "$out/$name-patched.results" ||
		bad="$bad $t(not-run)"
done
[ -z "$bad" ] || die "progs-suite: $name:$bad (logs in $out)"
say "progs-suite: $name: the tests the patches add and change (${added# }${changed:+,$changed}) pass as patched"
