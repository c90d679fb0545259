#!/bin/sh
# disks.sh prepare OUT IMAGES FS...: the disks each filesystem needs
#   (harness/registry.sh disks): a throwaway copy of its prebuilt image
#   and of its corrupt-on-purpose image (from IMAGES), and freshly made
#   scratch and crash filesystems, all in OUT.  Writes OUT/qemu.args, the
#   QEMU arguments that attach them, one per line; each device is named
#   by its serial (FS-image, FS-bad, FS-scratch, FS-crash), so the guest
#   never guesses from the order.
# disks.sh fsck OUT TESTBIN FS...: after the boots, check every disk the
#   guest wrote to with the registry's checkers, stock and patched, and
#   print what they said as raw KTAP (TESTBIN observed), one suite per
#   filesystem; harness/report.sh judges it with the guest's results.
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PROGS=${PROGS:-$top/build/progs}
reg() { "$here/registry.sh" "$@"; }

prepare() {
	out=$1 images=$2
	shift 2
	mkdir -p "$out"
	: >"$out/qemu.args"
	for fs in "$@"; do
		for kind in $(reg disks "$fs"); do
			f=$out/$fs-$kind.img
			case "$kind" in
			image|bad)
				name=$(reg word "$fs" "$kind" 1)
				label=image
				[ "$kind" = bad ] && label="corrupt-on-purpose image"
				[ -f "$images/$name.img" ] ||
					die "no prebuilt $label of $fs at $images/$name.img (harness/filesystems.txt: $fs $kind $name)"
				cp --sparse=always "$images/$name.img" "$f" ;;
			*)
				rm -f "$f"
				truncate -s "$(reg get "$fs" size)" "$f"
				# shellcheck disable=SC2046
				$(reg get "$fs" mkfs) "$f" >"$out/mkfs-$fs.log" 2>&1 ||
					die "mkfs of the $fs $kind disk failed: $(cat "$out/mkfs-$fs.log")" ;;
			esac
			printf '%s\n' -drive "file=$f,format=raw,if=none,id=$fs-$kind" \
				-device "virtio-blk-pci,drive=$fs-$kind,serial=$fs-$kind" \
				>>"$out/qemu.args"
		done
	done
}

# One word for what the checkers of FS say of FILE: clean, a word from
# the registry's codes, exit:N, or missing:TOOL; their output goes to LOG.
verdict() { # fs variant file log
	fs=$1 variant=$2 file=$3 log=$4
	: >"$log"
	cmds=$(reg get "$fs" check)
	while read -r tool args; do
		[ "$variant" = patched ] && tool=$PROGS/bin/$tool
		if ! command -v "$tool" >/dev/null; then
			echo "missing:$tool"
			return
		fi
		rc=0
		# shellcheck disable=SC2086
		"$tool" $args "$file" </dev/null >>"$log" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] && continue
		for c in $(reg get "$fs" codes); do
			if [ "${c%%=*}" = "$rc" ]; then
				echo "${c#*=}"
				return
			fi
		done
		echo "exit:$rc"
		return
	done <<EOF
$cmds
EOF
	echo clean
}

# Repair a copy of the image, then ask the registry's islink test for
# each empty link the manifest lists on it: "kept" when all are still
# there, "deleted" when none is, else partial:deleted=PATH,...
repair() { # fs variant file log
	fs=$1 variant=$2 file=$3 log=$4
	set=$(reg word "$fs" image 2)
	copy=$file.repair
	cp --sparse=always "$file" "$copy"
	# shellcheck disable=SC2046
	set -- $(reg get "$fs" repair)
	[ "$variant" = patched ] && { t=$PROGS/bin/$1; shift; set -- "$t" "$@"; }
	"$@" "$copy" >"$log" 2>&1 || true
	kept='' gone=''
	links=$(reg empty-links "$top/fs-images/manifest.txt" "$set")
	for p in $links; do
		if img=$copy path=$p sh -c "$(reg get "$fs" islink)" >/dev/null 2>&1; then
			kept="$kept,$p"
		else
			gone="$gone,$p"
		fi
	done
	rm -f "$copy"
	if [ -z "$kept$gone" ]; then
		echo "no-empty-links-in-manifest"
	elif [ -z "$gone" ]; then
		echo kept
	elif [ -z "$kept" ]; then
		echo deleted
	else
		echo "partial:deleted=${gone#,}"
	fi
}

fsck_all() {
	out=$1 testbin=$2
	shift 2
	cd "$top"
	n=0
	for fs in "$@"; do
		reg has "$fs" fsck && n=$((n + 1))
	done
	echo "KTAP version 1"
	echo "1..$n"
	n=0
	for fs in "$@"; do
		reg has "$fs" fsck || continue
		n=$((n + 1))
		disks=$(reg disks "$fs")
		variants=stock
		[ -n "$(reg get "$fs" progs)" ] && variants="stock patched"
		set --
		for v in $variants; do
			for kind in $disks; do
				f=$out/$fs-$kind.img
				row=$kind want=clean
				# Corrupt on purpose: the checker must still say so.
				[ "$kind" = bad ] && row=bad-image want=errors
				set -- "$@" "$v-$row=$(verdict "$fs" "$v" "$f" \
					"$out/fsck-$v-$fs-$kind.log")=$want"
			done
			case " $disks " in
			*" image "*)
				set -- "$@" "$v-repair-image=$(repair "$fs" "$v" \
					"$out/$fs-image.img" "$out/repair-$v-$fs.log")=kept" ;;
			esac
		done
		"$testbin" observed --fs "$fs" --source fsck --index "$n" "$@"
	done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
prepare) prepare "$@" ;;
fsck) fsck_all "$@" ;;
*) die "usage: disks.sh prepare|fsck ..." ;;
esac
