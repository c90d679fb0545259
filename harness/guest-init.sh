#!/bin/sh
# /init of the test guest (busybox sh).  Reads its orders from the kernel
# command line (emptylink.kernel=, emptylink.fs=, emptylink.phase=,
# emptylink.selftest=), runs the suites that the registry
# (/filesystems.txt) names for each filesystem, and reboots (QEMU runs
# with -no-reboot, so that ends the run).
#
# Three serial ports keep three streams apart: the console (ttyS0) has
# the kernel's messages and the markers the host looks for
# ("EMPTYLINK-..."), ttyS1 the KTAP document and nothing else, ttyS2 the
# guest's dmesg at the end.  Kernel messages provoked on purpose cannot
# land among result lines.
#
# The guest only observes: /emptylink prints what each case saw, and the
# host judges it (harness/report.sh).
/bin/busybox --install -s /bin
export PATH=/bin REGISTRY=/filesystems.txt
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^emptylink\.$1=//p"
}
kernel=$(arg kernel)
fslist=$(arg fs | tr , ' ')
selftest=$(arg selftest)
# "1": write the tree of the prebuilt images onto each FS-image disk
# (fs-images/make-images.sh, recipe "kernel") instead of testing.
mkimage=$(arg mkimage)
placeholder=$(arg placeholder)
corrupt=$(arg corrupt)
# "main" (the default), or "recover": the boot after main's crash.
phase=$(arg phase)
phase=${phase:-main}
# Bounds in seconds on each suite (run) and each set-up step (step): one
# that hangs loses its own cells, reported as such, not the whole boot.
# A suite takes seconds even under TCG; the boot's own bound
# (BOOT_TIMEOUT, 900 s, harness/boot-kernel.sh) leaves room for a hang
# and the rest of the run.
SUITE_TIMEOUT=300 STEP_TIMEOUT=120
echo "EMPTYLINK-BOOTED $(uname -r) kernel=$kernel fs=$fslist phase=$phase"

case "$selftest" in
panic) echo "EMPTYLINK-SELFTEST: init exits, the kernel must panic"; exit 1 ;;
hang) echo "EMPTYLINK-SELFTEST: hanging"; while :; do sleep 3600; done ;;
esac

# A failed "exec 3>" would end init; without ttyS1 the host finds no
# KTAP and calls the boot incomplete.
if [ -c /dev/ttyS1 ]; then
	exec 3>/dev/ttyS1
else
	echo "EMPTYLINK-ERROR: no /dev/ttyS1 for the KTAP document"
	exec 3>/dev/null
fi
reg() { /registry.sh "$@"; }

# The plan runs twice: first with dry=1, only to count the suites for
# the KTAP plan line, then for real.
dry=1 count=0 failflag=
[ "$selftest" = fail ] && failflag=--selftest-fail
mkdir -p /broken

# guard SECS CMD ARGS...: CMD (a shell function too) in the background;
# if it is not done in SECS seconds, it is killed with every process
# under it, and guard returns 124; else CMD's exit status.  Not busybox's
# timeout: that cannot run a shell function (attach, mount_fs) and
# signals only the process it starts, not the hung mount under it.  A
# process stuck in the kernel (D state) survives even SIGKILL: then guard
# waits on, and only the boot's own bound (harness/qemu-boot.sh) ends the
# run, as a "timeout" of the whole boot.
guard() {
	guard_secs=$1
	shift
	rm -f /guard.fired
	"$@" &
	guard_job=$!
	guard_watch "$guard_secs" "$guard_job" &
	guard_dog=$!
	guard_rc=0
	wait "$guard_job" || guard_rc=$?
	kill "$guard_dog" 2>/dev/null
	wait "$guard_dog" 2>/dev/null
	if [ -f /guard.fired ]; then
		rm -f /guard.fired
		return 124
	fi
	return "$guard_rc"
}

# guard's watchdog, in the background: gone once PID is, else after SECS
# it says so (/guard.fired) and kills PID's tree.
guard_watch() { # secs pid
	n=0
	while [ "$n" -lt "$1" ]; do
		sleep 1
		kill -0 "$2" 2>/dev/null || exit 0
		n=$((n + 1))
	done
	: >/guard.fired
	kill_tree "$2"
}

