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
