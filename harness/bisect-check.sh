#!/bin/sh
# bisect-check.sh SRC LOG INITRD IMAGES OUT: every prefix of the series
# (SRC/patched, base..HEAD) must build and boot.  For each patch, in a
# worktree of its own (SRC/bisect): build the kernel (ccache makes every
# build after the first cost only the files the patch touches), then boot
# it once, the main boot only, with the columns the patch can change
# attached (plan_patch below), and require that the run completes and
# that dmesg shows no trouble beyond what tests/dmesg-expected.txt
# documents for such a kernel (harness/dmesg-check.sh ... bisect: only the
# lines marked bisect or *, so a line vanilla shows that a kernel part-way
# through the series may still show must say so).  The cases' results are
# not judged here (the expectations describe the two ends of the series,
# vanilla and patched); what a bisection needs is a tree that builds and
# a kernel that runs.
#
# Nothing is done twice, and the second core does not sit idle:
#   - The last patch is skipped when it is the commit SRC/patched has
#     checked out, with no changes: make run (part of make check) has
#     built, booted and judged exactly that tree.  It is not skipped when
#     KERNEL (from make's command line) leaves out patched, or when
#     SRC/patched has local changes.  make bisect-check alone relies on
#     make run for it.
#   - Patch n boots while patch n+1 builds (QEMU under TCG is one thread):
#     its bzImage is copied to OUT/patch-n/bzImage and booted, with
#     dmesg-check, in a background job of its own session
#     (bisect-check.sh --boot); the boot of n is collected before the boot
#     of n+1 starts, so at most one boot and one build run at a time.  The
#     first failure, in the order of the series, ends the run: when patch
#     n+1 does not build, the boot of n is awaited first.  No boot outlives
#     the script (the traps stop its session: QEMU included).  A passed
#     boot's disks (KEEP_DISKS=1 keeps them) and bzImage copy are
#     deleted; a failed one keeps everything.
#   - Each patch boots only the columns it can change, through Kbuild and
#     the registry's config lines (plan_patch).
#
# bisect-check.sh --columns SRC [COMMIT...]: print, for each patch of
# SRC/patched (or each COMMIT: harness/columns-test.sh makes some),
# "N SUBJECT: COLUMNS (REASON)", the columns it would boot and why, and
# nothing else: no build, no boot, only read-only git commands.  FS (as in
# make) limits the columns in both modes.
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
gitc() { git -c advice.detachedHead=false "$@"; }

# The background job: bisect-check.sh --boot BZIMAGE INITRD IMAGES ACCEL
# N DIR FS...: boot patch N (harness/boot-kernel.sh, main boot) and check
# its dmesg.  On failure, writes the message to end the run with in
# DIR/bisect-error and exits 1.
if [ "${1:-}" = --boot ]; then
	kernel=$2 initrd=$3 images=$4 accel=$5 n=$6 d=$7
	shift 7
	fail() {
		printf 'patch %s: %s\n' "$n" "$*" >"$d/bisect-error"
		exit 1
	}
	if ! "$here/boot-kernel.sh" "$kernel" "$initrd" "$images" "$accel" \
		"patch-$n" "$d" main "$@"; then
		[ -f "$d/verdict" ] ||
			fail "the boot did not start (its output: $d/boot.log):
$(tail -n 5 "$d/boot.log")"
		fail "$(cat "$d/verdict") (console: $d/console.log)"
	fi
	rc=0
	"$here/dmesg-check.sh" "$d/dmesg.log" bisect >"$d/dmesg-problems" \
		2>"$d/dmesg-check.err" || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] ||
		fail "harness/dmesg-check.sh could not judge $d/dmesg.log: $(cat "$d/dmesg-check.err")"
	[ "$rc" -eq 0 ] || fail "the kernel complained (dmesg: $d/dmesg.log):
$(head -n 5 "$d/dmesg-problems")"
	[ -s "$d/dmesg-check.err" ] || rm -f "$d/dmesg-check.err"
	# The copy was only there to boot from while the next patch builds:
	# 28 of them were 106 MB of the run.  A failed boot keeps its copy.
	rm -f "$kernel"
	exit 0