# PID and every process under it: stopped first, so that it starts no
# more, then killed from the leaves up.
kill_tree() { # pid
	kill -STOP "$1" 2>/dev/null
	for c in $(ps -o pid,ppid | awk -v p="$1" '$2 == p { print $1 }'); do
		kill_tree "$c"
	done
	kill -KILL "$1" 2>/dev/null
}

# FS.SOURCE, the name of the suite "emptylink SUBCOMMAND ARGS..." prints:
# --fs and --source from ARGS, else the subcommand's default source
# (tests/emptylink.c: table's is scratch, or image with --from;
# manifest's is manifest; the others need --source).
suite_name() { # subcommand args...
	cmd=$1 fs='?' src='' from='' prev=''
	for a in "$@"; do
		case "$prev" in
		--fs) fs=$a ;;
		--source) src=$a ;;
		--from) from=1 ;;
		esac
		prev=$a
	done
	if [ -z "$src" ]; then
		case "$cmd" in
		table) src=scratch; [ -z "$from" ] || src=image ;;
		*) src=$cmd ;;
		esac
	fi
	echo "$fs.$src"
}

# run GROUP SUBCOMMAND ARGS...: one KTAP suite.  A group is what one
# failed set-up step spoils (an image, a scratch disk): after that, its
# suites report every case as broken:STEP instead of running.  A suite
# that does not end in SUITE_TIMEOUT seconds is killed, and its result
# line says so ("not ok N FS.SOURCE # timeout after Ns"): the host's
# judge closes its subtest, cut short, with that problem.
run() {
	grp=$1
	shift
	count=$((count + 1))
	[ "$dry" = 1 ] && return 0
	b=
	[ -f "/broken/$grp" ] && b=$(cat "/broken/$grp")
	# The self-test's failing case rides on the first table suite.
	f=
	if [ "$1" = table ] && [ -n "$failflag" ]; then
		f=$failflag failflag=
	fi
	guard "$SUITE_TIMEOUT" /emptylink "$@" --index "$count" \
		${b:+--broken "$b"} $f </dev/null >&3
	[ $? -eq 124 ] || return 0
	sname=$(suite_name "$@")
	echo "emptylink: suite $count $sname timed out after ${SUITE_TIMEOUT}s: killed"
	echo "not ok $count $sname # timeout after ${SUITE_TIMEOUT}s" >&3
}

# step GROUP NAME CMD ARGS...: a set-up step of GROUP.  One that does
# not end in STEP_TIMEOUT seconds is killed and fails, its comment line
# saying "failed: timeout after Ns"; /broken/GROUP holds NAME all the
# same (harness/report.sh looks for broken:NAME).
step() {
	grp=$1 name=$2
	shift 2
	[ "$dry" = 1 ] && return 0
	[ -f "/broken/$grp" ] && return 0
	guard "$STEP_TIMEOUT" "$@" </dev/null >/step.out 2>&1
	case $? in
	0) return 0 ;;
	124) why="timeout after ${STEP_TIMEOUT}s: " ;;
	*) why= ;;
	esac
	echo "# $grp: step $name failed: $why$(head -c 200 /step.out | tr '\n' ' ')" >&3
	echo "$name" >"/broken/$grp"
}

# The device QEMU was given with serial=NAME (harness/disks.sh).
disk() {
	for s in /sys/block/*/serial; do
		[ "$(cat "$s" 2>/dev/null)" = "$1" ] || continue
		d=${s%/serial}
		echo "/dev/${d##*/}"
		return
	done
	echo "/dev/missing-$1"
}

fstype() {
	t=$(reg get "$1" type)
	echo "${t:-$1}"
}

# attach FS KIND: what mount gets for FS's disk KIND (image, scratch),
# kept in /src/FS-KIND: the disk itself, or what the registry's setup
# makes of it (the command gets the disk and KIND, and prints the mount
# source: ubifs' UBI volume on an MTD device over the disk).
attach() { # fs kind
	s=$(reg get "$1" setup) attach_fs=$1
	mkdir -p /src
	if [ -z "$s" ]; then
		disk "$1-$2" >"/src/$1-$2"
	else
		# shellcheck disable=SC2086 # the registry's words
		$s "$(disk "$1-$2")" "$2" >"/src/$1-$2"
	fi
}

