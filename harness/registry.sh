#!/bin/sh
# registry.sh COMMAND ...: answers questions about harness/filesystems.txt
# (REGISTRY overrides the path; the guest has it at /filesystems.txt).
# Runs under busybox sh in the guest too, so: POSIX sh and awk only.
#
#   validate              fails, naming file and line, on a line that is
#                         not "NAME KEY VALUE..." with a known KEY, or
#                         names an unknown suite
#   names                 every filesystem, in registry order
#   known FS...           fails, naming it, on a filesystem not in the registry
#   get FS KEY            the value of each KEY line of FS, one per line
#   each KEY              "FS VALUE" for each KEY line of every filesystem
#   word FS KEY N         the Nth word of the value of FS's KEY line
#   has FS SUITE          true when FS runs SUITE
#   disks FS              the disks FS needs: image bad share scratch
#                         crash (share: a host directory, 9p)
#   sources FS BOOT       "SOURCE KIND": the KTAP sources FS reports in
#                         BOOT (main, recover, host), and what each is
#   plan KERNEL FS...     "KERNEL FS SOURCE KIND" for every result a run
#                         of KERNEL on FS... must have
#   config FS...          the kernel config lines FS... need
#   cmdline FS...         the kernel command-line words FS... need
#   packages FS...        the PACKAGE:FILE lines FS... need
#   progs FS...           the patched userspace packages FS... use
#   guest FS...           "TOOL PATH": programs FS... need in the guest
#   empty-links MANIFEST SETS
#                         the empty links fs-images/manifest.txt lists in
#                         SETS (comma-separated), one path per line
#   paths MANIFEST SETS   every path fs-images/manifest.txt lists in
#                         SETS (comma-separated), one per line
set -eu

reg=${REGISTRY:-$(dirname "$0")/filesystems.txt}
[ -f "$reg" ] || { echo "error: no registry at $reg" >&2; exit 1; }

# Every non-comment line of the registry, comments cut off.
lines() {
	sed -e 's/^[[:space:]]*#.*//' -e '/^[[:space:]]*$/d' "$reg"
}

validate() {
	awk -v file="$reg" '
		function bad(line, why) {
			printf "%s:%d: %s\n", file, line, why > "/dev/stderr"
			err = 1
		}
		BEGIN {
			n = split("type options package config mkfs size image bad " \
				"probe check codes repair repaired upgrade isempty progs guest " \
				"suites create trouble device setup cmdline mounter share mkimage precheck", k, " ")
			for (i = 1; i <= n; i++) key[k[i]] = 1
			# Keys that may stand on several lines of one entry.
			split("package config check trouble", k, " ")
			for (i in k) multi[k[i]] = 1
			# What a source reports (tests/caselist.c, kinds[]).
			split("table persist crash cleanup manifest links items wire kselftest observed", k, " ")
			for (i in k) kind[k[i]] = 1
		}
		/^[ \t]*#/ || NF == 0 { next }
		$1 == "suite" {
			if (NF < 4)
				bad(FNR, "a suite line is: suite NAME BOOT SOURCE:KIND...")
			for (i = 4; i <= NF; i++)
				if ($i !~ /^[a-z0-9-]+:[a-z]+$/ || !(substr($i, index($i, ":") + 1) in kind))
					bad(FNR, "not SOURCE:KIND with a known KIND: " $i)
			suite[$2] = 1
			for (i = 4; i <= NF; i++)
				srcs[$2] = srcs[$2] " " substr($i, 1, index($i, ":") - 1)
			next
		}
		NF < 3 { bad(FNR, "not NAME KEY VALUE..."); next }
		!($2 in key) { bad(FNR, "unknown key " $2); next }
		($1, $2) in has && !($2 in multi) {
			bad(FNR, $2 " given twice for " $1)
		}
		{ has[$1, $2] = FNR; if (!($1 in line)) { line[$1] = FNR; names[++nn] = $1 } }
		$2 == "suites" {
			for (i = 3; i <= NF; i++) {
				runs[$1, $i] = FNR
				# One suite per source: the judge plans each once.
				n = split(srcs[$i], w, " ")
				for (j = 1; j <= n; j++) {
					if (($1, w[j]) in from)
						bad(FNR, "suites " from[$1, w[j]] " and " $i " of " $1 " both report source " w[j])
					from[$1, w[j]] = $i
				}
			}
			list[$1] = $0
		}
		END {
			for (s in runs) {
				split(s, p, SUBSEP)
				if (!(p[2] in suite))
					bad(runs[s], "unknown suite " p[2])
			}
			for (i = 1; i <= nn; i++) {
				f = names[i]
				if (!((f, "suites") in has)) {
					bad(line[f], f " has no suites line (a misspelt name?)")
					continue
				}
				# What each suite needs of the entry.
				need(f, "image", "image")
				need(f, "manifest", "image")
				need(f, "bad", "bad")
				# The online repair runs inside the plan of the bad suite.
				if ((f, "online") in runs && !((f, "bad") in runs))
					bad(runs[f, "online"], "suite online of " f " needs suite bad")
				need(f, "fscrypt", "mkfs")
				need(f, "remount", "mkfs|device")
				need(f, "dropcaches", "remount")
				need(f, "crash", "mkfs")
				need(f, "snapshot", "image mkfs")
				need(f, "send", "image mkfs")
				need(f, "lower", "setup mkfs")
				need(f, "copyup", "setup mkfs")
				need(f, "served", "mounter|share")
				need(f, "wire", "setup mkfs")
				need(f, "fsck", "probe check codes")
				if ((f, "fsck") in runs && (f, "image") in has && (f, "repair") in has)
					need(f, "fsck", "repair repaired isempty")
				if ((f, "upgrade") in has)
					need(f, "fsck", "bad isempty progs repaired")
				if ((f, "mkfs") in has && !((f, "size") in has))
					bad(has[f, "mkfs"], f " has mkfs but no size")
				# Only the image and scratch disks go through setup
				# (guest-init.sh attach); the bad, snapshot, send and
				# crash plans mount the raw disk.
				if ((f, "setup") in has)
					raw_disk(f)
			}
			exit err
		}
		function raw_disk(f,   w, j) {
			for (j = split("bad snapshot send crash", w, " "); j > 0; j--)
				if ((f, w[j]) in runs)
					bad(runs[f, w[j]], "suite " w[j] " of " f " mounts its disk without the setup it needs")
		}
		# WHAT: keys or suites, all needed; A|B: either will do.
		function need(f, s, what,   w, i, n, a, j, m, ok) {
			if (!((f, s) in runs))
				return
			n = split(what, w, " ")
			for (i = 1; i <= n; i++) {
				m = split(w[i], a, "|")
				ok = 0
				for (j = 1; j <= m; j++)
					if ((f, a[j]) in has || (f, a[j]) in runs)
						ok = 1
				if (!ok)
					bad(runs[f, s], "suite " s " of " f " needs " w[i])
			}
		}' "$reg"
}

