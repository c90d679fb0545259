#!/bin/sh
# /init of the test guest (busybox sh).  Reads its orders from the kernel
# command line (emptylink.kernel=, emptylink.fs=, emptylink.selftest=),
# runs the test table once per filesystem and source, prints KTAP on the
# console, then dmesg between markers, and reboots (QEMU runs with
# -no-reboot, so that ends the run).  Every marker the host looks for
# starts with "EMPTYLINK-".
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^emptylink\.$1=//p"
}
kernel=$(arg kernel)
fslist=$(arg fs | tr , ' ')
selftest=$(arg selftest)
# "main" (the default), or "recover": the boot after main's crash.
phase=$(arg phase)
phase=${phase:-main}
echo "EMPTYLINK-BOOTED $(uname -r) kernel=$kernel fs=$fslist phase=$phase"

case "$selftest" in
panic) echo "EMPTYLINK-SELFTEST: init exits, the kernel must panic"; exit 1 ;;
hang) echo "EMPTYLINK-SELFTEST: hanging"; while :; do sleep 3600; done ;;
esac

# Each filesystem writes its part of the plan, one step per line:
#   run GROUP FS ARGS... one KTAP suite: /emptylink with these arguments
#   sh GROUP STEP CMD... a set-up step; if it fails, the group's later
#                        suites report "broken:STEP" instead of running
# A group is what one failure spoils: an image, or a scratch filesystem.
plan_tmpfs() {
	echo "sh tmpfs_scr mount mkdir -p /mnt/tmpfs && mount -t tmpfs tmpfs /mnt/tmpfs"
	echo "run tmpfs_scr tmpfs --dir /mnt/tmpfs/run"
	# The initramfs is tmpfs too; its empty link came in through cpio.
	echo "sh tmpfs_img rootfs-is-tmpfs test \"\$(stat -f -c %T /)\" = tmpfs"
	echo "run tmpfs_img tmpfs --dir /fixtures/run --from /fixtures/empty"
}

# The device QEMU was given with serial=NAME (see harness/disks.sh).
disk() {
	for s in /sys/block/*/serial; do
		[ "$(cat "$s" 2>/dev/null)" = "$1" ] || continue
		d=${s%/serial}
		echo "/dev/${d##*/}"
		return
	done
	echo "/dev/missing-$1"
}

# A filesystem's name is its mount type, or TYPE_LAYOUT for a variant
# made with other mkfs options (harness/disks.sh), e.g. ext4_inline.
plan_image() {
	fs=$1 t=${1%%_*} img=$(disk "$1-image") gi=${1}_img
	echo "sh $gi mount mkdir -p /img/$fs && mount -t $t $img /img/$fs"
	echo "run $gi $fs --manifest /manifest.txt --dir /img/$fs"
	echo "run $gi $fs --dir /img/$fs/run --from /img/$fs/empty"
	echo "sh $gi umount umount /img/$fs"
}

plan_scratch() {
	fs=$1 t=${1%%_*} scr=$(disk "$1-scratch") gs=${1}_scr
	echo "sh $gs mount mkdir -p /mnt/$fs && mount -t $t $scr /mnt/$fs"
	echo "run $gs $fs --dir /mnt/$fs/run"
	echo "sh $gs persist-setup /emptylink --persist-setup /mnt/$fs/persist"
	echo "sh $gs remount umount /mnt/$fs && mount -t $t $scr /mnt/$fs"
	echo "run $gs $fs --persist /mnt/$fs/persist --source remount"
	echo "sh $gs drop-caches echo 3 >/proc/sys/vm/drop_caches"
	echo "run $gs $fs --persist /mnt/$fs/persist --source dropcaches"
	echo "sh $gs umount umount /mnt/$fs"
}

plan_disk() {
	plan_image "$1"
	plan_scratch "$1"
}
# The image of inodes that are corrupt on purpose (fs-images/manifest.txt):
# the kernel must still refuse them.  Kernel reports of corruption are
# allowed between two markers in the kernel log, and with "expect" they
# must come (harness/report.sh).
plan_bad() { # fs expect|allow
	g=${1}_bad t=${1%%_*}
	echo "sh $g mount mkdir -p /img/$1-bad && mount -t $t $(disk "$1-bad") /img/$1-bad"
	echo "sh $g mark echo \"<5>emptylink: $2 corruption: begin\" >/dev/kmsg"
	echo "run $g $1 --manifest /manifest.txt --set $1-bad --source bad-image --dir /img/$1-bad"
	echo "sh $g mark echo \"<5>emptylink: $2 corruption: end\" >/dev/kmsg"
	echo "sh $g umount umount /img/$1-bad"
}

# ext4 accepts the bad inode silently on vanilla: allow, not expect.
plan_ext4() {
	plan_disk ext4
	plan_bad ext4 allow
}
# ext4 in the other layouts a link can live in: scratch filesystems only.
plan_ext4_inline() { plan_scratch ext4_inline; }
plan_ext4_eainode() { plan_scratch ext4_eainode; }