# The mount source attach found (empty before it ran, or in the dry run).
src() { # fs kind
	cat "/src/$1-$2" 2>/dev/null || true
}

# The mount source of a filesystem without a scratch disk: the registry's
# device (jffs2's mtdram), or for tmpfs and ramfs the type.
diskless_dev() {
	d=$(reg get "$1" device)
	echo "${d:-$(fstype "$1")}"
}

# The registry's options, with @SRC standing for the mount source: the
# directory where overlayfs' setup mounted its upper layer's disk.
mount_fs() { # fs dev dir
	m=$(reg get "$1" mounter | sed "s|@SRC|$2|g")
	if [ -n "$m" ]; then
		# shellcheck disable=SC2086 # the registry's words
		mkdir -p "$3" && $m "$3"
		return
	fi
	o=$(reg get "$1" options | sed "s|@SRC|$2|g")
	mkdir -p "$3" && mount -t "$(fstype "$1")" ${o:+-o "$o"} "$2" "$3"
}

under_mount() { # dir
	awk -v d="$1" '$2 == d { f = 1 } END { exit !f }' /proc/mounts
}

# The filesystem below a mount source, unmounted after the one on top of
# it, so that its disk is left clean for the host's checker, and mounted
# again by a remount, so that the links come back from that disk:
# overlayfs' upper layer (the source is its mount point, ovl_setup), or
# the disk knfsd exports (127.0.0.1:/NAME is /srv/nfs/NAME, nfs_setup),
# whose server is stopped first and started again after.
below() { # dev
	case $1 in
	"$NFS_HOST":/*) echo "$NFS_ROOT/${1#"$NFS_HOST":/}" ;;
	*) if under_mount "$1"; then echo "$1"; fi ;;
	esac
}

remount_fs() { # fs dev dir
	b=$(below "$2")
	umount "$3" || return 1
	if [ -n "$b" ]; then
		# shellcheck disable=SC2046 # device and type: no blanks
		set -- "$@" $(awk -v d="$b" '$2 == d { print $1, $3 }' /proc/mounts)
		case $2 in "$NFS_HOST":/*) nfs_stop || return 1 ;; esac
		umount "$b" && mount -t "$5" "$4" "$b" || return 1
		case $2 in "$NFS_HOST":/*) nfs_start "$b" || return 1 ;; esac
	fi
	mount_fs "$1" "$2" "$3"
}

umount_fs() { # dev dir
	b=$(below "$1")
	umount "$2" || return 1
	[ -n "$b" ] || return 0
	case $1 in "$NFS_HOST":/*) nfs_stop || return 1 ;; esac
	umount "$b"
}

# The setup of an overlayfs column: its scratch DISK, made by the
# registry's mkfs, becomes the upper layer (mounted at /ovl/FS-KIND,
# FS the column attach works on, with upper/ and work/ in it); the
# lower layer is the initramfs's /ovl-lower, whose empty links
# init_symlink() unpacked on any kernel.  Prints the directory, the
# mount source that @SRC stands for.
# TYPE may be TYPE:OPTIONS, the upper filesystem's mount options.
ovl_setup() { # type[:options] disk kind
	d=/ovl/$attach_fs-$3 t=${1%%:*} o=
	case "$1" in *:*) o=${1#*:} ;; esac
	mkdir -p "$d" && mount -t "$t" ${o:+-o "$o"} "$2" "$d" &&
		mkdir -p "$d/upper" "$d/work" && echo "$d"
}

# NFS: knfsd and the NFS client over loopback in this guest, without
# nfs-utils (docs/decisions.md, "NFS: knfsd and the client in the
# guest").  The registry's setup "nfs_setup TYPE" mounts the column's
# disk at /srv/nfs/NAME, starts knfsd (NFSv3 and NFSv4; a stub rpcbind
# takes the registrations of NFSv3 and of lockd) and exports it; the
# mount source is 127.0.0.1:/NAME.  The export caches
# that rpc.mountd would fill are written here, with an expiry far away,
# and knfsd is stopped before its disk is unmounted: that drops every
# export and every open file it holds.
NFSD=/proc/fs/nfsd NFS_ROOT=/srv/nfs NFS_EXPIRY=2147483647 NFS_HOST=127.0.0.1

nfs_cache() { # cache line
	echo "$2" >"/proc/net/rpc/$1/channel"
}

# fsid N's key in nfsd.fh: the fsid as a host-endian (x86: little) u32.
nfs_export() { # dir fsid
	nfs_cache nfsd.fh "local 1 \\x$(printf %02x "$2")000000 $NFS_EXPIRY $1" &&
		nfs_cache nfsd.export "local $1 $NFS_EXPIRY 9218 65534 65534 $2"
}

# The NFSv4 pseudo-root (fsid 0): a tmpfs of its own, under which each
# exported disk is mounted.
nfs_root() {
	under_mount "$NFS_ROOT" && return 0
	mkdir -p "$NFS_ROOT" && mount -t tmpfs nfsroot "$NFS_ROOT"
}

nfs_start() { # dir-to-export
	if [ ! -f "$NFSD/threads" ]; then
		mkdir -p "$NFSD" && mount -t nfsd nfsd "$NFSD" || return 1
	fi
	if [ ! -f /run/rpcbind-stub ]; then
		mkdir -p /run && /emptylink rpcbind-stub && : >/run/rpcbind-stub || return 1
	fi
	ip link set lo up && mkdir -p /var/lib/nfs/v4recovery &&
		echo "+3 +4" >"$NFSD/versions" &&
		echo "tcp 2049" >"$NFSD/portlist" &&
		echo 2 >"$NFSD/threads" &&
		nfs_cache auth.unix.ip "nfsd $NFS_HOST $NFS_EXPIRY local" &&
		nfs_export "$NFS_ROOT" 0 && nfs_export "$1" 1 &&
		echo Y >"$NFSD/v4_end_grace"
}

nfs_stop() {
	[ -f "$NFSD/threads" ] || return 0
	echo 0 >"$NFSD/threads"
}

# Prints the mount source (attach's contract).
nfs_setup() { # type disk kind
	d=$NFS_ROOT/$attach_fs-$3
	nfs_stop && nfs_root && mkdir -p "$d" && mount -t "$1" "$2" "$d" && nfs_start "$d" &&
		echo "$NFS_HOST:/$attach_fs-$3"
}

# The mounter of an NFSv3 column (there is no rpc.mountd to ask for the
# root file handle: /emptylink takes it from knfsd).
nfs3_mount() { # source dir
	/emptylink nfs3-mount "$1" "$(below "$1")" "$2"
}

# The setup of an eCryptfs column: its disk, mounted at
# /ecryptfs/FS-KIND, is the lower directory, the mount source; the test
# key goes into the user keyring.  With "plant" (filename encryption), an
# empty link named "empty" through eCryptfs is made in the lower
# directory under the encrypted name eCryptfs gives a file "empty": a
# file made through a mount of it, then replaced by symlink("") below.
# A kernel that cannot make an empty link on the lower filesystem
# (vanilla) is left without "empty": the suite that needs it then
# observes the ENOENT of its link() (setup:ENOENT).
ecryptfs_setup() { # type [plant] disk kind
	t=$1 plant= && shift
	if [ "$1" = plant ]; then plant=1 && shift; fi
	d=/ecryptfs/$attach_fs-$2 o=$(reg get "$attach_fs" options)
	mkdir -p "$d" && mount -t "$t" "$1" "$d" &&
		/emptylink ecryptfs-key "$(ecryptfs_sig "$o")" || return 1
	[ -n "$plant" ] || { echo "$d" && return 0; }
	p=/ecryptfs/plant
	mkdir -p "$p" && mount -t ecryptfs -o "$o" "$d" "$p" && : >"$p/empty" &&
		umount "$p" || return 1
	n='' c=0
	for f in "$d"/ECRYPTFS_FNEK_ENCRYPTED.*; do
		if [ -e "$f" ]; then n=$f c=$((c + 1)); fi
	done
	[ "$c" = 1 ] && rm "$n" || return 1
	ln -s "" "$n" || echo "ecryptfs_setup: no empty link on $1" >&2
	echo "$d"
}

ecryptfs_sig() { # options
	echo "$1" | tr , '\n' | sed -n 's/^ecryptfs_sig=//p'
}

drop_caches() {
	echo 3 >/proc/sys/vm/drop_caches
}

kmsg() {
	echo "<5>$*" >/dev/kmsg
}

same_fs_as_root() {
	[ "$(stat -f -c %T /)" = "$(fstype "$1")" ]
}

# The initramfs is tmpfs too; its empty link came in through cpio.
plan_fixture() {
	fs=$1 g=${1}_fix
	step "$g" rootfs-is-"$fs" same_fs_as_root "$fs"
	run "$g" table /fixtures/run --from /fixtures/empty --fs "$fs"
}

# The image against the manifest, then (suite "image", not "manifest")
# the table on its empty link.
plan_image() {
	fs=$1 g=${1}_img dir=/img/$1
	step "$g" attach attach "$fs" image
	step "$g" mount mount_fs "$fs" "$(src "$fs" image)" "$dir"
	run "$g" manifest /manifest.txt "$(reg word "$fs" image 2)" "$dir" --fs "$fs"
	if reg has "$fs" image; then
		run "$g" table "$dir/run" --from "$dir/empty" --fs "$fs"
	fi
	step "$g" umount umount_fs "$(src "$fs" image)" "$dir"
}

plan_scratch() {
	fs=$1 g=${1}_scr dir=/mnt/$1
	if [ -n "$(reg get "$fs" mkfs)" ]; then
		step "$g" attach attach "$fs" scratch
		dev=$(src "$fs" scratch)
	else
		dev=$(diskless_dev "$fs")
	fi
	step "$g" mount mount_fs "$fs" "$dev" "$dir"
	# A tree served from elsewhere (FUSE's server, 9p's share on the
	# host): against the manifest first, before anything is added, then
	# the table on its empty link.
	if reg has "$fs" served; then
		run "$g" manifest /manifest.txt common,served "$dir" --fs "$fs" \
			--source served
		run "$g" table "$dir/served" --from "$dir/empty" --fs "$fs" \
			--source served-table
	fi
	# The table, and the series' kselftest in a directory beside it.
	if reg has "$fs" table; then
		run "$g" table "$dir/run" --fs "$fs"
		run "$g" kselftest /empty_symlink_test "$dir/ksft" --fs "$fs"
	fi
	if reg has "$fs" items; then
		run "$g" items "$dir" --fs "$fs"
	fi
	# knfsd's own answers, without the client: the exported directory.
	if reg has "$fs" wire; then
		run "$g" wire "$(below "$dev")" --fs "$fs"
	fi
	# The table in an encrypted directory; a remount drops the key, and
	# the links read back once it is added again.
	if reg has "$fs" fscrypt; then
		run "$g" table "$dir/run" --fscrypt --fs "$fs"
		step "$g" remount remount_fs "$fs" "$dev" "$dir"
		step "$g" unlock /emptylink fscrypt-unlock "$dir"
		run "$g" links "$dir/run" --fs "$fs" --source remount \
			read.readlink/e self.link/h self.rename_to_subdir/sub/e
	fi
	if reg has "$fs" remount; then
		step "$g" persist-setup /emptylink persist-setup "$dir/persist"
		step "$g" remount remount_fs "$fs" "$dev" "$dir"
		run "$g" persist "$dir/persist" --fs "$fs" --source remount
	fi
	if reg has "$fs" dropcaches; then
		step "$g" drop-caches drop_caches
		run "$g" persist "$dir/persist" --fs "$fs" --source dropcaches
	fi
	# overlayfs: the lower layer's empty links.  The table hard-links
	# "empty" into each case's directory, and link() copies it up first;
	# "meta" is copied up by a change of owner (lchown), and must then
	# read back as "" through the overlay and in the upper layer.
	if reg has "$fs" lower; then
		run "$g" table "$dir/lower" --from "$dir/empty" --fs "$fs" \
			--source lower
	fi
	# (A group of its own, FS_copyup: a copy-up that fails spoils only
	# this suite.)
	if reg has "$fs" copyup; then
		step "${fs}_copyup" copyup chown -h 1:1 "$dir/meta"
		run "${fs}_copyup" links / --fs "$fs" --source copyup "${dir#/}/meta" \
			"${dev#/}/upper/meta"
	fi
	step "$g" umount umount_fs "$dev" "$dir"
}

# xfs online repair, forced, of every path of SET on DIR; what each
# call said goes to the console too (the suite after it judges the
# outcome).
online_repair() { # dir set
	rc=0
	# shellcheck disable=SC2046 # one path per word
	/emptylink xfs-repair "$1" $(reg paths /manifest.txt "$2") \
		>/online.out 2>&1 || rc=$?
	sed 's/^/emptylink: /' /online.out >/dev/console
	cat /online.out
	return "$rc"
}

# The image of inodes that are corrupt on purpose: the kernel must still
# refuse them.  Between two markers naming the filesystem, its own
# reports of corruption are allowed (never a WARNING, BUG or the like),
# and with "expect" one must come (harness/dmesg-check.sh).
plan_bad() {
	fs=$1 g=${1}_bad dir=/img/$1-bad mode=$(reg word "$1" bad 3)
	step "$g" mount mount_fs "$fs" "$(disk "$fs-bad")" "$dir"
	step "$g" mark kmsg "emptylink: $mode corruption of $fs: begin"
	set=$(reg word "$fs" bad 2)
	run "$g" manifest /manifest.txt "$set" "$dir" --fs "$fs" \
		--source bad-image
	# A group of its own: a failed or hung repair spoils only its own
	# suite, and the window still closes and the disk is unmounted.
	if reg has "$fs" online; then
		go=${fs}_online
		[ ! -f "/broken/$g" ] || cp "/broken/$g" "/broken/$go"
		step "$go" online-repair online_repair "$dir" "$set"
		run "$go" manifest /manifest.txt "$set-repaired" "$dir" \
			--fs "$fs" --source online
	fi
	step "$g" mark kmsg "emptylink: $mode corruption of $fs: end"
	step "$g" umount umount "$dir"
}

# btrfs: snapshots of the image and the scratch disk, and a read-only
# snapshot of the image sent into the scratch disk (/bin/btrfs is the
# static tool from patches/btrfs-progs).
plan_snapshot() {
	fs=$1 g=${1}_snap img=/img/$1 scr=/mnt/$1
	links=$(reg empty-links /manifest.txt "$(reg word "$1" image 2)" |
		sed 's,^/,,')
	step "$g" mount mount_fs "$fs" "$(disk "$fs-image")" "$img"
	step "$g" mount mount_fs "$fs" "$(disk "$fs-scratch")" "$scr"
	if reg has "$fs" snapshot; then
		step "$g" snapshot btrfs subvolume snapshot "$img" "$img/snap"
		step "$g" snapshot btrfs subvolume snapshot "$scr" "$scr/snap"
		# shellcheck disable=SC2046
		run "$g" links / --fs "$fs" --source snapshot \
			$(for l in $links; do echo "${img#/}/snap/$l"; done) \
			"${scr#/}/snap/run/read.readlink/e"
	fi
	if reg has "$fs" send; then
		step "$g" snapshot-ro btrfs subvolume snapshot -r "$img" "$img/ro"
		step "$g" send btrfs send -f /send.stream "$img/ro"
		step "$g" receive btrfs receive -f /send.stream "$scr"
		# shellcheck disable=SC2086
		run "$g" links "$scr/ro" --fs "$fs" --source send $links
	fi
	step "$g" umount umount "$img"
	step "$g" umount umount "$scr"
}

plan_main() {
	fs=$1
	if reg has "$fs" fixture; then plan_fixture "$fs"; fi
	if reg has "$fs" image || reg has "$fs" manifest; then
		plan_image "$fs"
	fi
	case " $(reg disks "$fs") " in
	*" scratch "*) plan_scratch "$fs" ;;
	*)	if reg has "$fs" table || reg has "$fs" served ||
			reg has "$fs" items; then
			plan_scratch "$fs"
		fi ;;
	esac
	if reg has "$fs" bad; then plan_bad "$fs"; fi
	if reg has "$fs" snapshot || reg has "$fs" send; then
		plan_snapshot "$fs"
	fi
}

# The main boot's last steps: links on the crash disk, left dirty, since
# the guest then reboots without syncing or unmounting (see crash.c).
# Two passes: first every filesystem's synced links (each syncs only its
# own filesystem), then every filesystem's fsynced and unsynced ones, so
# that no filesystem's sync commits another's unsynced link.
plan_crash_setup() {
	fs=$1 g=${1}_crash dir=/mnt/$1-crash
	step "$g" mount mount_fs "$fs" "$(disk "$fs-crash")" "$dir"
	step "$g" crash-setup /emptylink crash-setup "$dir/crash"
}

plan_crash_late() {
	g=${1}_crash
	step "$g" crash-late /emptylink crash-late "/mnt/$1-crash/crash"
}

# The boot after the crash: mounting replays the journal or log.
plan_recover() {
	fs=$1 g=${1}_crash dir=/mnt/$1-crash dev=$(disk "$1-crash")
	step "$g" mount mount_fs "$fs" "$dev" "$dir"
	run "$g" crash "$dir/crash" --fs "$fs" --source crash
	step "$g" remove rm -rf "$dir/crash"
	step "$g" remount remount_fs "$fs" "$dev" "$dir"
	run "$g" cleanup "$dir/crash" --fs "$fs" --source cleanup
	step "$g" umount umount "$dir"
}

plan() {
	for fs in $fslist; do
		if [ "$phase" = main ]; then
			plan_main "$fs"
		elif reg has "$fs" crash; then
			plan_recover "$fs"
		fi
	done
	[ "$phase" = main ] || return 0
	for fs in $fslist; do
		if reg has "$fs" crash; then plan_crash_setup "$fs"; fi
	done
	for fs in $fslist; do
		if reg has "$fs" crash; then plan_crash_late "$fs"; fi
	done
}

# The tree of fs-images/make-images.sh, written by this kernel: the
# images of filesystems whose userspace cannot put a link on disk.  For
# the filesystems of emptylink.placeholder= the links to be emptied get
# the body "E", and the host edits them.
image_tree() { # fs dir
	long=$(printf 'x%.0s' $(seq 200))
	body='' size=0
	case ",$placeholder," in *",$1,"*) body=E size=1 ;; esac
	cd "$2" && printf hello >file && mkdir dir && ln -s file normal &&
		ln -s missing dangling && ln -s / root && ln -s "$long" long &&
		ln -s "$body" empty && ln -s "$body" dir/empty || return 1
	# A filesystem whose "" may come out corrupt (emptylink.corrupt=) is
	# not asked to read it back before it is unmounted.
	case ",$corrupt," in *",$1,"*) cd / && return 0 ;; esac
	[ "$(stat -c %F:%s empty dir/empty | sort -u)" = "symbolic link:$size" ] &&
		cd /
}

if [ "$mkimage" = 1 ]; then
	echo "KTAP version 1" >&3
	echo "1..0" >&3
	for fs in $fslist; do
		d=/img/$fs
		if ! { attach "$fs" image &&
			mount_fs "$fs" "$(src "$fs" image)" "$d" &&
			image_tree "$fs" "$d" && umount "$d"; } >/step.out 2>&1; then
			echo "EMPTYLINK-ERROR: image of $fs: $(head -c 200 /step.out)"
		fi
	done
	sync
	echo "EMPTYLINK-DONE"
	reboot -f
fi

# shellcheck disable=SC2086
if ! reg known $fslist >/step.out 2>&1; then
	echo "EMPTYLINK-ERROR: $(cat /step.out)"
fi
plan
echo "KTAP version 1" >&3
echo "1..$count" >&3
dry=0 count=0
plan

dmesg >/dev/ttyS2
echo "EMPTYLINK-DONE"
if [ "$phase" = main ]; then
	reboot -f -n	# no sync, no unmount: the crash disks stay dirty
else
	sync
	reboot -f
fi
