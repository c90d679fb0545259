#!/bin/sh
# What a run leaves on disk.
# clean-results.sh disks RUN: once RUN is judged, keep of its disks
#   (RUN/KERNEL/FS-KIND.img: written by disks.sh prepare, read by the
#   boots and by disks.sh fsck, never by report.sh, so make rejudge
#   works without them) only those of the failed cells, compressed with
#   zstd (FS-KIND.img.zst): every disk of FS on KERNEL when a suite
#   KERNEL.FS.SOURCE is "not ok" in RUN/judged.ktap (a guest suite or
#   the fsck rows).  KEEP_DISKS=1 keeps every disk, compressed; so does
#   a judged.ktap that is missing or cut short (the judging did not
#   finish).  The other disks are deleted; what a person reads (KTAP,
#   matrix, logs, fsck output, stages) stays.  Run by run-matrix.sh.
# clean-results.sh runs DIR N: keep the newest N runs in DIR (results/)
#   and the one DIR/latest points to, delete the others and print what
#   that freed.  A run is DIR/YYYYmmdd-HHMMSS with its siblings of the
#   same make invocation (DIR/YYYYmmdd-HHMMSS-selftest, -bisect).
#   make clean-results KEEP=N.
set -eu
. "$(dirname "$0")/lib.sh"

kib() { du -sk "$@" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
realdir() { [ -d "$1" ] && [ ! -L "$1" ]; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

disks() {
	res=$1
	[ -f "$res/kernels" ] || die "$res is not the results of a run (no kernels file)"
	# The failed KERNEL.FS of the top-level results; "?" when the
	# document is not whole (its plan and its results differ).
	failed='?'
	if [ -f "$res/judged.ktap" ]; then
		failed=$(awk '
			/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0 }
			/^(not )?ok [0-9]+ / { n++ }
			/^not ok [0-9]+ / { split($4, p, "."); print p[1] "." p[2] }
			END { if (plan == 0 || n != plan) print "?" }' "$res/judged.ktap")
	fi
	why="the failed cells"
	if [ "${KEEP_DISKS:-}" = 1 ]; then
		why="all of them (KEEP_DISKS=1)"
	elif echo "$failed" | grep -qx '?'; then
		why="all of them (no complete $res/judged.ktap)"
	fi
	kept=0 gone=0 keptk=0 gonek=0 cells=
	kernels=$(cat "$res/kernels")
	for k in $kernels; do
		for f in "$res/$k"/*.img "$res/$k"/*.img.repair; do
			[ -f "$f" ] || continue
			b=${f##*/}
			b=${b%.img}
			fs=${b%-*}
			case "$f" in *.repair) rm -f "$f"; continue ;; esac
			if [ "$why" != "the failed cells" ] ||
				echo "$failed" | grep -qxF -e "$k.$fs" -e "$k.?"; then
				zstd -q -f --rm "$f" -o "$f.zst" ||
					die "cannot compress $f"
				kept=$((kept + 1)) keptk=$((keptk + $(kib "$f.zst")))
				case " $cells " in *" $k.$fs "*) ;; *) cells="$cells $k.$fs" ;; esac
			else
				gonek=$((gonek + $(kib "$f")))
				rm -f "$f"
				gone=$((gone + 1))
			fi
		done
	done
	[ "$why" = "the failed cells" ] && why="$why:$cells"
	if [ "$kept" -gt 0 ]; then
		say "disks: kept $kept, compressed with zstd ($(mib "$keptk")), of $why; deleted $gone ($(mib "$gonek"))"
	else
		say "disks: none kept (no failed cell; KEEP_DISKS=1 keeps them all); deleted $gone ($(mib "$gonek"))"
	fi
}

runs() {
	dir=$1 keep=$2
	case "$keep" in
	'' | *[!0-9]*) die "KEEP is a number of runs, not '$keep'" ;;
	esac
	[ -d "$dir" ] || { say "clean-results: no $dir, nothing to do"; return 0; }
	latest=$(readlink "$dir/latest" 2>/dev/null || true)
	latest=$(printf '%.15s' "${latest##*/}")
	stamp='[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]'
	# shellcheck disable=SC2254 # $stamp is a pattern
	stamps=$(for d in "$dir"/[0-9]*; do
		realdir "$d" || continue
		case "${d##*/}" in
		$stamp | $stamp-*) printf '%.15s\n' "${d##*/}" ;;
		esac
	done | sort -u)
	n=$(printf '%s\n' "$stamps" | grep -c . || true)
	freed=0 removed=0
	if [ "$n" -gt "$keep" ]; then
		for s in $(printf '%s\n' "$stamps" | head -n $((n - keep))); do
			[ "$s" = "$latest" ] && continue
			for d in "$dir/$s" "$dir/$s"-*; do
				realdir "$d" || continue
				k=$(kib "$d")
				rm -rf "$d"
				freed=$((freed + k))
				say "clean-results: removed $d ($(mib "$k"))"
			done
			removed=$((removed + 1))
		done
	fi
	say "clean-results: $removed of $n runs removed, $(mib "$freed") freed; kept the newest $keep${latest:+ and latest ($latest)}"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
disks) [ $# -eq 1 ] || die "usage: clean-results.sh disks RUN"; disks "$1" ;;
runs) [ $# -eq 2 ] || die "usage: clean-results.sh runs DIR N"; runs "$1" "$2" ;;
*) die "usage: clean-results.sh disks RUN | runs DIR N" ;;
esac
