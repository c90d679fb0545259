#!/bin/sh
# lint.sh TREE: shellcheck on every shell script of the repository, the
# registry's own check (harness/registry.sh validate), and the kernel's
# checkpatch.pl --strict -f (from TREE) on the C files of tests/ (the
# test program, kernel style); fails on any finding.
set -eu
. "$(dirname "$0")/lib.sh"

tree=$1
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
status=0

scripts=$(git ls-files --cached --others --exclude-standard '*.sh' .ci/run 2>/dev/null || ls harness/*.sh fs-images/*.sh .ci/run)
# shellcheck disable=SC2086
if shellcheck -x -P SCRIPTDIR $scripts; then
	say "lint: shellcheck clean ($(echo $scripts | wc -w) scripts)"
else
	status=1
fi

"$top/harness/registry.sh" validate || status=1

for f in tests/*.c tests/*.h; do
	if ! out=$(perl "$tree/scripts/checkpatch.pl" --strict --terse --no-summary \
		--no-tree -f "$f" 2>&1); then
		status=1
		say "lint: checkpatch $f:"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
done
[ "$status" -ne 0 ] || say "lint: checkpatch -f clean (tests/)"
[ "$status" -eq 0 ] || die "lint found problems"
