// SPDX-License-Identifier: GPL-2.0
/* Turning system call results into the words the matrix prints. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "observe.h"

/* "ENOENT"; glibc knows every name, "E%d" for the rest. */
const char *errno_name(int err)
{
	static char other[16];
	const char *name = strerrorname_np(err);

	if (name && name[0] == 'E')
		return name;
	snprintf(other, sizeof(other), "E%d", err);
	return other;
}

void obs_err(char *out, long rc, int err)
{
	snprintf(out, OBS_LEN, "%s", rc >= 0 ? "ok" : errno_name(err));
}

void obs_rc(char *out, long rc)
{
	obs_err(out, rc, errno);
}

void obs_setup(char *out, int err)
{
	snprintf(out, OBS_LEN, "setup:%s", errno_name(err));
}

#define SKIP_MARK "SKIP:"

void obs_skip(char *out, const char *reason)
{
	snprintf(out, OBS_LEN, SKIP_MARK "%s", reason);
}

const char *obs_skipped(const char *out)
{
	size_t n = strlen(SKIP_MARK);

	return strncmp(out, SKIP_MARK, n) ? NULL : out + n;
}

const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "dir";
	case S_IFREG:
		return "reg";
	case S_IFLNK:
		return "lnk";
	case S_IFCHR:
		return "chr";
	case S_IFBLK:
		return "blk";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "sock";
	}
	return "?";
}

void obs_stat_type(const char *path, char *out)
{
	struct stat st;

	if (stat(path, &st) < 0)
		obs_rc(out, -1);
	else
		snprintf(out, OBS_LEN, "%s", type_name(st.st_mode));
}

void obs_fd_type(char *out, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		obs_rc(out, -1);
	else
		snprintf(out, OBS_LEN, "%s", type_name(st.st_mode));
}

void obs_type_size(char *out, mode_t mode, long long size)
{
	if (S_ISDIR(mode))
		snprintf(out, OBS_LEN, "dir");
	else
		snprintf(out, OBS_LEN, "%s:%lld", type_name(mode), size);
}

void obs_lstat(const char *path, char *out)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		obs_rc(out, -1);
	else
		obs_type_size(out, st.st_mode, st.st_size);
}

/* A long run of one character reads as c*N, as in fs-images/manifest.txt. */
static int one_char_run(long len, const char *buf)
{
	long i;

	for (i = 1; i < len; i++)
		if (buf[i] != buf[0])
			return 0;
	return len > 40 && buf[0] > ' ' && buf[0] < 0x7f;
}

/* buf escaped into out, as much as fits in room; returns bytes taken. */
static long quote(char *out, size_t room, const char *buf, long len)
{
	size_t n = 0;
	long i;

	for (i = 0; i < len; i++) {
		unsigned char ch = buf[i];
		int w = ch > ' ' && ch < 0x7f && ch != '\\' ? 1 : 4;

		if (n + w >= room)
			break;
		if (w == 1)
			out[n] = ch;
		else
			snprintf(out + n, 5, "\\x%02x", ch);
		n += w;
	}
	out[n] = '\0';
	return i;
}

void obs_link(char *out, long len, const char *buf)
{
	char whole[OBS_LEN - 2], start[37];

	if (len < 0) {
		obs_rc(out, -1);
	} else if (one_char_run(len, buf)) {
		snprintf(out, OBS_LEN, "%c*%ld", buf[0], len);
	} else if (len > 40 || quote(whole, sizeof(whole), buf, len) < len) {
		/* Too long to print whole: its start, and its length. */
		quote(start, sizeof(start), buf, len);
		snprintf(out, OBS_LEN, "\"%s...\":%ld", start, len);
	} else {
		snprintf(out, OBS_LEN, "\"%s\"", whole);
	}
}

int obs_on_fs(int dfd, long magic, const char *why, char *out)
{
	struct statfs sfs;

	if (fstatfs(dfd, &sfs) < 0) {
		obs_rc(out, -1);
		return 0;
	}
	if (sfs.f_type != magic) {
		obs_skip(out, why);
		return 0;
	}
	return 1;
}
