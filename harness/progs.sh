#!/bin/sh
# progs.sh NAME OUT: build the fsck tool of Debian source package NAME
# (e2fsprogs, xfsprogs, btrfs-progs, squashfs-tools) with patches/NAME/*.patch
# applied, and install the tool into OUT/bin.  The source comes from
# Debian with `apt-get source` into OUT/NAME (ignored, never in the
# repository); this script adds the deb-src entry and the build
# dependencies it needs when it runs as root, and names the commands
# otherwise.
set -eu
. "$(dirname "$0")/lib.sh"

name=$1
mkdir -p "$2/bin"
out=$(cd "$2" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
. /etc/os-release

# Debian's sources for the release this machine runs.  make builds the
# tools side by side (make build): one apt at a time (the lock).
ensure_sources() {
	[ -f "$out/$name.deps" ] && return 0
	exec 9>"$out/apt.lock"
	flock 9
	[ "$(id -u)" -eq 0 ] || die "the $name source and build dependencies are needed:
run as root: add a deb-src line for $VERSION_CODENAME, then
  apt-get update && apt-get build-dep -y $name"
	"$(dirname "$0")/deb-src.sh" "$name"
	say "progs: installing the build dependencies of $name"
	DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q "$name" \
		>"$out/$name.deps.log" 2>&1 ||
		die "apt-get build-dep $name failed, see $out/$name.deps.log"
	touch "$out/$name.deps"
	flock -u 9
}

# The unpacked source in git at tag "base", the series applied on top.
prepare_source() {
	if ! git -C "$out/$name" rev-parse -q --verify base >/dev/null 2>&1; then
		# A folder of its own: make may fetch two tools at once.
		dl=$out/dl-$name
		rm -rf "${out:?}/$name" "$dl"
		mkdir -p "$dl"
		say "progs: apt-get source $name"
		(cd "$dl" && apt-get source -q "$name" >"$out/$name.source.log" 2>&1) ||
			die "apt-get source $name failed, see $out/$name.source.log"
		dir=$(find "$dl" -mindepth 1 -maxdepth 1 -type d | head -n 1)
		[ -n "$dir" ] || die "apt-get source $name unpacked nothing"
		mv "$dir" "$out/$name"
		(cd "$out/$name" && git init -q && git add -f -A . &&
		 git -c user.name=harness -c user.email=harness@localhost \
			commit -q -m "$name (Debian source)" && git tag base) ||
			die "cannot put the $name source in git"
	fi
	cd "$out/$name"
	git am --abort >/dev/null 2>&1 || true
	git reset -q --hard base
	git clean -q -fdx
	# shellcheck disable=SC2046
	git -c user.name=harness -c user.email=harness@localhost \
		am -q $(find "$top/patches/$name" -name '*.patch' | sort) \
		>"$out/$name.am.log" 2>&1 || {
		cat "$out/$name.am.log" >&2
		die "a patch in patches/$name does not apply to Debian's $name"
	}
}

# btrfs for the host's checks, btrfs.static for the guest (send/receive
# and snapshots: the guest has no shared libraries).
build_btrfs_progs() {
	./autogen.sh && ./configure --disable-documentation --disable-python \
		--disable-convert && make -j"$(($(nproc) + 1))" btrfs btrfs.static &&
		cp btrfs "$out/bin/btrfs" && cp btrfs.static "$out/bin/btrfs.static"
}

build_e2fsprogs() {
	mkdir -p build && cd build && ../configure --quiet --disable-nls \
		--disable-fuse2fs && make -j"$(($(nproc) + 1))" libs &&
		make -j"$(($(nproc) + 1))" -C e2fsck e2fsck &&
		cp e2fsck/e2fsck "$out/bin/e2fsck"
}

# xfs_repair, and mkfs.xfs and xfs_db for the disks with the empty
# symlinks feature (harness/xfs-features.sh); xfs_admin (a script that
# runs the xfs_db and xfs_repair it finds in PATH) for
# harness/xfsprogs-test.sh; xfs_scrub.static for the
# guest, which has no shared libraries: linked with libtool's
# -all-static, without libicu (its static C++ library does not link
# that way; xfs_scrub then skips only its Unicode name checks).
build_xfsprogs() {
	./configure --quiet --enable-libicu=no && make headers &&
		make -j"$(($(nproc) + 1))" repair mkfs db libhandle &&
		make -C scrub LLDFLAGS=-all-static &&
		cp repair/xfs_repair "$out/bin/xfs_repair" &&
		cp mkfs/mkfs.xfs "$out/bin/mkfs.xfs" &&
		cp db/xfs_db "$out/bin/xfs_db" &&
		cp db/xfs_admin.sh "$out/bin/xfs_admin" &&
		cp scrub/xfs_scrub "$out/bin/xfs_scrub.static"
}

# unsquashfs only: its -lls is the squashfs check.
build_squashfs_tools() {
	make -C squashfs-tools -j"$(($(nproc) + 1))" unsquashfs &&
		cp squashfs-tools/unsquashfs "$out/bin/unsquashfs"
}

ensure_sources
prepare_source
say "progs: building $name (log: $out/$name.build.log)"
"build_$(echo "$name" | tr - _)" >"$out/$name.build.log" 2>&1 || {
	tail -n 20 "$out/$name.build.log" >&2
	die "building $name failed, see $out/$name.build.log"
}
say "progs: $name ready in $out/bin"
