#!/bin/sh
# cpio-empty-links.sh NAME...: write to stdout a newc cpio archive holding
# one empty symlink per NAME.  No host tool can make one (Linux refuses
# symlink("") and gen_init_cpio's list format cannot spell an empty
# target), yet the kernel's initramfs unpacker creates it through
# init_symlink(): this is how the guest gets an empty link to follow on a
# kernel that cannot create one.  Append it after the main archive.
set -eu

ino=900000
entry() { # name mode nlink filesize
	namesize=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		"$ino" "$2" 0 0 "$3" 0 "$4" 0 0 0 0 "$namesize" 0
	printf '%s\0' "$1"
	pad=$(((4 - (110 + namesize) % 4) % 4))
	[ "$pad" -eq 0 ] || head -c "$pad" /dev/zero
	ino=$((ino + 1))
}

for name in "$@"; do
	entry "${name#/}" $((0120777)) 1 0
done
entry TRAILER!!! 0 1 0