names() {
	lines | awk '$1 != "suite" && !seen[$1]++ { print $1 }'
}

get() { # fs key
	lines | awk -v n="$1" -v k="$2" '$1 == n && $2 == k {
		sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]*/, ""); print }'
}

each() { # key
	lines | awk -v k="$1" '$1 != "suite" && $2 == k {
		n = $1; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]*/, ""); print n, $0 }'
}

word() { # fs key n
	get "$1" "$2" | awk -v n="$3" 'NR == 1 { print $n }'
}

has() { # fs suite
	for s in $(get "$1" suites); do
		[ "$s" = "$2" ] && return 0
	done
	return 1
}

known() {
	all=$(names | tr '\n' ' ')
	for fs in "$@"; do
		case " $all" in
		*" $fs "*) ;;
		*) echo "error: unknown filesystem '$fs' (known: $all; see harness/filesystems.txt)" >&2
		   return 1 ;;
		esac
		# virtio-blk serials hold 20 bytes: "NAME-scratch" must fit.
		if [ ${#fs} -gt 12 ]; then
			echo "error: filesystem name '$fs' is longer than 12 characters" >&2
			return 1
		fi
	done
}

disks() {
	fs=$1
	out=
	[ -n "$(get "$fs" image)" ] && out="$out image"
	[ -n "$(get "$fs" bad)" ] && out="$out bad"
	[ -n "$(get "$fs" share)" ] && out="$out share"
	if [ -n "$(get "$fs" mkfs)" ]; then
		for s in table fscrypt remount dropcaches; do
			if has "$fs" "$s"; then
				out="$out scratch"
				break
			fi
		done
		has "$fs" crash && out="$out crash"
	fi
	echo "${out# }"
}

sources() { # fs boot
	for s in $(get "$1" suites); do
		lines | awk -v s="$s" -v b="$2" '$1 == "suite" && $2 == s {
			found = 1
			if ($3 == b) for (i = 4; i <= NF; i++) { sub(/:/, " ", $i); print $i }
		}
		END { if (!found) { print "error: unknown suite " s > "/dev/stderr"; exit 1 } }'
	done
}

plan() {
	k=$1
	shift
	for fs in "$@"; do
		for boot in main recover host; do
			sources "$fs" "$boot" | while read -r src kind; do
				echo "$k $fs $src $kind"
			done
		done
	done
}

# The union of the values of KEY over the filesystems, one per line.
union() { # key fs...
	key=$1
	shift
	for fs in "$@"; do
		for v in $(get "$fs" "$key"); do
			echo "$v"
		done
	done | awk '!seen[$0]++'
}

paths() { # manifest sets
	awk -v sets="$2" '
		BEGIN { n = split(sets, s, ","); for (i = 1; i <= n; i++) want[s[i]] = 1 }
		!/^[ \t]*#/ && ($1 in want) { print $2 }' "$1"
}

empty_links() { # manifest sets
	awk -v sets="$2" '
		BEGIN { n = split(sets, s, ","); for (i = 1; i <= n; i++) want[s[i]] = 1 }
		($1 in want) && $3 == "lnk" && $4 == "\"\"" { print $2 }' "$1"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
validate) validate ;;
names) names ;;
known) known "$@" ;;
get) get "$@" ;;
each) each "$@" ;;
word) word "$@" ;;
has) has "$@" ;;
disks) disks "$@" ;;
sources) sources "$@" ;;
plan) plan "$@" ;;
config) union config "$@" ;;
cmdline) union cmdline "$@" ;;
packages) union package "$@" ;;
progs) union progs "$@" ;;
empty-links) empty_links "$@" ;;
paths) paths "$@" ;;
guest) for fs in "$@"; do get "$fs" guest; done | awk '!seen[$0]++' ;;
*) echo "usage: registry.sh validate|names|known|get|each|word|has|disks|sources|plan|config|cmdline|packages|progs|guest|empty-links|paths ..." >&2
   exit 2 ;;
esac
