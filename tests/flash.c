// SPDX-License-Identifier: GPL-2.0
/*
 * mtd-setup DISK: block2mtd makes DISK an MTD device; prints its mount
 * source, mtdN (jffs2's image: erased flash or an image made on it).
 *
 * ubi-setup DISK NAME: the flash under the ubifs column.  block2mtd
 * turns the disk (erased flash, written by harness/erased-flash.sh, or
 * an image made that way) into an MTD device, UBI attaches to it, and on
 * a fresh disk one dynamic volume NAME takes all of it; ubifs formats an
 * empty volume on its first mount.  Prints the mount source, ubiN:NAME.  mtd-utils would
 * do the same, but its tools are not static and these are three calls.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <mtd/ubi-user.h>

#include "suites.h"

#define ERASE_SIZE "128KiB"

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static long read_long(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* The number of the MTD device block2mtd made of disk, or -1. */
static int find_mtd(const char *disk)
{
	char want[128], path[300], name[128];
	struct dirent *de;
	DIR *d = opendir("/sys/class/mtd");
	int num = -1, fd;
	ssize_t n;

	if (!d)
		return -1;
	snprintf(want, sizeof(want), "block2mtd: %s\n", disk);
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "mtd", 3) || strstr(de->d_name, "ro"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/mtd/%s/name",
			 de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, name, sizeof(name) - 1);
		close(fd);
		name[n > 0 ? n : 0] = '\0';
		if (!strcmp(name, want))
			num = atoi(de->d_name + 3);
	}
	closedir(d);
	return num;
}

/* block2mtd over disk: the new MTD device's number, or -1. */
static int make_mtd(const char *disk)
{
	char arg[128];
	int num;

	snprintf(arg, sizeof(arg), "%s,%s", disk, ERASE_SIZE);
	if (write_file("/sys/module/block2mtd/parameters/block2mtd", arg)) {
		fprintf(stderr, "block2mtd %s: %s\n", arg, strerror(errno));
		return -1;
	}
	num = find_mtd(disk);
	if (num < 0)
		fprintf(stderr, "no MTD device for %s\n", disk);
	return num;
}

int mtd_setup(const char *disk)
{
	int num = make_mtd(disk);

	if (num < 0)
		return 1;
	printf("mtd%d\n", num);
	return 0;
}

int ubi_setup(const char *disk, const char *volname)
{
	struct ubi_attach_req att = { .ubi_num = UBI_DEV_NUM_AUTO };
	struct ubi_mkvol_req mk = {
		.vol_id = UBI_VOL_NUM_AUTO,
		.alignment = 1,
		.vol_type = UBI_DYNAMIC_VOLUME,
	};
	char path[64];
	long pebs, pebsize;
	int fd, ret;

	att.mtd_num = make_mtd(disk);
	if (att.mtd_num < 0)
		return 1;
	fd = open("/dev/ubi_ctrl", O_RDONLY);
	ret = fd < 0 ? -1 : ioctl(fd, UBI_IOCATT, &att);
	if (ret < 0) {
		fprintf(stderr, "ubi-setup: attach mtd%d: %s\n", att.mtd_num,
			strerror(errno));
		return 1;
	}
	close(fd);

	/* An image made earlier has its volume already. */
	snprintf(path, sizeof(path), "/sys/class/ubi/ubi%d/volumes_count",
		 att.ubi_num);
	if (read_long(path) > 0)
		goto out;
	snprintf(path, sizeof(path), "/sys/class/ubi/ubi%d/avail_eraseblocks",
		 att.ubi_num);
	pebs = read_long(path);
	snprintf(path, sizeof(path), "/sys/class/ubi/ubi%d/eraseblock_size",
		 att.ubi_num);
	pebsize = read_long(path);
	if (pebs <= 0 || pebsize <= 0) {
		fprintf(stderr, "ubi-setup: ubi%d has no room\n", att.ubi_num);
		return 1;
	}
	mk.bytes = (long long)pebs * pebsize;
	mk.name_len = strlen(volname);
	if (mk.name_len > UBI_MAX_VOLUME_NAME) {
		fprintf(stderr, "ubi-setup: volume name too long\n");
		return 1;
	}
	memcpy(mk.name, volname, mk.name_len);
	snprintf(path, sizeof(path), "/dev/ubi%d", att.ubi_num);
	fd = open(path, O_RDONLY);
	ret = fd < 0 ? -1 : ioctl(fd, UBI_IOCMKVOL, &mk);
	if (ret < 0) {
		fprintf(stderr, "ubi-setup: make volume %s on %s: %s\n",
			volname, path, strerror(errno));
		return 1;
	}
	close(fd);
out:
	/* The mount source, for the guest's attach(). */
	printf("ubi%d:%s\n", att.ubi_num, volname);
	return 0;
}
