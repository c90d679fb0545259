#!/bin/sh
# /init of the test guest (busybox sh).  Reads its orders from the kernel
# command line (emptylink.kernel=, emptylink.fs=, emptylink.selftest=),
# runs the test table once per filesystem and source, prints KTAP on the
# console, then dmesg between markers, and reboots (QEMU runs with
# -no-reboot, so that ends the run).  Every marker the host looks for
# starts with "EMPTYLINK-".
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^emptylink\.$1=//p"
}
kernel=$(arg kernel)
fslist=$(arg fs | tr , ' ')
selftest=$(arg selftest)
echo "EMPTYLINK-BOOTED $(uname -r) kernel=$kernel fs=$fslist"

case "$selftest" in
panic) echo "EMPTYLINK-SELFTEST: init exits, the kernel must panic"; exit 1 ;;
hang) echo "EMPTYLINK-SELFTEST: hanging"; while :; do sleep 3600; done ;;
esac

# Each filesystem prints its suites, one line each: "fs dir link", where
# link is the empty link to hard-link from (an image) or "-" (scratch:
# the cases make their own with symlink("")).
suites_tmpfs() {
	mkdir -p /mnt/tmpfs
	mount -t tmpfs tmpfs /mnt/tmpfs && echo "tmpfs /mnt/tmpfs/run -"
	# The initramfs is tmpfs too: its empty link came in through cpio.
	[ "$(stat -f -c %T /)" = tmpfs ] && echo "tmpfs /fixtures/run /fixtures/empty"
}

suites=/tmp.suites
: >"$suites"
for fs in $fslist; do
	if command -v "suites_$fs" >/dev/null; then
		"suites_$fs" >>"$suites"
	else
		echo "EMPTYLINK-ERROR: no suites for filesystem $fs"
	fi
done

echo "KTAP version 1"
echo "1..$(wc -l <"$suites")"
i=0
failflag=--selftest-fail
[ "$selftest" = fail ] || failflag=
while read -r fs dir link; do
	i=$((i + 1))
	from=
	[ "$link" = - ] || from="--from $link"
	# shellcheck disable=SC2086
	/emptylink --kernel "$kernel" --fs "$fs" --dir "$dir" \
		--expect /expected.txt --index "$i" $from $failflag </dev/null
	failflag=
done <"$suites"

echo "EMPTYLINK-DMESG-BEGIN"
dmesg
echo "EMPTYLINK-DMESG-END"
echo "EMPTYLINK-DONE"
sync
reboot -f
