# Sourced by the harness scripts: progress lines and fatal errors.
# shellcheck shell=sh

# Seconds since the run began; make exports EMPTYLINK_T0 once per run.
: "${EMPTYLINK_T0:=$(date +%s)}"
export EMPTYLINK_T0

say() {
	printf '[%4ss] %s\n' "$(($(date +%s) - EMPTYLINK_T0))" "$*"
}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# Every tool that may hang runs under timeout(1), bounded in seconds by
# these (the environment may set them): TOOL_TIMEOUT for mkfs, the
# checkers, the repairs and kunit.py parse, PROBE_TIMEOUT for the quick
# reads (the registry's probe and isempty tests).
: "${TOOL_TIMEOUT:=300}" "${PROBE_TIMEOUT:=60}"
for _t in "$TOOL_TIMEOUT" "$PROBE_TIMEOUT"; do
	case "$_t" in
	'' | *[!0-9]* | 0) die "TOOL_TIMEOUT and PROBE_TIMEOUT are whole seconds above 0, not '$_t'" ;;
	esac
done

# bounded SECS CMD ARGS...: CMD, killed with its process group when it
# is not done in SECS seconds (TERM, then KILL 10 s later).  Its exit
# status, or 124 when it timed out.
bounded() {
	_b_start=$(date +%s) _b_rc=0
	timeout -k 10 "$@" || _b_rc=$?
	# 137: the KILL reached timeout itself (it is in the group it kills).
	# A command killed for another reason before SECS did not time out.
	if [ "$_b_rc" -eq 137 ] && [ $(($(date +%s) - _b_start)) -ge "$1" ]; then
		_b_rc=124
	fi
	return "$_b_rc"
}

# The stage clock: every stage of a make invocation appends one line
# "NAME SECONDS STATUS AT DEPTH" to EMPTYLINK_STAGES (the Makefile names
# build/stages/EMPTYLINK_T0.txt: one file per make invocation, shared by
# all its targets).  SECONDS: its wall time; STATUS: its exit status; AT:
# when it began, since EMPTYLINK_T0 (both in seconds, to a tenth); DEPTH:
# how many stages it runs inside (indented in the table).  harness/stage.sh prints the table;
# in a Makefile recipe it is the prefix that records the recipe's stage.
: "${EMPTYLINK_STAGES:=$(cd "$(dirname "$0")/.." && pwd)/build/stages/$EMPTYLINK_T0.txt}"
export EMPTYLINK_STAGES

# stage NAME CMD ARGS...: run CMD as the stage NAME (a word: no blanks)
# and record it, whatever its exit status, which stage returns.  CMD runs
# in a subshell: a shell function's assignments do not outlive it, and
# (as after any ||) set -e does not stop a function in the middle.
stage() {
	_st_name=$1 _st_t=$(stage_now) _st_rc=0 _st_depth=${EMPTYLINK_STAGE_DEPTH:-0}
	shift
	EMPTYLINK_STAGE_DEPTH=$((_st_depth + 1))
	export EMPTYLINK_STAGE_DEPTH
	("$@") || _st_rc=$?
	EMPTYLINK_STAGE_DEPTH=$_st_depth
	stage_record "$_st_name" "$_st_t" "$_st_rc"
	return "$_st_rc"
}

# The time now, in milliseconds.
stage_now() {
	date +%s%3N
}

# stage_record NAME START STATUS: record the stage NAME that began at
# START ($(stage_now), or date +%s) and ends now, for a stage that is not
# one command (a loop's step that may die, say):
#   t=$(stage_now); ...; stage_record "bisect/patch-$n" "$t" "$rc"
# Never fails: a clock that cannot write must not fail the run.
stage_record() {
	_sr_t=$2
	[ "${#_sr_t}" -gt 10 ] || _sr_t=$((_sr_t * 1000))
	_sr_len=$(($(stage_now) - _sr_t)) _sr_at=$((_sr_t - EMPTYLINK_T0 * 1000))
	if mkdir -p "$(dirname "$EMPTYLINK_STAGES")" 2>/dev/null; then
		printf '%s %d.%d %s %d.%d %s\n' "$(printf '%s' "$1" | tr -s ' \t\n' '___')" \
			$((_sr_len / 1000)) $((_sr_len % 1000 / 100)) "$3" \
			$((_sr_at / 1000)) $((_sr_at % 1000 / 100)) \
			"${EMPTYLINK_STAGE_DEPTH:-0}" >>"$EMPTYLINK_STAGES" 2>/dev/null || true
	fi
}

# stop_session SID: TERM to every process of the session SID: a job
# started with setsid, QEMU included (timeout(1) puts QEMU in a process
# group of its own, but not in a session of its own).  Never this shell.
stop_session() { # sid
	# Field 6 of /proc/PID/stat is the session; field 2 may hold blanks.
	pids=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v s="$1" '
		{ p = $1; sub(/.*\) /, ""); if ($4 == s) print p }')
	# shellcheck disable=SC2086
	[ -z "$pids" ] || kill -TERM $pids 2>/dev/null || true
}
