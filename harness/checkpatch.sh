#!/bin/sh
# checkpatch.sh TREE PATCHDIR: scripts/checkpatch.pl --strict on every
# kernel patch of the series (not the cover letter); fails on any error,
# warning or check.
set -eu
. "$(dirname "$0")/lib.sh"

tree=$1
dir=$(cd "$2" && pwd)
status=0
for p in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
	case "$p" in */0000-cover-letter.patch) continue ;; esac
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --terse --no-summary "$p"); then
		say "checkpatch: $(basename "$p"): clean"
	else
		status=1
		say "checkpatch: $(basename "$p"):"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
done
[ "$status" -eq 0 ] || die "checkpatch --strict reported problems"
