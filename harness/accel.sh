#!/bin/sh
# accel.sh BZIMAGE: print the accelerator to boot with, "kvm" or "tcg".
# KVM is used only if a short probe boot under it reaches the kernel's
# first console line; a KVM that aborts or hangs (as on the project's
# machines) costs at most the probe's timeout.  ACCEL=tcg|kvm overrides.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1
if [ -n "${ACCEL:-}" ]; then
	echo "$ACCEL"
	exit 0
fi
if [ ! -w /dev/kvm ]; then
	say "accel: /dev/kvm not usable, using TCG" >&2
	echo tcg
	exit 0
fi
out=$(timeout -k 2 10 qemu-system-x86_64 -accel kvm -cpu host -m 256 \
	-nographic -no-reboot -kernel "$kernel" \
	-append "console=ttyS0 panic=-1" </dev/null 2>&1 || true)
case "$out" in
*"Linux version"*)
	say "accel: KVM probe booted, using KVM" >&2
	echo kvm ;;
*)
	# First line QEMU or the firmware printed, without terminal escapes.
	first=$(printf '%s\n' "$out" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g' |
		tr -cd '[:print:]\n' | grep -m1 -v '^ *$' | cut -c1-70)
	say "accel: KVM probe did not boot within 10s (\"$first\"), using TCG" >&2
	echo tcg ;;
esac
