#!/bin/sh
# qemu-boot.sh BZIMAGE INITRD OUTDIR ACCEL TIMEOUT CMDLINE [ARGSFILE]
# Boot once, never longer than TIMEOUT seconds.  ARGSFILE holds further
# QEMU arguments, one per line (harness/disks.sh writes it).  GUEST_MEM:
# the guest's RAM in MiB (default 1024).  Leaves in
# OUTDIR:
#   console.log  the guest's console: kernel messages and the markers
#   ktap.log     the KTAP document (the guest's second serial port)
#   dmesg.log    the guest's dmesg at the end (its third serial port)
#   qemu.err     QEMU's own messages
#   verdict      one word and a reason: completed, timeout, panic,
#                boot-failed, guest-error (the guest's init said
#                EMPTYLINK-ERROR: an unknown filesystem, a missing port)
#                or incomplete
#   accel        the accelerator that ran
# Exits 0 when the guest completed its run, 1 otherwise.  Kernel
# complaints (BUG, WARNING, ...) are judged from dmesg.log by
# harness/report.sh through harness/dmesg-check.sh.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 out=$3 accel=$4 limit=$5 cmdline=$6
argsfile=${7:-}

[ -f "$kernel" ] || die "no kernel image at $kernel"
[ -f "$initrd" ] || die "no initramfs at $initrd"
[ -z "$argsfile" ] || [ -f "$argsfile" ] || die "no QEMU argument file at $argsfile"
mkdir -p "$out"
rm -f "$out/ktap.log" "$out/dmesg.log" "$out/verdict"

set --
if [ -n "$argsfile" ]; then
	while IFS= read -r a; do
		set -- "$@" "$a"
	done <"$argsfile"
fi
[ "$accel" = kvm ] && set -- -cpu host "$@"

rc=0
timeout -k 5 "$limit" qemu-system-x86_64 -accel "$accel" -m "${GUEST_MEM:-1024}" -smp 1 \
	-display none -vga none -monitor none -no-reboot \
	-serial stdio -serial "file:$out/ktap.log" -serial "file:$out/dmesg.log" \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet $cmdline" "$@" \
	</dev/null >"$out/console.log.raw" 2>"$out/qemu.err" || rc=$?
tr -d '\r' <"$out/console.log.raw" >"$out/console.log"
rm -f "$out/console.log.raw"
for f in ktap.log dmesg.log; do
	if [ -f "$out/$f" ]; then
		tr -d '\r' <"$out/$f" >"$out/$f.tmp" && mv "$out/$f.tmp" "$out/$f"
	else
		: >"$out/$f"
	fi
done

# The KTAP plan against the suites the guest reported at the top level.
planned=$(sed -n 's/^1\.\.//p' "$out/ktap.log" | head -n1)
reported=$(grep -cE '^(not )?ok [0-9]+ ' "$out/ktap.log" || true)
last() { grep -v '^$' "$out/console.log" | tail -n1 | cut -c1-80; }
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	v="timeout: no end after ${limit}s (last line: $(last))"
elif grep -q 'Kernel panic' "$out/console.log"; then
	v="panic: $(grep -m1 'Kernel panic' "$out/console.log" | cut -c1-100)"
elif ! grep -q 'EMPTYLINK-BOOTED' "$out/console.log"; then
	v="boot-failed: QEMU exit $rc, init never ran ($(head -c 200 "$out/qemu.err" | tr '\n' ' '))"
elif grep -q 'EMPTYLINK-ERROR' "$out/console.log"; then
	v="guest-error: $(grep -m1 -o 'EMPTYLINK-ERROR.*' "$out/console.log" | cut -c17-120)"
elif ! grep -q '^EMPTYLINK-DONE' "$out/console.log"; then
	v="incomplete: init stopped before the end of the run (last line: $(last))"
elif [ -z "$planned" ] || [ "$planned" != "$reported" ]; then
	v="incomplete: the KTAP plan (${planned:-none}) and the $reported suites reported differ"
else
	v="completed: $(grep -m1 -o 'EMPTYLINK-BOOTED.*' "$out/console.log" | cut -d' ' -f2-)"
fi
echo "$v" >"$out/verdict"
echo "$accel" >"$out/accel"
case "$v" in completed:*) exit 0 ;; *) exit 1 ;; esac
