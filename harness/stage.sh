#!/bin/sh
# The stage clock (harness/lib.sh: stage, stage_record).
# stage.sh NAME [VAR=VALUE...] CMD ARGS...: run CMD (through env(1), so
#   VAR=VALUE sets its environment as in a shell) as the stage NAME:
#   its wall time and exit status are appended to EMPTYLINK_STAGES, and
#   it exits with CMD's status.  The Makefile's recipes start with it
#   ($(STAGE) NAME ...).  When CMD fails in a stage of its own (not
#   inside another), the stages so far are printed on stderr: make stops
#   there, so this is the end of the run.
# stage.sh --table [RESULTS]: print the table of EMPTYLINK_STAGES (each
#   stage in the order it began, with when it began and its seconds,
#   inner stages indented, down to STAGE_DEPTH levels inside others,
#   default 1; a failed one says so) and the wall time since
#   EMPTYLINK_T0; with RESULTS (a run's directory), also the size on
#   disk of the run (RESULTS and its RESULTS-* siblings: the self-tests,
#   the bisect check), and the table is written to RESULTS/stages.txt.
set -eu
. "$(dirname "$0")/lib.sh"

table() {
	{
		echo
		echo "stages (wall-clock seconds; at: when the stage began, since the start):"
		if [ -s "$EMPTYLINK_STAGES" ]; then
			# Parents before the stages inside them (same tenth).
			LC_ALL=C sort -s -k4,4n -k5,5n "$EMPTYLINK_STAGES" | awk -v max="$depth" '
				$5 > max { hidden++; next }
				{ n++; name[n] = sprintf("%*s%s", 2 * $5, "", $1)
				  secs[n] = $2; rc[n] = $3; at[n] = $4
				  if (length(name[n]) > w) w = length(name[n]) }
				END {
					if (w < 5) w = 5
					printf "  %-*s %6s %7s\n", w, "stage", "at", "seconds"
					for (i = 1; i <= n; i++)
						printf "  %-*s %6s %7s%s\n", w, name[i], at[i], secs[i],
							rc[i] == 0 ? "" : "  FAILED (exit " rc[i] ")"
					if (hidden)
						printf "  (and %d stages further inside: STAGE_DEPTH=%d shows more)\n",
							hidden, max + 1
				}'
		else
			echo "  (none recorded in $EMPTYLINK_STAGES)"
		fi
		t=$(($(stage_now) - EMPTYLINK_T0 * 1000))
		echo "  total: $((t / 1000)).$((t % 1000 / 100)) s of wall-clock time since the start"
		if [ -n "$res" ]; then
			for d in "$res" "$res"-*; do
				[ -d "$d" ] || continue
				echo "  on disk: $(du -sh "$d" | cut -f1) in $d"
			done
		fi
	} >"$tmp"
	if [ -n "$res" ] && [ -d "$res" ]; then
		cat "$tmp" >"$res/stages.txt"
	fi
	cat "$tmp"
}

depth=${STAGE_DEPTH:-1}
case "$depth" in
'' | *[!0-9]*) die "STAGE_DEPTH is a number of levels, not '$depth'" ;;
esac
case "${1:-}" in
--table)
	res=${2:-}
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	table ;;
'' | -*)
	die "usage: stage.sh NAME [VAR=VALUE...] CMD ARGS... | stage.sh --table [RESULTS]" ;;
*)
	[ $# -ge 2 ] || die "stage.sh $1: no command"
	name=$1
	shift
	rc=0
	stage "$name" env -- "$@" || rc=$?
	if [ "$rc" -ne 0 ] && [ "${EMPTYLINK_STAGE_DEPTH:-0}" -eq 0 ]; then
		res='' tmp=$(mktemp)
		table >&2
		rm -f "$tmp"
	fi
	exit "$rc" ;;
esac
