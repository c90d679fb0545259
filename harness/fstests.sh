#!/bin/sh
# fstests.sh FSTESTS OUT KERNEL=BZIMAGE... : the series' fstests test
# (patches/fstests/, a new generic/ test) on ext4, xfs and btrfs, in
# one boot of each kernel, with fstests' own ./check.
#
# FSTESTS is the user's fstests checkout (fstests is no Debian package):
# it is cloned (or copied) into OUT/src, never changed; patches/fstests/
# is applied there and fstests is built.  Each KERNEL (vanilla, patched)
# boots once with this machine's userland (harness/guest-job.sh) and
# runs, per filesystem, ./check on two loop devices in the guest's RAM,
# with the patched fsck tools of build/progs/bin first on PATH (mkfs.xfs
# for -i emptysymlinks=1; e2fsck, xfs_repair and btrfs check for
# fstests' own check of the scratch filesystem afterwards).  The host
# reads each run's fstests result (check.log and the .out.bad or
# .notrun files) and wants: on patched, the test passed on every
# filesystem; on vanilla, the test "not run" because symlink("") fails
# (its own _notrun).  OUT/fstests.txt: one line per kernel and
# filesystem, "KERNEL FS RESULT [why]".
set -eu
. "$(dirname "$0")/lib.sh"

src=$1
shift
mkdir -p "$1"
out=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
progs=$top/build/progs/bin
# fstests checks ext4 with "fsck -t ext4", which finds fsck.ext4 on PATH:
# the patched e2fsck under that name, in a directory that comes first.
bin=$out/bin
initrd=$top/build/initramfs.cpio
: "${ACCEL:?ACCEL is needed (make fstests sets it)}"
fslist=${FSTESTS_FS:-ext4 xfs btrfs}

[ -n "$src" ] || die "make fstests needs FSTESTS=/path/to/fstests: fstests is not a Debian package; clone it first, e.g.
  git clone https://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git"
if [ ! -x "$src/check" ] || [ ! -f "$src/common/rc" ]; then
	die "FSTESTS=$src is not an fstests checkout (no ./check and common/rc there)"
fi
# What fstests needs to build and run (its README), beyond the harness's.
"$here/deps.sh" automake:/usr/bin/automake libtool:/usr/bin/libtoolize \
	libtool-bin:/usr/bin/libtool uuid-dev:/usr/include/uuid/uuid.h \
	libacl1-dev:/usr/include/acl/libacl.h libattr1-dev:/usr/include/attr/libattr.h \
	libaio-dev:/usr/include/libaio.h libgdbm-dev:/usr/include/gdbm.h \
	libgdbm-compat-dev:/usr/include/ndbm.h xfslibs-dev:/usr/include/xfs/xfs.h \
	liburing-dev:/usr/include/liburing.h libcap-dev:/usr/include/sys/capability.h \
	gawk:/usr/bin/gawk psmisc:/usr/bin/killall uuid-runtime:/usr/bin/uuidgen \
	acl:/usr/bin/getfacl attr:/usr/bin/getfattr bc:/usr/bin/bc
[ -f "$initrd" ] || die "$initrd is missing: make builds it"
for t in e2fsck mkfs.xfs xfs_repair btrfs; do
	[ -x "$progs/$t" ] || die "$progs/$t is missing: make progs builds it"
done
mkdir -p "$bin"
ln -sf "$progs/e2fsck" "$bin/fsck.ext4"
patches=$(find "$top/patches/fstests" -name '*.patch' | sort)
[ -n "$patches" ] || die "patches/fstests/ holds no patch"
# The tests the patches add: tests/generic/NNN, their .out aside.
# shellcheck disable=SC2086
tests=$(sed -n 's|^+++ b/tests/\([a-z]*/[0-9]*\)$|\1|p' $patches | sort -u)
[ -n "$tests" ] || die "patches/fstests/ adds no test"

# The user's tree is only read: a clone of what it has committed, or a
# copy of a tree without git.
work=$out/src
rm -rf "$work"
if git -C "$src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	git clone -q --no-hardlinks "$src" "$work" || die "cannot clone $src"
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
		say "fstests: $src has uncommitted changes: they are not used"
	# shellcheck disable=SC2086
	git -C "$work" -c user.name=harness -c user.email=harness@localhost \
		am -q $patches >"$out/am.log" 2>&1 || {
		cat "$out/am.log" >&2
		die "patches/fstests does not apply to $src ($(git -C "$src" log -1 --format='%h %s'))"
	}
