#!/bin/sh
# qemu-boot.sh BZIMAGE INITRD OUTDIR ACCEL TIMEOUT CMDLINE [QEMU ARGS...]
# Boot once, never longer than TIMEOUT seconds, and leave in OUTDIR:
#   console.log  everything the guest printed on its serial console
#   qemu.err     QEMU's own messages
#   ktap.log     the KTAP document the guest printed
#   dmesg.log    the guest's dmesg, as it printed it before rebooting
#   verdict      one word and a reason: completed, timeout, panic, oops,
#                boot-failed or incomplete
# Exits 0 when the guest completed its run, 1 otherwise.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 out=$3 accel=$4 limit=$5 cmdline=$6
shift 6

[ -f "$kernel" ] || die "no kernel image at $kernel"
[ -f "$initrd" ] || die "no initramfs at $initrd"
mkdir -p "$out"
cpu=
[ "$accel" = kvm ] && cpu="-cpu host"

rc=0
# shellcheck disable=SC2086
timeout -k 5 "$limit" qemu-system-x86_64 -accel "$accel" $cpu -m 1024 -smp 1 \
	-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet $cmdline" "$@" \
	</dev/null >"$out/console.log.raw" 2>"$out/qemu.err" || rc=$?
tr -d '\r' <"$out/console.log.raw" >"$out/console.log"
rm -f "$out/console.log.raw"

# The KTAP document: from its version line up to the dmesg marker.
sed -n '/^KTAP version 1$/,/^EMPTYLINK-DMESG-BEGIN$/p' "$out/console.log" |
	grep -v '^EMPTYLINK-' >"$out/ktap.log" || true
sed -n '/^EMPTYLINK-DMESG-BEGIN$/,/^EMPTYLINK-DMESG-END$/p' "$out/console.log" |
	grep -v '^EMPTYLINK-' >"$out/dmesg.log" || true

first() { grep -m1 -E "$1" "$out/console.log" | cut -c1-100; }
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	v="timeout: no end after ${limit}s (last line: $(grep -v '^$' "$out/console.log" | tail -n1 | cut -c1-80))"
elif grep -q 'Kernel panic' "$out/console.log"; then
	v="panic: $(first 'Kernel panic')"
elif grep -qE 'BUG:|Oops|general protection fault' "$out/console.log"; then
	v="oops: $(first 'BUG:|Oops|general protection fault')"
elif ! grep -q 'EMPTYLINK-BOOTED' "$out/console.log"; then
	v="boot-failed: QEMU exit $rc, init never ran ($(head -c 200 "$out/qemu.err" | tr '\n' ' '))"
elif ! grep -q '^EMPTYLINK-DONE' "$out/console.log"; then
	v="incomplete: init stopped before the end of the run"
elif [ "$(sed -n 's/^1\.\.//p' "$out/ktap.log" | head -n1)" != \
	"$(grep -cE '^(not )?ok [0-9]+ ' "$out/ktap.log")" ]; then
	v="incomplete: the KTAP plan and the suites reported differ"
else
	v="completed: $(grep -m1 -o 'EMPTYLINK-BOOTED.*' "$out/console.log" | cut -d' ' -f2-)"
fi
echo "$v" >"$out/verdict"
echo "$accel" >"$out/accel"
case "$v" in completed:*) exit 0 ;; *) exit 1 ;; esac
