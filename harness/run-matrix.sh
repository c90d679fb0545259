#!/bin/sh
# run-matrix.sh RESULTS INITRD IMAGES TESTBIN "FS..." KERNEL...: for each
# kernel (SRC/KERNEL/arch/x86/boot/bzImage, SRC=build/src), boot it with
# every filesystem attached (all suites in that one boot, which ends in a
# deliberate crash) and again to recover the crashed disks, then check
# every disk with its checkers on the host.  The kernels go side by side,
# each in a job of its own (QEMU under TCG is one thread: two kernels
# keep two cores busy).  Then judge the whole run with report.sh, keep
# only the disks of failed cells (clean-results.sh disks) and print the
# stage clock's table (stage.sh --table; also RESULTS/stages.txt).
set -eu
. "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
src=${SRC:-build/src}

# One kernel's job: its boots, then the check of its disks on the host.
# Started below, in a session of its own, as
#   run-matrix.sh --job RESULTS KERNEL INITRD IMAGES ACCEL PHASES TESTBIN FS...
if [ "${1:-}" = --job ]; then
	res=$2 k=$3 initrd=$4 images=$5 accel=$6 phases=$7 testbin=$8
	shift 8
	# A boot that did not complete is judged from its verdict.
	stage "boot/$k" "$here/boot-kernel.sh" "$src/$k/arch/x86/boot/bzImage" \
		"$initrd" "$images" "$accel" "$k" "$res/$k" "$phases" "$@" || true
	say "checking the disks of $k on the host"
	# A failure here leaves fsck.ktap short; the judge then reports the
	# missing results, and the report still runs.
	stage "fsck/$k" "$here/disks.sh" fsck "$res/$k" "$testbin" "$@" \
		>"$res/$k/fsck.ktap" ||
		say "checking the disks of $k failed: its fsck results will be missing"
	exit 0
fi

res=$1 initrd=$2 images=$3 testbin=$4 fslist=$5
shift 5

[ $# -gt 0 ] || die "no kernel named"
"$here/registry.sh" validate || die "harness/filesystems.txt is malformed"
# shellcheck disable=SC2086
"$here/registry.sh" known $fslist || die "FS names a filesystem the registry does not have"
[ -n "$fslist" ] || die "no filesystem named"
for k in "$@"; do
	case "$k" in
	*[!a-z0-9_-]*) die "bad kernel name '$k'" ;;
	esac
	[ -f "$src/$k/arch/x86/boot/bzImage" ] ||
		die "no kernel '$k' at $src/$k (KERNEL may name vanilla and patched)"
done
mkdir -p "$res"
echo "$*" >"$res/kernels"
echo "$fslist" >"$res/filesystems"
# Once, before the jobs (make has probed already: ACCEL is set).
accel=$("$here/accel.sh" "$src/$1/arch/x86/boot/bzImage")
phases=main
for fs in $fslist; do
	"$here/registry.sh" has "$fs" crash && phases="main recover"
done

# Each job is a session of its own (setsid), so that every process it
# started can be found and stopped, QEMU included (timeout(1) puts it in
# a process group of its own, but not in a session of its own).
jobs=
# shellcheck disable=SC2317 # called from the traps below
stop_jobs() {
	[ -n "$jobs" ] || return 0
	for j in $jobs; do
		stop_session "${j#*:}"
	done
	say "stopped the boots of:$(for j in $jobs; do printf ' %s' "${j%%:*}"; done)" >&2
	jobs=
	wait
}
trap stop_jobs EXIT
trap 'stop_jobs; exit 130' INT
trap 'stop_jobs; exit 143' TERM
trap 'stop_jobs; exit 129' HUP

if [ $# -gt 1 ]; then
	say "booting $(echo "$*" | sed 's/ \([^ ]*\)$/ and \1/') side by side: one job per kernel, its boots then its fsck (output: $res/KERNEL/job.log)"
else
	say "booting $1: its boots then its fsck (output: $res/$1/job.log)"
fi
for k in "$@"; do
	mkdir -p "$res/$k"
	log=$res/$k/job.log
	: >"$log"
	# shellcheck disable=SC2086
	setsid sh "$0" --job "$res" "$k" "$initrd" "$images" "$accel" "$phases" \
		"$testbin" $fslist </dev/null >>"$log" 2>&1 &
	jobs="$jobs $k:$!"
	# The job's lines as they come, the kernel's name after the time.
	tail -n +1 -f --pid="$!" "$log" 2>/dev/null |
		sed -u -e "s/^\(\[ *[0-9]*s\] \)/\1$k: /" -e t -e "s/^/$k: /" &
done
status=0
for j in $jobs; do
	rc=0
	wait "${j#*:}" || rc=$?
	if [ "$rc" -ne 0 ]; then
		status=1
		say "kernel ${j%%:*}: its job ended with status $rc (its output: $res/${j%%:*}/job.log)"
		# What it left running (a job that was killed leaves its boot).
		stop_session "${j#*:}"
	fi
done
jobs=
wait # the tails: each ends once its job has

# When each kernel's boots ran (boot/KERNEL, from the stage clock), and
# for how long they all ran at once.
if [ $# -gt 1 ]; then
	say "$(for k in "$@"; do
		awk -v n="boot/$k" -v k="$k" '$1 == n { a = $4; e = $4 + $2 }
			END { if (a != "") print k, a, e }' "$EMPTYLINK_STAGES" 2>/dev/null
	done | awk -v n="$#" '
		{ spans = spans sprintf("%s%s %.1f-%.1fs", sep, $1, $2, $3); sep = ", "
		  if (NR == 1 || $2 > a) a = $2
		  if (NR == 1 || $3 < e) e = $3 }
		END {
			if (NR < n)
				print "no stage clock for every boot: cannot say whether they overlapped"
			else if (e > a)
				printf "the boots overlapped: the %d kernels were booting at once for %.1fs (%s)\n", n, e - a, spans
			else
				print "the boots did not overlap (" spans ")"
		}')"
fi

ln -sfn "$(basename "$res")" "$(dirname "$res")/latest"
stage judge "$here/report.sh" "$res" "$testbin" || status=1
stage prune-disks "$here/clean-results.sh" disks "$res" || status=1
"$here/stage.sh" --table "$res"
exit "$status"