fi

columns_only='' only=''
if [ "${1:-}" = --columns ]; then
	[ $# -ge 2 ] || die "usage: bisect-check.sh --columns SRC [COMMIT...]"
	columns_only=1 src=$2
	shift 2
	only=$*
else
	[ $# -eq 5 ] || die "usage: bisect-check.sh SRC LOG INITRD IMAGES OUT | --columns SRC [COMMIT...]"
	src=$1 log=$2 initrd=$3 images=$4 out=$5
fi
fslist=$(echo "${FS:-$("$here/registry.sh" names)}" | tr "\n" " ")
"$here/registry.sh" validate || die "harness/filesystems.txt is malformed"
# shellcheck disable=SC2086
"$here/registry.sh" known $fslist || die "FS names a filesystem the registry does not have"
case "$fslist" in *[!\ ]*) ;; *) die "FS names no filesystem" ;; esac
git -C "$src/patched" rev-parse -q --verify base >/dev/null ||
	die "no series at $src/patched (no tag base)"
commits=$(git -C "$src/patched" rev-list --reverse base..HEAD)
[ -n "$commits" ] || die "no patches in $src/patched (base..HEAD is empty)"
if [ -n "$only" ]; then
	commits=$(for c in $only; do
		git -C "$src/patched" rev-parse -q --verify "$c^{commit}" ||
			die "no commit $c in $src/patched"
	done)
fi

# "FS SYMBOL" for every CONFIG_ symbol a column's config lines set.
colsyms=$(for fs in $("$here/registry.sh" names); do
	"$here/registry.sh" config "$fs" |
		sed -n "s/^\(CONFIG_[A-Za-z0-9_]*\)=\([^n].*\)\$/$fs \1/p"
done)
# The column that boots for a patch that changes no column's code: tmpfs
# (the root filesystem: no disk) or, when FS leaves it out, FS's first.
case " $fslist " in
*" tmpfs "*) smoke=tmpfs ;;
*) smoke=${fslist%% *} ;;
esac

