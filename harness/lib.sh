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
