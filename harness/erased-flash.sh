#!/bin/sh
# erased-flash.sh FILE: fill FILE (already of the disk's size) with 0xff,
# as erased NOR flash reads, so that block2mtd in the guest offers an
# erased MTD device and UBI attaches to it without finding corruption.
set -eu
size=$(stat -c %s "$1")
tr '\0' '\377' </dev/zero | head -c "$size" >"$1.tmp"
mv "$1.tmp" "$1"
