#!/bin/sh
# progs-suite.sh e2fsprogs PROGS OUT [new]: e2fsprogs' own test suite,
# for Debian's source as it is (stock) and with patches/e2fsprogs/
# applied (patched), each built in a git worktree of its own beside the
# tree harness/progs.sh made (PROGS/e2fsprogs, whose tag "base" is
# Debian's source): PROGS/e2fsprogs-suite-stock and -patched.  The
# tests run on files on the host, never on its kernel: the two that would
# attach loop devices (m_assume_storage_prezeroed, u_direct_io) find a
# losetup that fails, and skip themselves ("no loop devices"); they are
# counted as skipped, not yet run in the guest.
#   without "new": the whole suite, e2fsprogs' make check (make
#   progs-check).  Wants: every test that fails as patched also fails
#   stock, and each test the patches add or change passes as patched.
#   with "new": only the tests the patches add or change (make check):
#   each must pass as patched, and each the patches add must fail on
#   the stock build (run there from the patched tree's directory).
# Writes OUT/e2fsprogs-VARIANT.log (the suite's output) and one line per
# variant to OUT/suites.txt:
#   e2fsprogs VARIANT ran=N passed=N failed=N skipped=N [failed: TESTS]
# and fails, naming the tests, when the wants are not met.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: progs-suite.sh e2fsprogs PROGS OUT [new]"
name=$1 mode=${4:-all}
[ "$name" = e2fsprogs ] || die "progs-suite.sh: no suite for $name (only e2fsprogs)"
progs=$(cd "$2" && pwd)
mkdir -p "$3"
out=$(cd "$3" && pwd)
src=$progs/$name
git -C "$src" rev-parse -q --verify base >/dev/null 2>&1 ||
	die "no $name source in $src: make progs builds it (harness/progs.sh)"
jobs=$(($(nproc) + 1))

# The tests the patches add (absent from base) and change.
added='' changed=''
for t in $(git -C "$src" diff --name-only base HEAD -- tests |
	   sed -n 's;^tests/\([a-z]_[^/]*\)/.*;\1;p' | sort -u); do
	if git -C "$src" cat-file -e "base:tests/$t" 2>/dev/null; then
		changed="$changed $t"
	else
		added="$added $t"
	fi
done
[ -n "$added" ] || die "patches/$name adds no test of its own suite"

# A worktree of SRC at COMMIT, configured and built for the suite.
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
	mkdir -p "$wt/build"
	cd "$wt/build"
	blog=$out/$name-$1.build.log
	say "progs-suite: building $name ($1, log: $blog)"
	rc=0
	{
		[ -f Makefile ] ||
			../configure --quiet --disable-nls --disable-fuse2fs
		# The new tests need e2fsck only; make check builds the rest.
		if [ "$mode" = new ]; then
			make -j"$jobs" libs && make -j"$jobs" -C e2fsck e2fsck &&
				make -j"$jobs" -C tests test_one
		else
			make -j"$jobs"
		fi
	} >"$blog" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		tail -n 20 "$blog" >&2
		die "building $name ($1) failed, see $blog"
	fi
}

# Run TEST... (directories) with the variant's tests/test_one; without
# TEST..., the whole make check.  The suite's own files say what
# happened: NAME.ok or NAME.failed, and "skipped" lines.
run() { # variant test...
	v=$1
	shift
	log=$out/$name-$v.log
	cd "$progs/$name-suite-$v/build"
	rm -f tests/*.ok tests/*.failed
	say "progs-suite: $name test suite ($v${1:+, $# tests}, log: $log)"
	rc=0
	if [ $# -eq 0 ]; then
		bounded 3600 make -j"$jobs" check >"$log" 2>&1 || rc=$?
	else
		(cd tests && for t; do ./test_one "$t"; done) >"$log" 2>&1 || rc=$?
	fi
	[ "$rc" -ne 124 ] || die "the $name suite ($v) timed out after 3600 s, see $log"
	ok=$(find tests -maxdepth 1 -name '*.ok' | wc -l)
	failed=$(find tests -maxdepth 1 -name '*.failed' | sed 's;.*/;;; s;\.failed$;;' | sort | tr '\n' ' ')
	nf=$(echo "$failed" | wc -w)
	skipped=$(grep -c ': skipped' "$log" || true)
	# The tests that want loop devices must have skipped themselves.
	for t in m_assume_storage_prezeroed u_direct_io; do
		if grep -q "^$t:" "$log" && ! grep -q "^$t: .*skipped" "$log"; then
			die "$t of the $name suite ($v) did not skip: did it reach this machine's loop devices? See $log"
		fi
	done
	line="$name $v ran=$((ok + nf)) passed=$ok failed=$nf skipped=$skipped"
	[ -z "$failed" ] || line="$line failed: $failed"
	echo "$line" >>"$out/suites.txt"
	say "progs-suite: $line"
	# make check fails on a failed test; anything else is a broken run.
	[ "$rc" -eq 0 ] || [ "$nf" -gt 0 ] ||
		die "the $name suite ($v) failed with no failed test, see $log"
	echo "$failed" >"$out/$name-$v.failed"
}

: >"$out/suites.txt"
# The losetup the suite finds first: none of its tests may attach this
# machine's loop devices.
mkdir -p "$out/no-loop"
cat >"$out/no-loop/losetup" <<'EOF'
#!/bin/sh
echo "losetup: not on this machine's kernel (harness/progs-suite.sh)" >&2
exit 1
EOF
chmod +x "$out/no-loop/losetup"
PATH=$out/no-loop:$PATH
export PATH
build stock base
build patched HEAD
bad=''
if [ "$mode" = new ]; then
	dirs=''
	for t in $added $changed; do dirs="$dirs $progs/$name-suite-patched/tests/$t"; done
	# shellcheck disable=SC2086
	run stock $dirs
	for t in $added; do
		case " $(cat "$out/$name-stock.failed") " in
		*" $t "*) ;;
		*) bad="$bad $t(passes-on-stock)" ;;
		esac
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
	case " $(cat "$out/$name-patched.failed") " in
	*" $t "*) bad="$bad $t(fails-patched)" ;;
	esac
done
[ -z "$bad" ] || die "progs-suite: $name:$bad (logs in $out)"
say "progs-suite: $name: the tests the patches add and change (${added# }${changed:+,$changed}) pass as patched"
