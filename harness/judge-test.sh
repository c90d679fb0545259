#!/bin/sh
# judge-test.sh TESTBIN: the judge's own tests, without any kernel.  Each
# test hands `TESTBIN judge` raw KTAP made here (a complete suite as the
# guest prints it, then broken the way a crashed test program, a stale
# initramfs or a lying guest would break it) and asserts its exit status
# and the message that names the problem; then the dmesg fixtures
# (harness/judge-test-dmesg.sh).  The suites are made from `TESTBIN
# cases KIND`, so a case added to tests/ is covered without editing here.
# The fixtures' registry and rules are tests/judge-data/, not the real
# ones, so that changing tests/expected.txt cannot change these verdicts.
set -eu
. "$(dirname "$0")/lib.sh"

testbin=$1
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../tests/judge-data
[ -x "$testbin" ] || die "no test program at $testbin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# render FS SOURCE INDEX: a raw subtest of the "NAME WANT OBSERVED"
# lines on stdin (OBSERVED "-": the want), numbered as they come.
render() {
	awk -v fs="$1" -v src="$2" -v idx="$3" '
		{ n++; name[n] = $1; want[n] = $2; obs[n] = NF > 2 && $3 != "-" ? $3 : $2 }
		END {
			printf "    KTAP version 1\n    # Subtest: %s.%s\n    1..%d\n", fs, src, n
			for (i = 1; i <= n; i++) {
				printf "    # %s: observed=%s want=%s\n", name[i], obs[i], want[i]
				printf "    ok %d %s%s\n", i, name[i], obs[i] == "SKIP" ? " # SKIP fixture" : ""
			}
			printf "ok %d %s.%s\n", idx, fs, src
		}'
}

# cases KIND: "NAME WANT" for every case the test program declares.
cases() {
	"$testbin" cases "$1"
}

# judge NAME STATUS TEXT: judge $tmp/NAME.raw against $tmp/NAME.plan; the
# exit status must be STATUS and the output must contain TEXT.
judge() {
	name=$1 want=$2 text=$3
	rc=0
	"$testbin" judge --expect "$data/expected.txt" \
		--registry "${registry:-$data/registry.txt}" --plan "$tmp/$name.plan" \
		"patched=$tmp/$name.raw" >"$tmp/$name.out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ] && grep -qF -- "$text" "$tmp/$name.out"; then
		pass=$((pass + 1))
		say "judge-test $name: ok"
	else
		fail=$((fail + 1))
		say "judge-test $name: FAILED: exit $rc (want $want), output must contain: $text"
		sed 's/^/    /' "$tmp/$name.out" | grep -vE '^    +(ok|# [^ ]+: observed=)' | head -n 20
	fi
}

# table NAME [FS [SOURCE]]: plan one table suite of FS (tmpfs) in SOURCE
# (scratch); the raw file is the caller's.
plan_table() {
	echo "patched ${2:-tmpfs} ${3:-scratch} table" >"$tmp/$1.plan"
}

ntable=$(cases table | wc -l)

# The control: every declared case once, each observing its want.
cases table | render tmpfs scratch 1 >"$tmp/complete.raw"
plan_table complete
judge complete 0 "judge: $ntable passed, 0 failed, 0 skipped"

# The holes of a judge that trusts the guest's own plan line: a suite
# with a case left out, a whole group left out, a single case.
cases table | sed '$d' | render tmpfs scratch 1 >"$tmp/one-missing.raw"
plan_table one-missing
judge one-missing 1 "not reported: the guest never ran it"

nfollow=$(cases table | grep -c '^follow\.')
cases table | grep -v '^follow\.' | render tmpfs scratch 1 >"$tmp/group-missing.raw"
plan_table group-missing
judge group-missing 1 "$nfollow declared cases not reported"

cases table | head -n 1 | render tmpfs scratch 1 >"$tmp/single.raw"
plan_table single
judge single 1 "$((ntable - 1)) declared cases not reported"

# Names that are not the declared set, once each.
{ cases table; cases table | head -n 1; } | render tmpfs scratch 1 >"$tmp/twice.raw"
plan_table twice
judge twice 1 "create.symlink: reported twice"

