#!/bin/sh
# bisect-check.sh SRC LOG INITRD IMAGES OUT: for each patch of the series,
# in a worktree of its own (SRC/bisect): build the kernel, then boot it
# once with the filesystems the patch can change attached (columns_of;
# harness/boot-kernel.sh, the main boot only) and require that the run completes
# and that dmesg shows no trouble beyond what tests/dmesg-expected.txt
# documents for such a kernel (harness/dmesg-check.sh ... bisect: only the
# lines marked bisect or *, so a line vanilla shows that a kernel part-way
# through the series may still show must say so).  The cases'
# results are not judged here (the expectations describe the two ends of
# the series, vanilla and patched); what a bisection needs is a tree that
# builds and a kernel that runs.  ccache makes every build after the
# first cost only the files the patch touches.
set -eu
. "$(dirname "$0")/lib.sh"

src=$1 log=$2 initrd=$3 images=$4 out=$5
here=$(cd "$(dirname "$0")" && pwd)
tree=$src/bisect
fslist=$(echo "${FS:-$("$here/registry.sh" names)}" | tr "\n" " ")
"$here/registry.sh" validate || die "harness/filesystems.txt is malformed"
# shellcheck disable=SC2086
"$here/registry.sh" known $fslist || die "FS names a filesystem the registry does not have"
gitc() { git -c advice.detachedHead=false "$@"; }

if [ ! -e "$tree/.git" ]; then
	rm -rf "$tree"
	gitc -C "$src/vanilla" worktree prune
	gitc -C "$src/vanilla" worktree add -q --detach "$(cd "$src" && pwd)/bisect" base ||
		die "cannot make the bisect worktree"
fi
accel=$("$here/accel.sh" "$src/vanilla/arch/x86/boot/bzImage")
commits=$(git -C "$src/patched" rev-list --reverse base..HEAD)

# The columns a patch can change: a patch that touches only fs/DIR/...
# for filesystems the registry has (as a type or a name) boots those
# columns; anything else (the VFS, fs/crypto, mm, headers) boots them all.
columns_of() { # commit
	dirs=$(git -C "$src/patched" diff-tree --no-commit-id --name-only -r "$1" |
		awk -F/ '$1 == "fs" && NF > 2 { print $2; next } { print "*" }' | sort -u)
	if echo "$dirs" | grep -qx '\*'; then
		echo "$fslist"
		return
	fi
	out=
	for fs in $fslist; do
		t=$("$here/registry.sh" get "$fs" type)
		for dir in $dirs; do
			[ "$dir" = "${t:-$fs}" ] && out="$out $fs"
		done
	done
	[ -n "$out" ] && echo "${out# }" || echo "$fslist"
}
n=0
for c in $commits; do
	n=$((n + 1))
	gitc -C "$tree" checkout -q --detach "$c"
	say "bisect-check: patch $n: $(git -C "$tree" log -1 --format=%s)"
	"$here/kernel-build.sh" "$tree" "$log" >/dev/null ||
		die "the tree does not build after patch $n (log: $log)"
	d=$out/patch-$n
	boot=$(columns_of "$c")
	say "bisect-check: patch $n: booting with $boot"
	# shellcheck disable=SC2086
	"$here/boot-kernel.sh" "$tree/arch/x86/boot/bzImage" "$initrd" "$images" \
		"$accel" "patch-$n" "$d" main $boot >/dev/null ||
		die "patch $n: $(cat "$d/verdict") (console: $d/console.log)"
	"$here/dmesg-check.sh" "$d/dmesg.log" bisect >"$d/dmesg-problems" ||
		die "patch $n: the kernel complained (dmesg: $d/dmesg.log):
$(head -n 5 "$d/dmesg-problems")"
done
say "bisect-check: the tree builds and boots after each of the $n patches"