# The table in an fscrypt directory (a test key, policy v2), then a
# remount, which drops the key, and the links read back once it is added
# again.
plan_ext4_crypt() {
	fs=ext4_crypt scr=$(disk ext4_crypt-scratch) g=ext4_crypt_scr
	echo "sh $g mount mkdir -p /mnt/$fs && mount -t ext4 $scr /mnt/$fs"
	echo "run $g $fs --dir /mnt/$fs/run --fscrypt"
	echo "sh $g remount umount /mnt/$fs && mount -t ext4 $scr /mnt/$fs"
	echo "sh $g unlock /emptylink --fscrypt-unlock /mnt/$fs"
	echo "run $g $fs --links /mnt/$fs/run --source remount read.readlink/e self.link/h self.rename_to_subdir/sub/e"
	echo "sh $g umount umount /mnt/$fs"
}
plan_xfs() {
	plan_disk xfs
	plan_bad xfs expect
}

# btrfs also snapshots the image and the scratch filesystem, and sends
# a read-only snapshot of the image into the scratch filesystem (the
# static btrfs tool from patches/btrfs-progs is /bin/btrfs).
plan_btrfs() {
	plan_disk btrfs
	g=btrfs_snap img=$(disk btrfs-image) scr=$(disk btrfs-scratch)
	echo "sh $g mount mount -t btrfs $img /img/btrfs && mount -t btrfs $scr /mnt/btrfs"
	echo "sh $g snapshot btrfs subvolume snapshot /img/btrfs /img/btrfs/snap && btrfs subvolume snapshot /mnt/btrfs /mnt/btrfs/snap"
	echo "run $g btrfs --links / --source snapshot img/btrfs/snap/empty img/btrfs/snap/dir/empty img/btrfs/snap/inline0 mnt/btrfs/snap/run/read.readlink/e"
	echo "sh $g send btrfs subvolume snapshot -r /img/btrfs /img/btrfs/ro && btrfs send -f /send.stream /img/btrfs/ro"
	echo "sh $g receive btrfs receive -f /send.stream /mnt/btrfs"
	echo "run $g btrfs --links /mnt/btrfs/ro --source send empty dir/empty inline0"
	echo "sh $g umount umount /img/btrfs && umount /mnt/btrfs"
}

# The main boot's last steps: links on the crash disk, left dirty, since
# the guest then reboots without syncing or unmounting (see crash.c).
plan_crash() {
	fs=$1 t=${1%%_*} dev=$(disk "$1-crash") g=${1}_crash
	echo "sh $g mount mkdir -p /mnt/$fs-crash && mount -t $t $dev /mnt/$fs-crash"
	echo "sh $g crash-setup /emptylink --crash-setup /mnt/$fs-crash/crash"
}

# The whole plan of the boot after the crash.
plan_recover() {
	fs=$1 t=${1%%_*} dev=$(disk "$1-crash") g=${1}_crash
	echo "sh $g mount mkdir -p /mnt/$fs-crash && mount -t $t $dev /mnt/$fs-crash"
	echo "run $g $fs --crash /mnt/$fs-crash/crash --source crash"
	echo "sh $g remove rm -rf /mnt/$fs-crash/crash"
	echo "sh $g remount umount /mnt/$fs-crash && mount -t $t $dev /mnt/$fs-crash"
	echo "run $g $fs --cleanup /mnt/$fs-crash/crash --source cleanup"
	echo "sh $g umount umount /mnt/$fs-crash"
}

plan=/plan
: >"$plan"
for fs in $fslist; do
	case "$phase:$fs" in
	main:*)
		if command -v "plan_$fs" >/dev/null; then
			"plan_$fs" >>"$plan"
		else
			echo "EMPTYLINK-ERROR: no plan for filesystem $fs"
		fi ;;
	recover:tmpfs) ;;
	recover:*) plan_recover "$fs" >>"$plan" ;;
	esac
done
if [ "$phase" = main ]; then
	for fs in $fslist; do
		[ "$fs" = tmpfs ] || plan_crash "$fs" >>"$plan"
	done
fi

echo "KTAP version 1"
echo "1..$(grep -c '^run ' "$plan")"
i=0
failflag=--selftest-fail
[ "$selftest" = fail ] || failflag=
while read -r kind group rest; do
	eval "broken=\${broken_$group:-}"
	case "$kind" in
	sh)
		step=${rest%% *}
		[ -n "$broken" ] && continue
		if ! sh -c "${rest#* }" </dev/null >/step.out 2>&1; then
			echo "# $group: step $step failed: $(head -c 200 /step.out | tr '\n' ' ')"
			eval "broken_$group=$step"
		fi ;;
	run)
		i=$((i + 1))
		fs=${rest%% *}
		rest=${rest#* }
		# shellcheck disable=SC2086
		/emptylink --kernel "$kernel" --fs "$fs" --expect /expected.txt \
			--index "$i" ${broken:+--broken "$broken"} $rest $failflag </dev/null
		failflag= ;;
	esac
done <"$plan"

echo "EMPTYLINK-DMESG-BEGIN"
dmesg
echo "EMPTYLINK-DMESG-END"
echo "EMPTYLINK-DONE"
if [ "$phase" = main ]; then
	reboot -f -n	# no sync, no unmount: the crash disks stay dirty
else
	sync
	reboot -f
fi