{ cases table; echo "zzz.bogus ok"; } | render tmpfs scratch 1 >"$tmp/bogus.raw"
plan_table bogus
judge bogus 1 "zzz.bogus: unknown case"

{ cases table; echo "follow.nope ENOENT"; } | render tmpfs scratch 1 >"$tmp/nope.raw"
plan_table nope
judge nope 1 "follow.nope: unknown case"

{ cases table; echo "/empty:readlink \"\""; } | render tmpfs scratch 1 >"$tmp/entry.raw"
plan_table entry
judge entry 1 "/empty:readlink: unknown case"

{ cases table; cases persist | head -n 1; } | render tmpfs scratch 1 >"$tmp/other-kind.raw"
plan_table other-kind
judge other-kind 1 "a case of another suite, not of a table suite"

# A want that is not this binary's: an initramfs from an older tests/.
cases table | sed 's/^read\.readlink .*/read.readlink "x" "x"/' |
	render tmpfs scratch 1 >"$tmp/stale.raw"
plan_table stale
judge stale 1 "differs from this judge's \"\": stale initramfs"

# Suites: not planned, reported twice, missing, cut short, wrong plan,
# given up by the guest.
{ cases table | render tmpfs scratch 1; cases table | render tmpfs other 2; } >"$tmp/unplanned.raw"
plan_table unplanned
judge unplanned 1 "patched.tmpfs.other # not planned"

{ cases table | render tmpfs scratch 1; cases table | render tmpfs scratch 2; } >"$tmp/suite-twice.raw"
plan_table suite-twice
judge suite-twice 1 "patched.tmpfs.scratch # reported twice"

cases table | render tmpfs scratch 1 >"$tmp/no-result.raw"
{ echo "patched tmpfs scratch table"; echo "patched nope scratch table"; } >"$tmp/no-result.plan"
judge no-result 1 "patched.nope.scratch # no result: not in the raw output"

cases table | render tmpfs scratch 1 | sed '$d' | head -n 20 >"$tmp/cut.raw"
plan_table cut
judge cut 1 "no result line: the subtest was cut short"

cases table | render tmpfs scratch 1 | sed "s/^    1\\.\\.$ntable\$/    1..$((ntable + 1))/" >"$tmp/plan-line.raw"
plan_table plan-line
judge plan-line 1 "planned $((ntable + 1)) cases, reported $ntable"

{ cases table | head -n 3 | render tmpfs scratch 1 | sed '$d'
  echo "not ok 1 tmpfs.scratch # timeout after 300s"; } >"$tmp/gave-up.raw"
plan_table gave-up
judge gave-up 1 "guest: timeout after 300s"

cases table | render tmpfs scratch 1 | sed 's/^    ok 2 /    ok 9 /' >"$tmp/order.raw"
plan_table order
judge order 1 "is numbered out of order"

cases table | render tmpfs scratch 1 >"$tmp/no-kernel.raw"
{ echo "patched tmpfs scratch table"; echo "vanilla tmpfs scratch table"; } >"$tmp/no-kernel.plan"
judge no-kernel 1 "vanilla.tmpfs.scratch # no result: no raw output for this kernel"

# Lines that do not say what they must.
cases table | render tmpfs scratch 1 | sed '/# read\.readlink: observed=/s/ want=.*//' >"$tmp/malformed.raw"
plan_table malformed
judge malformed 1 "read.readlink: no diagnostic line with what it observed"

cases table | render tmpfs scratch 1 | sed 's/^    ok \([0-9]*\) read\.lstat$/    not ok \1 read.lstat/' >"$tmp/guest-not-ok.raw"
plan_table guest-not-ok
judge guest-not-ok 1 "read.lstat: the guest said not ok"

# SKIP: where a rule says so it is as expected; an observed=SKIP without
# the directive (or the reverse) is not.
cases table | sed 's/^self\.xfs_scrub .*/self.xfs_scrub ok SKIP/' | render tmpfs skip 1 >"$tmp/skip.raw"
plan_table skip tmpfs skip
judge skip 0 "judge: $((ntable - 1)) passed, 0 failed, 1 skipped"