# kbuild COMMIT PATH: the CONFIG_ symbols that put PATH (a file under fs/)
# into the kernel at COMMIT, one per line, innermost first; none for code
# built unconditionally (the VFS).  From the file's directory up to fs/:
# the Kbuild (or Makefile) line that lists its object ("obj-$(CONFIG_X)
# += name.o", or "comp-y"/"comp-$(CONFIG_X) += name.o" and then the line
# that builds comp.o; a directory without a Makefile is listed by its
# parent as dir/name.o), the ifeq/ifdef blocks around those lines, then
# the line "obj-$(CONFIG_X) += dir/" of each parent, up to fs/.  A
# file no Makefile lists as an object (a header, a Kconfig) is its
# directory's.
kbuild() {
	d=${2%/*} rel=${2##*/}
	case "$rel" in
	*.c | *.S) rel=${rel%.?}.o ;;
	*) rel= ;;
	esac
	while :; do
		mk=
		if [ -n "$rel" ]; then
			mk=$(git -C "$src/patched" show "$1:$d/Kbuild" 2>/dev/null ||
				git -C "$src/patched" show "$1:$d/Makefile" 2>/dev/null) || mk=
			if [ -z "$mk" ] && [ "$d" != fs ]; then
				# Listed by the parent (fs/xfs/Makefile: scrub/symlink.o).
				rel=${d##*/}/$rel d=${d%/*}
				continue
			fi
		fi
		[ -z "$mk" ] || printf '%s\n' "$mk" | awk -v want="$rel" '
			# The symbols of the line that lists want and of the
			# blocks around it; for comp.o, those of comp.o too.
			function listed(rhs, want,   pre, n, w, i) {
				pre = ""
				if (match(rhs, /\$\(addprefix[ \t]+[^,]*,/)) {
					pre = substr(rhs, RSTART + 11, RLENGTH - 12)
					gsub(/[ \t]/, "", pre)
					rhs = substr(rhs, RSTART + RLENGTH)
					gsub(/\)/, " ", rhs)
				}
				n = split(rhs, w, /[ \t]+/)
				for (i = 1; i <= n; i++)
					if (w[i] != "" && pre w[i] == want)
						return 1
				return 0
			}
			{ line = line $0 }
			sub(/\\$/, "", line) { line = line " "; next }
			{ l = line; line = ""; sub(/#.*/, "", l) }
			l ~ /^[ \t]*(ifeq|ifneq|ifdef|ifndef)[ \t(]/ {
				c = ""
				while (match(l, /CONFIG_[A-Za-z0-9_]+/)) {
					c = c " " substr(l, RSTART, RLENGTH)
					l = substr(l, RSTART + RLENGTH)
				}
				cond[++depth] = c
				next
			}
			l ~ /^[ \t]*endif/ { depth--; next }
			index(l, "=") {
				lhs = substr(l, 1, index(l, "=") - 1)
				sub(/[:+?]$/, "", lhs)
				gsub(/[ \t]/, "", lhs)
				n++
				L[n] = lhs
				R[n] = substr(l, index(l, "=") + 1)
				C[n] = ""
				for (i = depth; i > 0; i--)
					C[n] = C[n] cond[i]
			}
			END {
				for (iter = 0; iter < 10; iter++) {
					for (i = 1; i <= n; i++) {
						sym = ""
						if (match(L[i], /-\$\(CONFIG_[A-Za-z0-9_]+\)$/)) {
							sym = substr(L[i], RSTART + 3, RLENGTH - 4)
							name = substr(L[i], 1, RSTART - 1)
						} else if (match(L[i], /-(y|m|objs)$/))
							name = substr(L[i], 1, RSTART - 1)
						else
							continue
						if (name ".o" != want && listed(R[i], want))
							break
					}
					if (i > n)
						exit
					if (sym != "")
						print sym
					k = split(C[i], w, " ")
					for (j = 1; j <= k; j++)
						print w[j]
					if (name == "obj" || name == "lib")
						exit
					want = name ".o"
				}
			}'
		[ "$d" != fs ] || break
		rel=${d##*/}/ d=${d%/*}
	done | awk '!seen[$0]++'
}

# plan_patch COMMIT: sets boot (the columns of FS to boot, in FS's
# order), label (the same, or "all") and why (the reason, for the
# output).  A file of a filesystem's own directory (fs/DIR/..., where
# DIR registers a filesystem type) maps to the columns whose config lines
# name the outermost symbol kbuild found for it (what puts DIR into the
# kernel: fs/xfs/scrub/symlink.c -> CONFIG_XFS_ONLINE_SCRUB ->
# CONFIG_XFS_FS: xfs); that code runs only under a mount of that type.
# Every column boots for a file that is not clearly confined: built
# unconditionally (the VFS: fs/namei.c, fs/ramfs), outside fs/
# (include/, mm/, io_uring/), under a symbol no column names (fs/iomap,
# fs/jbd2), in a library that other filesystems call (fs/crypto: its
# symbol is named by the _crypt columns only, but one kernel is built
# for all columns, and ext4, f2fs and ubifs call fscrypt_file_open() on
# every file), or a Kconfig or Makefile (a select or a default changes
# the one .config every column shares).  Documentation/ is no code, and
# the selftests and MAINTAINERS are not in the kernel: a patch that
# changes only those still builds, and boots the smoke column only
# (tmpfs), so that every prefix is booted.  A change
# to comments only is not told apart: it boots what its files map to.
plan_patch() {
	all='' cols='' why='' allwhy=''
	for f in $(git -C "$src/patched" diff-tree --no-commit-id --name-only -r "$1"); do
		case "$f" in
		Documentation/*)
			why="$why; $f: documentation"
			continue ;;
		tools/testing/selftests/* | MAINTAINERS)
			why="$why; $f: not in the kernel"
			continue ;;
		*/Kconfig* | */Makefile | */Kbuild)
			all=1 allwhy="$allwhy; $f: the build's configuration"
			continue ;;
		fs/*) ;;
		*)
			all=1 allwhy="$allwhy; $f: outside fs/"
			continue ;;
		esac
		top=${f#fs/}
		top=fs/${top%%/*}
		if [ "$top" != "fs/${f#fs/}" ] &&
		   ! git -C "$src/patched" grep -q -e 'register_filesystem(' "$1" -- "$top"; then
			all=1 allwhy="$allwhy; $f: $top registers no filesystem (a library of other filesystems)"
			continue
		fi
		chain=$(kbuild "$1" "$f")
		if [ -z "$chain" ]; then
			all=1 allwhy="$allwhy; $f: built unconditionally"
			continue
		fi
		arrows="$f -> $(echo "$chain" | awk '{ printf "%s%s", (NR > 1 ? " -> " : ""), $0 }')"
		named=$(echo "$colsyms" | awk -v s="$(echo "$chain" | tail -n 1)" '$2 == s { print $1 }')
		if [ -z "$named" ]; then
			all=1 allwhy="$allwhy; $arrows: no column names it"
			continue
		fi
		cols="$cols $(echo "$named" | tr '\n' ' ')"
		why="$why; $arrows"
	done
	if [ -n "$all" ]; then
		boot=$fslist label=all why=${allwhy#; }
		return
	fi
	boot=
	for fs in $fslist; do
		case " $cols " in *" $fs "*) boot="$boot $fs" ;; esac
	done
	boot=${boot# }
	if [ -z "$cols" ]; then
		boot=$smoke why="${why#; }: a smoke boot only"
	elif [ -z "$boot" ]; then
		boot=$smoke why="${why#; }; none of them in FS: a smoke boot only"
	else
		why=${why#; }
	fi
	label=$boot
}

if [ -n "$columns_only" ]; then
	n=0
	for c in $commits; do
		n=$((n + 1))
		plan_patch "$c"
		echo "$n $(git -C "$src/patched" log -1 --format=%s "$c"): $label ($why)"
	done
	exit 0
fi

# The bisect tree starts each run as a copy of the built vanilla tree,
# its objects and all their times kept, so that patch 1 builds only what
# it touches.  A worktree checked out afresh, or one left at the last
# prefix of the previous run, has sources newer than its objects almost
# everywhere: Kbuild compiles every file again, and even with every
# object in ccache that cost 108 s cold (docs/measurements.md).  Kbuild
# does not see the copy as different: an in-tree build writes relative
# paths in its .cmd files.  Without a built, unmodified vanilla tree the
# worktree is checked out afresh at base, as before.
seed_tree() {
	t=$(cd "$src" && pwd)/bisect
	rm -rf "$t"
	gitc -C "$src/vanilla" worktree prune
	if [ -f "$src/vanilla/arch/x86/boot/bzImage" ] &&
	   [ "$(git -C "$src/vanilla" rev-parse HEAD)" = "$(git -C "$src/vanilla" rev-parse base)" ] &&
	   git -C "$src/vanilla" diff --quiet base --; then
		gitc -C "$src/vanilla" worktree add -q --no-checkout --detach "$t" base ||
			die "cannot make the bisect worktree"
		# Everything but vanilla's .git (the worktree has its own).
		(cd "$src/vanilla" && tar --exclude=./.git -cf - .) |
			(cd "$t" && tar -xpf -) ||
			die "cannot copy $src/vanilla into the bisect worktree"
		if ! gitc -C "$t" reset -q || ! gitc -C "$t" update-index -q --refresh ||
		   ! git -C "$t" diff --quiet base --; then
			die "the bisect worktree does not match base after the copy"
		fi
		say "bisect-check: the bisect tree is a copy of the built vanilla tree"
	else
		gitc -C "$src/vanilla" worktree add -q --detach "$t" base ||
			die "cannot make the bisect worktree"
		say "bisect-check: vanilla is not built or not at base: the bisect tree is checked out afresh (its first build compiles everything)"
	fi
}
tree=$src/bisect
stage bisect/seed seed_tree
accel=$("$here/accel.sh" "$src/vanilla/arch/x86/boot/bzImage")

# The last patch is what make run built and booted: the commit checked
# out in SRC/patched, with no local changes, and KERNEL (when make's
# command line set it) includes patched.
head=$(git -C "$src/patched" rev-parse HEAD)
skip=
case " ${KERNEL:-patched} " in
*" patched "*)
	if GIT_OPTIONAL_LOCKS=0 git -C "$src/patched" diff --quiet HEAD --; then
		skip=$head
	else
		say "bisect-check: $src/patched has local changes: its last patch is checked here too"
	fi ;;
*) say "bisect-check: KERNEL=$KERNEL does not boot patched: its last patch is checked here too" ;;
esac

# The boot in the background: its job's pid (the id of its session) and
# its patch.  Each job is a session of its own (setsid), so that every
# process it started can be stopped, QEMU included (timeout(1) puts it
# in a process group of its own, but not in a session of its own).
bootpid='' bootn=''
# shellcheck disable=SC2317 # called from the traps below
stop_boot() {
	[ -n "$bootpid" ] || return 0
	stop_session "$bootpid"
	say "bisect-check: stopped the boot of patch $bootn" >&2
	wait "$bootpid" 2>/dev/null || true
	bootpid=
}
trap stop_boot EXIT
trap 'stop_boot; exit 130' INT
trap 'stop_boot; exit 143' TERM
trap 'stop_boot; exit 129' HUP

# Wait for the boot in the background, if any; end the run if it failed.
collect() {
	[ -n "$bootpid" ] || return 0
	rc=0
	wait "$bootpid" || rc=$?
	stop_session "$bootpid" # whatever it left behind
	bootpid=
	bd=$out/patch-$bootn
	if [ "$rc" -ne 0 ]; then
		[ -s "$bd/bisect-error" ] ||
			echo "patch $bootn: its boot job ended with status $rc (its output: $bd/boot.log)" >"$bd/bisect-error"
		die "$(cat "$bd/bisect-error")"
	fi
	[ "${KEEP_DISKS:-}" = 1 ] || rm -f "$bd"/*.img
	say "bisect-check: patch $bootn: $(cut -d: -f1 "$bd/verdict"), dmesg clean"
}

n=0 skipped=0
for c in $commits; do
	n=$((n + 1))
	subject=$(git -C "$src/patched" log -1 --format=%s "$c")
	if [ "$c" = "$skip" ]; then
		say "bisect-check: patch $n: $subject: skipped: it is $src/patched (HEAD, $(git -C "$src/patched" rev-parse --short HEAD)), which make run builds, boots and judges"
		skipped=1
		continue
	fi
	gitc -C "$tree" checkout -q --detach "$c"
	say "bisect-check: patch $n: $subject"
	if ! stage "kernel/patch-$n" "$here/kernel-build.sh" "$tree" "$log" >/dev/null; then
		if [ -n "$bootpid" ]; then
			say "bisect-check: patch $n does not build; waiting for the boot of patch $bootn first"
			collect
		fi
		die "the tree does not build after patch $n (log: $log)"
	fi
	d=$out/patch-$n
	rm -rf "$d"
	mkdir -p "$d"
	cp "$tree/arch/x86/boot/bzImage" "$d/bzImage"
	plan_patch "$c"
	collect
	what=$label
	[ "$label" != all ] || what="all columns"
	say "bisect-check: patch $n: booting $what in the background ($why)"
	# shellcheck disable=SC2086
	setsid sh "$0" --boot "$d/bzImage" "$initrd" "$images" "$accel" "$n" "$d" \
		$boot </dev/null >"$d/boot.log" 2>&1 &
	bootpid=$! bootn=$n
done
collect
if [ "$skipped" = 1 ]; then
	say "bisect-check: the tree builds and boots after each of the $n patches (the last one: in make run)"
else
	say "bisect-check: the tree builds and boots after each of the $n patches"
fi
