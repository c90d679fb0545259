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
# umount, losetup, insmod and rmmod found first in PATH fail, and
# modprobe loads nothing (see below).  A test that needs the kernel
# skips itself or is not run ("kernel"): counted, not yet run in the
# guest.
# Writes OUT/NAME-VARIANT.log (the suite's output), .results (one line
# per test run: NAME RESULT), and one line per variant to
# OUT/suites.txt:
#   NAME VARIANT ran=N passed=N failed=N skipped=N kernel=N [failed: TESTS]
# and fails, naming the tests, when the wants are not met.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: progs-suite.sh NAME PROGS OUT [new]"
name=$1 mode=${4:-all}
suite=$(cd "$(dirname "$0")" && pwd)/suite-$name.sh
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

# Run TEST... (directories) or the whole suite for VARIANT; count.
run() { # variant test...
	v=$1
	shift
	log=$out/$name-$v.log res=$out/$name-$v.results
	say "progs-suite: $name test suite ($v${1:+, $# tests}, log: $log)"
	(cd "$progs/$name-suite-$v" && suite_run "$res" "$log" "$@")
	count() { grep -c " $1\$" "$res" || true; }
	ok=$(count ok) nf=$(count failed) skipped=$(count skipped) kernel=$(count kernel)
	failed=$(sed -n 's/ failed$//p' "$res" | sort | tr '\n' ' ')
	line="$name $v ran=$((ok + nf)) passed=$ok failed=$nf skipped=$skipped kernel=$kernel"
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

touch "$out/suites.txt"
sed -i "/^$name /d" "$out/suites.txt"
# What the suites find first in PATH: nothing of theirs reaches this
# machine's kernel.  modprobe succeeds without loading anything:
# btrfs-progs' driver calls it when /proc/filesystems lacks btrfs, and
# its fsck tests read image files only.
nok=$out/no-kernel
mkdir -p "$nok"
for c in mount umount losetup insmod rmmod; do
	printf '#!/bin/sh\necho "%s: not on this machine'"'"'s kernel (harness/progs-suite.sh)" >&2\nexit 1\n' \
		"$c" >"$nok/$c"
done
printf '#!/bin/sh\necho "modprobe $*: nothing loaded into this machine'"'"'s kernel (harness/progs-suite.sh)" >&2\n' \
	>"$nok/modprobe"
chmod +x "$nok"/*
PATH=$nok:$PATH
export PATH
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
	for t in $added; do
		in_list "$(cat "$out/$name-stock.failed")" "$t" ||
			bad="$bad $t(passes-on-stock)"
	done
	# shellcheck disable=SC2086
	run patched $dirs
else
	run stock
	run patched
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
	grep -q "^$t\(:[a-z]*\)\? ok\$" "$out/$name-patched.results" ||
		bad="$bad $t(not-run)"
done
[ -z "$bad" ] || die "progs-suite: $name:$bad (logs in $out)"
say "progs-suite: $name: the tests the patches add and change (${added# }${changed:+,$changed}) pass as patched"
