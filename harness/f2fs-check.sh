#!/bin/sh
# f2fs-check.sh IMAGE: fsck.f2fs -f --dry-run, whose exit code is 0 even
# when it would change the filesystem (1.15 "recovers" a symlink of size
# 0 that owns a block by setting its size to 4096, and exits 0): fail
# with 1 when it reports a fix or an assertion, as e2fsck -n would.
# No bound of its own: harness/disks.sh runs it under timeout(1), which
# kills its whole process group, fsck.f2fs too (TOOL_TIMEOUT).
set -eu
rc=0
out=$(fsck.f2fs -f --dry-run "$1" 2>&1) || rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || exit "$rc"
if printf '%s\n' "$out" | grep -q '^\[\(FIX\|ASSERT\)\]'; then
	exit 1
fi