else
	cp -a "$src" "$work"
	for p in $patches; do
		patch -s -d "$work" -p1 <"$p" >"$out/am.log" 2>&1 || {
			cat "$out/am.log" >&2
			die "$(basename "$p") does not apply to $src"
		}
	done
fi
say "fstests: building in $work (log: $out/build.log)"
(cd "$work" && make -j"$(nproc)") >"$out/build.log" 2>&1 ||
	die "fstests did not build, see $out/build.log"

: >"$out/fstests.txt"
status=0
for kv in "$@"; do
	kname=${kv%%=*} kernel=${kv#*=}
	job=$out/$kname-job.sh res=$out/$kname
	rm -rf "$res"
	mkdir -p "$res"
	# One filesystem after another on two 512 MiB loop devices in the
	# overlay's tmpfs (the guest's RAM); a filesystem whose set-up fails
	# says so in its result file, and the others still run.
	{
		echo '#!/bin/sh'
		echo '# Written by harness/fstests.sh; run in the guest by harness/guest-suites.sh.'
		echo 'set -u'
		echo "PATH='$bin':'$progs':/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
		echo 'HOME=/root LANG=C'
		echo 'export PATH HOME LANG'
		echo "cd '$work' || exit 1"
		echo 'mkdir -p /var/tmp/fst /mnt/test /mnt/scratch'
		for fs in $fslist; do
			cat <<JOB
for d in test scratch; do
	truncate -s 512M /var/tmp/fst/\$d.img
done
t=\$(losetup -f --show /var/tmp/fst/test.img) && s=\$(losetup -f --show /var/tmp/fst/scratch.img) &&
	mkfs.$fs $( [ "$fs" = xfs ] || [ "$fs" = btrfs ] && echo -f || echo -F -q) "\$t" >'$res/$fs.mkfs' 2>&1 || {
	echo "setup-failed" >'$res/$fs.result'
}
if [ ! -f '$res/$fs.result' ]; then
	FSTYP=$fs TEST_DEV=\$t TEST_DIR=/mnt/test SCRATCH_DEV=\$s SCRATCH_MNT=/mnt/scratch \\
	RESULT_BASE='$res/$fs' timeout 1800 ./check $tests >'$res/$fs.log' 2>&1
	echo "exit \$?" >'$res/$fs.result'
fi
umount /mnt/test /mnt/scratch 2>/dev/null
losetup -D
rm -f /var/tmp/fst/*.img
JOB
		done
		echo 'exit 0'
	} >"$job"
	say "fstests: $kname: $tests on $fslist in one boot ($ACCEL, log: $res/boot/console.log)"
	GUEST_MEM=3072 "$here/guest-job.sh" "$kernel" "$initrd" "$ACCEL" "$job" "$out" \
		"$res/boot" "${FSTESTS_TIMEOUT:-3600}" || die "fstests: $kname: the boot failed (above)"
	for fs in $fslist; do
		for t in $tests; do
			r=$res/$fs/$t
			if [ ! -f "$res/$fs.result" ] || [ "$(cat "$res/$fs.result")" = setup-failed ]; then
				got="setup-failed" why="see $res/$fs.mkfs"
			elif [ -f "$r.notrun" ]; then
				got="notrun" why=$(cat "$r.notrun")
			elif [ -f "$r.out.bad" ]; then
				got="failed" why="see $r.out.bad"
			elif grep -q "^Passed all" "$res/$fs.log"; then
				got="passed" why=
			else
				got="failed" why="see $res/$fs.log"
			fi
			case "$kname:$got" in
			patched:passed) ok=1 ;;
			# vanilla: symlink("") fails; an xfs with the feature
			# bit does not even mount.
			vanilla:notrun)
				case "$fs:$why" in
				*:*"empty symlink targets not supported"*) ok=1 ;;
				xfs:*"cannot mount xfs with emptysymlinks"*) ok=1 ;;
				*) ok=0 ;;
				esac ;;
			*) ok=0 ;;
			esac
			printf '%s %s %s %s%s\n' "$kname" "$fs" "$t" "$got" "${why:+ ($why)}" >>"$out/fstests.txt"
			if [ "$ok" -eq 1 ]; then
				say "fstests: $kname $fs $t: $got, as expected${why:+ ($why)}"
			else
				say "fstests: $kname $fs $t: $got, not as expected${why:+ ($why)}"
				status=1
			fi
		done
	done
done
[ "$status" -eq 0 ] || die "fstests: results not as expected, see $out/fstests.txt"
say "fstests: all as expected ($out/fstests.txt)"
