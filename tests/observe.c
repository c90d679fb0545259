// SPDX-License-Identifier: GPL-2.0
/* Turning system call results into the words the matrix prints. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "observe.h"

static const struct {
	int err;
	const char *name;
} errnos[] = {
	{ EPERM, "EPERM" },     { ENOENT, "ENOENT" },
	{ EIO, "EIO" },         { EBADF, "EBADF" },
	{ EACCES, "EACCES" },   { EEXIST, "EEXIST" },
	{ EXDEV, "EXDEV" },     { ENOTDIR, "ENOTDIR" },
	{ EISDIR, "EISDIR" },   { EINVAL, "EINVAL" },
	{ ENOSPC, "ENOSPC" },   { EROFS, "EROFS" },
	{ EMLINK, "EMLINK" },   { ENAMETOOLONG, "ENAMETOOLONG" },
	{ ENOSYS, "ENOSYS" },   { ENOTEMPTY, "ENOTEMPTY" },
	{ ELOOP, "ELOOP" },     { EOPNOTSUPP, "EOPNOTSUPP" },
	{ EUCLEAN, "EUCLEAN" }, { ENOEXEC, "ENOEXEC" },
	{ ENOTTY, "ENOTTY" },   { E2BIG, "E2BIG" },
	{ ENODATA, "ENODATA" }, { ESTALE, "ESTALE" },
};

const char *errno_name(int err)
{
	static char other[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnos); i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	snprintf(other, sizeof(other), "E%d", err);
	return other;
}

void obs_rc(char *out, long rc)
{
	snprintf(out, OBS_LEN, "%s", rc >= 0 ? "ok" : errno_name(errno));
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
	return len > 40;
}

void obs_link(char *out, long len, const char *buf)
{
	if (len < 0)
		obs_rc(out, -1);
	else if (one_char_run(len, buf))
		snprintf(out, OBS_LEN, "%c*%ld", buf[0], len);
	else if (len > 40)
		snprintf(out, OBS_LEN, "\"%.36s...\":%ld", buf, len);
	else
		snprintf(out, OBS_LEN, "\"%.*s\"", (int)len, buf);
}
