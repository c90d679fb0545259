#!/bin/sh
# disks.sh prepare OUT IMAGES FS...: the disks each filesystem needs
#   (harness/registry.sh disks): a throwaway copy of its prebuilt image
#   and of its corrupt-on-purpose image (from IMAGES), freshly made
#   scratch and crash filesystems, and a 9p share (a directory,
#   harness/share-9p.sh), all in OUT.  Writes OUT/qemu.args, the
#   QEMU arguments that attach them, one per line; each device is named
#   by its serial (FS-image, FS-bad, FS-scratch, FS-crash), so the guest
#   never guesses from the order.
# disks.sh fsck OUT TESTBIN FS...: after the boots, check every disk the
#   guest wrote to with the registry's checkers, stock and patched, and
#   print what they said as raw KTAP (TESTBIN observed), one suite per
#   filesystem; harness/report.sh judges it with the guest's results.
# Every mkfs, checker and repair runs under timeout(1) for TOOL_TIMEOUT
# seconds, every probe and isempty test for PROBE_TIMEOUT (harness/lib.sh):
# a mkfs that times out ends the run, a checker, repair or test that
# times out makes its cell "timeout" and the checks go on.
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PROGS=${PROGS:-$top/build/progs}
reg() { "$here/registry.sh" "$@"; }

# The PCI address of the Nth device (see prepare).
addr() { # n
	a=$(($1 / 8 + 8)).$(($1 % 8))
	[ $(($1 % 8)) -ne 0 ] || a=$a,multifunction=on
	echo "$a"
}

