#!/bin/sh
# kernel-build.sh TREE LOG [FRAGMENT]: configure TREE from
# harness/kernel.config, the config lines of every filesystem in
# harness/filesystems.txt and FRAGMENT if given (the debug flavour's
# harness/kernel-debug.config), merged onto tinyconfig; check that every
# option of that fragment survived, and build bzImage in the tree.  The
# compiler runs under ccache, so the second tree reuses the first one's
# objects (paths are relative in-tree builds).
set -eu
. "$(dirname "$0")/lib.sh"

tree=$1
mkdir -p "$(dirname "$2")"
log=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$tree")
jobs=$(($(nproc) + 1))
: >"$log"

# A fixed build identity keeps the image the same from run to run.
export KBUILD_BUILD_TIMESTAMP="1970-01-01" KBUILD_BUILD_USER=emptylink \
	KBUILD_BUILD_HOST=harness
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-4G}"

extra=${3:-/dev/null}
[ -r "$extra" ] || die "kernel $name: no config fragment $extra"
# shellcheck disable=SC2046
frag=$({ grep '^CONFIG_' "$here/kernel.config" &&
	"$here/registry.sh" config $("$here/registry.sh" names) &&
	{ grep '^CONFIG_' "$extra" || true; }; } | sort -u)
cd "$tree"
if [ ! -f .config ] || [ "$(cat .emptylink-fragment 2>/dev/null)" != "$frag" ]; then
	say "kernel $name: configuring (tinyconfig + harness/kernel.config + registry${3:+ + $3})"
	echo "$frag" >.emptylink-fragment
	{ make -s tinyconfig &&
	  scripts/kconfig/merge_config.sh -m .config .emptylink-fragment &&
	  make -s olddefconfig; } >>"$log" 2>&1 ||
		die "kernel $name: configuration failed, see $log"
	# CONFIG_X=n: off, written "# CONFIG_X is not set" or not at all.
	missing=$(echo "$frag" | while read -r opt; do
		case "$opt" in
		*=n) ! grep -q "^${opt%=n}=" .config ;;
		*) grep -qx "$opt" .config ;;
		esac || printf ' %s' "$opt"
	done)
	if [ -n "$missing" ]; then
		rm -f .config .emptylink-fragment
		die "kernel $name: options of harness/kernel.config, the registry${3:+ or $3} not set after olddefconfig:$missing"
	fi
fi

say "kernel $name: building bzImage with $jobs jobs (log: $log)"
if ! make -j"$jobs" CC="ccache gcc" bzImage >>"$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "kernel $name: build failed, full log in $log"
fi
say "kernel $name: $(make -s kernelrelease) ready"