sed 's/^\(    ok [0-9]* self\.xfs_scrub\) # SKIP fixture$/\1/' "$tmp/skip.raw" >"$tmp/skip-disagree.raw"
plan_table skip-disagree tmpfs skip
judge skip-disagree 1 "observed=SKIP and the SKIP directive disagree"

# XFAIL: the gap's value is a known gap; the want is an XPASS (fixed:
# the rule must go).
cases table | sed 's/^read\.readlink .*/read.readlink "" ENOENT/' | render tmpfs gap 1 >"$tmp/xfail.raw"
plan_table xfail tmpfs gap
judge xfail 0 "ok 8 read.readlink # XFAIL a known gap of the fixture"

cases table | render tmpfs gap 1 >"$tmp/xpass.raw"
plan_table xpass tmpfs gap
judge xpass 1 "read.readlink # XPASS fixed: remove the rule"

# A filesystem that has not opted in (registry: create ENOENT REASON):
# creation fails, every case that needed the link never ran, and those
# are SKIPs with their precondition, counted apart from the passes.
nneed=$(cases table | grep -cE '^(create\.exists|read\.|follow\.|self\.)')
cases table | awk '/^create\.(symlink|symlinkat|io_uring|answer_matches) / { print $1, $2, "ENOENT"; next }
	/^(create\.exists|read\.|follow\.|self\.)/ { print $1, $2, "setup:ENOENT"; next } { print }' |
	render nope scratch 1 >"$tmp/refused.raw"
plan_table refused nope
judge refused 0 "judge: $((ntable - nneed)) passed, 0 failed, $nneed skipped"
judge refused 0 "# SKIP precondition: setup:ENOENT"
judge refused 0 "create.symlink: observed=ENOENT expected=ENOENT -- not opted in: the fixture's filesystem refuses \"\""
# The matrix counts them apart too, and calls the run green.
rc=0
awk -v junit="$tmp/junit.xml" -f "$here/matrix.awk" "$tmp/refused.out" >"$tmp/matrix.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -qF "matrix: $((ntable - nneed)) passed, 0 failed, $nneed skipped" "$tmp/matrix.out"; then
	pass=$((pass + 1))
	say "judge-test matrix-counts: ok"
else
	fail=$((fail + 1))
	say "judge-test matrix-counts: FAILED: exit $rc, $(tail -n 1 "$tmp/matrix.out")"
fi

# The same precondition where the filesystem stores "": a case that
# never ran is a failure there.
cases table | sed 's/^read\.readlink .*/read.readlink "" setup:ENOENT/' | render tmpfs scratch 1 >"$tmp/setup-wrong.raw"
plan_table setup-wrong
judge setup-wrong 1 "read.readlink: observed=setup:ENOENT expected=\"\""

# Per-entry suites: "PATH:name" for a name of their kind, once each,
# and for each PATH the cases every entry has (lstat and follow).
{ echo '/empty:lstat lnk:0'; echo '/empty:readlink ""'; echo '/empty:follow ENOENT'; } |
	render tmpfs manifest 1 >"$tmp/entries.raw"
echo "patched tmpfs manifest manifest" >"$tmp/entries.plan"
judge entries 0 "judge: 3 passed, 0 failed"

{ echo '/empty:lstat lnk:0'; echo '/empty:readlink ""'; echo '/file:lstat reg:5'; echo '/file:follow reg'; } |
	render tmpfs manifest 1 >"$tmp/entry-missing.raw"
echo "patched tmpfs manifest manifest" >"$tmp/entry-missing.plan"
judge entry-missing 1 "/empty:follow: not reported: the guest never ran it"

: | render tmpfs manifest 1 >"$tmp/no-entries.raw"
echo "patched tmpfs manifest manifest" >"$tmp/no-entries.plan"
judge no-entries 1 "patched.tmpfs.manifest # no cases"