prepare() {
	out=$1 images=$2
	shift 2
	mkdir -p "$out"
	: >"$out/qemu.args"
	# QEMU's default machine has 32 PCI slots, fewer than the disks of
	# every column: eight devices share a slot as its functions, from
	# slot 8 on.  (Behind a PCI-PCI bridge, the guest gets no working
	# legacy interrupt for them without ACPI: the boot hangs.)
	n=0
	for fs in "$@"; do
		for kind in $(reg disks "$fs"); do
			f=$out/$fs-$kind.img
			case "$kind" in
			share)
				# A host directory over virtio-9p, not a disk: the
				# served tree where QEMU maps links to files, else
				# empty (passthrough makes real links on the host).
				f=$out/$fs-share model=$(reg get "$fs" share)
				if [ "$model" = mapped-xattr ]; then
					"$here/share-9p.sh" "$f" \
						"$top/fs-images/manifest.txt" common,served
				else
					rm -rf "$f" && mkdir -p "$f"
				fi
				printf '%s\n' -fsdev \
					"local,id=fsdev-$fs,path=$f,security_model=$model" \
					-device "virtio-9p-pci,fsdev=fsdev-$fs,mount_tag=$fs-share,addr=$(addr "$n")" \
					>>"$out/qemu.args"
				n=$((n + 1))
				continue ;;
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
				rc=0
				# A script of the harness is named from the top of
				# the tree; OUT and IMAGES may be relative to here.
				mk=$(reg get "$fs" mkfs)
				case "$mk" in harness/*) mk=$top/$mk ;; esac
				# shellcheck disable=SC2086
				bounded "$TOOL_TIMEOUT" $mk "$f" \
					</dev/null >"$out/mkfs-$fs.log" 2>&1 || rc=$?
				[ "$rc" -ne 124 ] ||
					die "mkfs of the $fs $kind disk timed out after ${TOOL_TIMEOUT}s (TOOL_TIMEOUT): $(reg get "$fs" mkfs) $f (its output: $out/mkfs-$fs.log)"
				[ "$rc" -eq 0 ] ||
					die "mkfs of the $fs $kind disk failed: $(cat "$out/mkfs-$fs.log")" ;;
			esac
			printf '%s\n' -drive "file=$f,format=raw,if=none,id=$fs-$kind" \
				-device "virtio-blk-pci,drive=$fs-$kind,serial=$fs-$kind,addr=$(addr "$n")" \
				>>"$out/qemu.args"
			n=$((n + 1))
		done
	done
}

# Note in LOG that a command timed out; the cell says "timeout".
timed_out() { # log secs command...
	log=$1 secs=$2
	shift 2
	echo "timeout: not done after ${secs}s, killed: $*" >>"$log"
	echo timeout
}

# A registry command CMD on FILE, through sh -c (the registry's commands
# may quote their arguments), bounded by SECS, its output added to LOG.
# 0 when it succeeded; else 1, and the cell's word printed: timeout, or
# the printf FORMAT WORD given the exit code.
on_disk() { # secs cmd file log word
	rc=0
	bounded "$1" sh -c "$2 \"\$1\"" sh "$3" >>"$4" 2>&1 </dev/null || rc=$?
	[ "$rc" -ne 0 ] || return 0
	if [ "$rc" -eq 124 ]; then
		timed_out "$4" "$1" "$2" "$3"
	else
		# shellcheck disable=SC2059 # the format is the caller's word
		printf "$5\n" "$rc"
	fi
	return 1
}

# One word for what the checkers of FS say of FILE: clean, a word from
# the registry's codes, exit:N, unreadable (the registry's probe cannot
# read the disk, so an exit code means nothing), timeout (the probe or
# a checker did not finish), missing:FILE or missing:TOOL; the tools'
# output goes to LOG.  Never fails: a verdict that cannot be had is a
# word the judge fails.
verdict() { # fs variant file log
	fs=$1 variant=$2 file=$3 log=$4
	: >"$log"
	if [ ! -f "$file" ]; then
		echo "missing:$file"
		return
	fi
	# A feature the checkers do not know, cleared first (registry:
	# precheck); done again for the patched checker, which is harmless.
	pre=$(reg get "$fs" precheck)
	if [ -n "$pre" ]; then
		on_disk "$TOOL_TIMEOUT" "$pre" "$file" "$log" 'precheck-failed:%s' ||
			return 0
	fi
	on_disk "$PROBE_TIMEOUT" "$(reg get "$fs" probe)" "$file" "$log" \
		'unreadable%.0s' || return 0
	cmds=$(reg get "$fs" check)
	while read -r tool args; do
		[ "$variant" = patched ] && tool=$PROGS/bin/$tool
		if ! command -v "$tool" >/dev/null; then
			echo "missing:$tool"
			return
		fi
		rc=0
		# shellcheck disable=SC2086
		bounded "$TOOL_TIMEOUT" "$tool" $args "$file" </dev/null >>"$log" 2>&1 ||
			rc=$?
		[ "$rc" -eq 0 ] && continue
		if [ "$rc" -eq 124 ]; then
			# shellcheck disable=SC2086
			timed_out "$log" "$TOOL_TIMEOUT" "$tool" $args "$file"
			return
		fi
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

# The registry's isempty TEST: is PATH an empty symlink in IMG?  124
# when it did not finish.
isempty() { # test img path
	bounded "$PROBE_TIMEOUT" env img="$2" path="$3" sh -c "$1" \
		</dev/null >/dev/null 2>&1
}

# Repair a copy of FILE with the registry's command KEY (repair, or
# upgrade: the patched checker only, which must then call the copy
# clean), then ask the registry's isempty test for each of LINKS: "kept"
# when all are still there, "deleted" when none is, else
# partial:deleted=PATH,...; an upgrade that kept them all but left the
# copy unclean answers kept:check-VERDICT.  The same test on the copy
# before the repair is the control: a link it cannot see there makes the
# answer control-failed:PATH.  A repair whose exit code is not one of the
# registry's "repaired" codes answers repair-failed:RC; a repair or test
# that does not finish, timeout.
repair() { # fs variant file log key links
	fs=$1 variant=$2 file=$3 log=$4 key=$5 links=$6
	test=$(reg get "$fs" isempty)
	copy=$file.repair
	[ -n "$links" ] || { echo "no-empty-links-in-manifest"; return; }
	cp --sparse=always "$file" "$copy" 2>"$log" || { echo "missing:$file"; return; }
	for p in $links; do
		rc=0
		isempty "$test" "$copy" "$p" || rc=$?
		[ "$rc" -eq 0 ] && continue
		rm -f "$copy"
		if [ "$rc" -eq 124 ]; then
			timed_out "$log" "$PROBE_TIMEOUT" "isempty (before the repair): $p"
		else
			echo "control-failed:$p"
		fi
		return
	done
	# shellcheck disable=SC2046
	set -- $(reg get "$fs" "$key")
	[ "$variant" = patched ] && { t=$PROGS/bin/$1; shift; set -- "$t" "$@"; }
	rc=0
	bounded "$TOOL_TIMEOUT" "$@" "$copy" </dev/null >"$log" 2>&1 || rc=$?
	if [ "$rc" -eq 124 ]; then
		rm -f "$copy"
		timed_out "$log" "$TOOL_TIMEOUT" "$@" "$copy"
		return
	fi
	case " $(reg get "$fs" repaired) " in
	*" $rc "*) ;;
	*)	rm -f "$copy"
		echo "repair-failed:$rc"
		return ;;
	esac
	kept='' gone=''
	for p in $links; do
		rc=0
		isempty "$test" "$copy" "$p" || rc=$?
		case "$rc" in
		0) kept="$kept,$p" ;;
		124)
			rm -f "$copy"
			timed_out "$log" "$PROBE_TIMEOUT" "isempty (after the repair): $p"
			return ;;
		*) gone="$gone,$p" ;;
		esac
	done
	after=clean
	[ "$key" = upgrade ] && [ -z "$gone" ] &&
		after=$(verdict "$fs" patched "$copy" "$log.check")
	rm -f "$copy"
	if [ -z "$gone" ]; then
		if [ "$after" = clean ]; then
			echo kept
		else
			echo "kept:check-$after"
		fi
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
			# The repair row: where the registry has a repairing run
			# (and so an isempty test) for the image.
			case " $disks " in
			*" image "*)
				[ -z "$(reg get "$fs" repair)" ] ||
					set -- "$@" "$v-repair-image=$(repair "$fs" "$v" \
						"$out/$fs-image.img" "$out/repair-$v-$fs.log" \
						repair "$(reg empty-links "$top/fs-images/manifest.txt" \
						"$(reg word "$fs" image 2)")")=kept" ;;
			esac
			# The upgrade row: the bad image's links made valid, by
			# the patched checker only.
			case "$v: $disks " in
			"patched:"*" bad "*)
				[ -z "$(reg get "$fs" upgrade)" ] ||
					set -- "$@" "$v-upgrade-bad=$(repair "$fs" "$v" \
						"$out/$fs-bad.img" "$out/upgrade-$fs.log" \
						upgrade "$(reg paths "$top/fs-images/manifest.txt" \
						"$(reg word "$fs" bad 2)")")=kept" ;;
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
