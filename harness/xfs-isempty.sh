#!/bin/sh
# xfs-isempty.sh IMAGE PATH: true when PATH in the xfs IMAGE is a symlink
# of size 0 (the registry's isempty test of the xfs columns), read with
# xfs_db, which reads an inode its verifiers would refuse.
set -eu
s=$(xfs_db -r -c "path $2" -c "print core.mode core.size" "$1" 2>&1 || true)
echo "$s" | grep -q "core.mode = 0120777" &&
	echo "$s" | grep -Eq "core.size = 0([^0-9]|$)"