# A want the guest brings with an entry cannot excuse a case from running.
{ echo '/empty:lstat setup:EIO'; echo '/empty:follow SKIP SKIP'; } |
	render tmpfs manifest 1 >"$tmp/entry-precondition.raw"
echo "patched tmpfs manifest manifest" >"$tmp/entry-precondition.plan"
judge entry-precondition 1 "/empty:lstat: a reported want cannot be SKIP or a precondition"

# Links: the case declares its want (""); the guest's is not taken.
echo 'read.readlink/e:readlink ENOENT' | render tmpfs remount 1 |
	sed 's/want=ENOENT/want=""/' >"$tmp/links.raw"
echo "patched tmpfs remount links" >"$tmp/links.plan"
judge links 1 "read.readlink/e:readlink: observed=ENOENT expected=\"\""

echo 'read.readlink/e:readlink ENOENT' | render tmpfs remount 1 >"$tmp/links-want.raw"
echo "patched tmpfs remount links" >"$tmp/links-want.plan"
judge links-want 1 "the guest's want ENOENT differs from this judge's \"\": stale initramfs"

# Crash: its own cases and, before them, the synced links' persist cases.
ncrash=$(cases crash | wc -l)
cases crash | render tmpfs crash 1 >"$tmp/crash.raw"
echo "patched tmpfs crash crash" >"$tmp/crash.plan"
judge crash 0 "judge: $ncrash passed, 0 failed"

cases crash | grep -v '^persist\.' | render tmpfs crash 1 >"$tmp/crash-short.raw"
echo "patched tmpfs crash crash" >"$tmp/crash-short.plan"
judge crash-short 1 "persist.readlink: not reported"

# Persist on a filesystem that has not opted in: nothing was made.
npersist=$(cases persist | wc -l)
cases persist | awk '{ print $1, $2, "setup:ENOENT" }' | render nope remount 1 >"$tmp/refused-persist.raw"
echo "patched nope remount persist" >"$tmp/refused-persist.plan"
judge refused-persist 0 "judge: 0 passed, 0 failed, $npersist skipped"

{ echo '/empty:lstat lnk:0'; echo '/empty:bogus x'; echo 'manifest.lstat lnk:0'; echo '/empty:lstat lnk:0'; } |
	render tmpfs manifest 1 >"$tmp/entries-bad.raw"
echo "patched tmpfs manifest manifest" >"$tmp/entries-bad.plan"
judge entries-bad 1 "/empty:bogus: not a PATH:name case of a manifest suite"
judge entries-bad 1 "manifest.lstat: not a PATH:name case of a manifest suite"
judge entries-bad 1 "/empty:lstat: reported twice"

# The host's verdicts bring their own wants; a test program's case name
# among them is not one.
{ echo 'stock-image clean'; echo 'follow.stat ENOENT'; } | render tmpfs fsck 1 >"$tmp/observed.raw"
echo "patched tmpfs fsck observed" >"$tmp/observed.plan"
judge observed 1 "follow.stat: unknown case"

# Input the judge must refuse outright (exit 2).
cases table | render tmpfs scratch 1 >"$tmp/bad-kind.raw"
echo "patched tmpfs scratch tables" >"$tmp/bad-kind.plan"
judge bad-kind 2 "unknown KIND"

cases table | render tmpfs scratch 1 >"$tmp/no-kind.raw"
echo "patched tmpfs scratch" >"$tmp/no-kind.plan"
judge no-kind 2 "expected KERNEL FS SOURCE KIND"

# A registry create line that refuses creation must say why.
cases table | render tmpfs scratch 1 >"$tmp/no-reason.raw"
plan_table no-reason
sed 's/^nope    create  ENOENT .*/nope    create  ENOENT/' "$data/registry.txt" >"$tmp/registry.txt"
registry=$tmp/registry.txt judge no-reason 2 "a create VALUE other than ok needs its REASON"

say "judge-test: the judge: $pass passed, $fail failed"
dmesg_rc=0
"$here/judge-test-dmesg.sh" || dmesg_rc=$?
[ "$fail" -eq 0 ] && [ "$dmesg_rc" -eq 0 ]
