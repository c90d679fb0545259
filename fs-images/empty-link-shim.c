// SPDX-License-Identifier: GPL-2.0
/*
 * empty-link-shim.so: an LD_PRELOAD library under which an image tool
 * sees each symlink whose target is "E" as an empty link: readlink()
 * returns 0 bytes and lstat() reports st_size 0.  The host kernel
 * cannot make an empty link (it has no part of this series), but the
 * tools that pack a tree into a read-only image (mksquashfs,
 * mkfs.erofs, mkfs.cramfs, genromfs, makefs) store whatever readlink()
 * and lstat() say, so an image gets an empty link the way a system that
 * allows one would write it, with the format's own tool.
 *
 * It also reports every file's st_atime and st_ctime as its st_mtime:
 * the tree's times are set (touch -d), but no call sets a ctime, and
 * reading the tree moves the atimes; some tools store both (makefs, in
 * Rock Ridge's TF entry), which would make each image differ from the
 * last.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MARK "E"

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static int is_marked(int dirfd, const char *path)
{
	ssize_t (*rl)(int, const char *, char *, size_t) = real("readlinkat");
	char buf[sizeof(MARK)];

	return rl(dirfd, path, buf, sizeof(buf)) == sizeof(MARK) - 1 &&
	       !memcmp(buf, MARK, sizeof(MARK) - 1);
}

ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	ssize_t (*rl)(int, const char *, char *, size_t) = real("readlinkat");

	if (is_marked(dirfd, path))
		return 0;
	return rl(dirfd, path, buf, size);
}

ssize_t readlink(const char *path, char *buf, size_t size)
{
	return readlinkat(AT_FDCWD, path, buf, size);
}

/*
 * Each stat flavour glibc exports: call it, then give the atime and
 * the ctime the mtime, and empty a marked link.
 */
#define FIX(st, dirfd, path)						\
	do {								\
		if (ret)						\
			break;						\
		(st)->st_atim = (st)->st_mtim;				\
		(st)->st_ctim = (st)->st_mtim;				\
		if (S_ISLNK((st)->st_mode) &&				\
		    (st)->st_size == sizeof(MARK) - 1 &&		\
		    is_marked(dirfd, path))				\
			(st)->st_size = 0;				\
	} while (0)

/* stat(path, st) and lstat(path, st), 32- and 64-bit. */
#define PATH_STAT(name, type)						\
int name(const char *path, struct type *st)				\
{									\
	int (*fn)(const char *, struct type *) = real(#name);		\
	int ret = fn(path, st);						\
									\
	FIX(st, AT_FDCWD, path);					\
	return ret;							\
}

/* fstatat(dirfd, path, st, flags), 32- and 64-bit. */
#define AT_STAT(name, type)						\
int name(int dirfd, const char *path, struct type *st, int flags)	\
{									\
	int (*fn)(int, const char *, struct type *, int) = real(#name);	\
	int ret = fn(dirfd, path, st, flags);				\
									\
	FIX(st, dirfd, path);						\
	return ret;							\
}

/* __xstat(ver, path, st): binaries built against glibc before 2.33. */
#define VER_STAT(name, type)						\
int name(int ver, const char *path, struct type *st)			\
{									\
	int (*fn)(int, const char *, struct type *) = real(#name);	\
	int ret = fn(ver, path, st);					\
									\
	FIX(st, AT_FDCWD, path);					\
	return ret;							\
}

PATH_STAT(lstat, stat)
PATH_STAT(lstat64, stat64)
PATH_STAT(stat, stat)
PATH_STAT(stat64, stat64)
AT_STAT(fstatat, stat)
AT_STAT(fstatat64, stat64)
VER_STAT(__lxstat, stat)
VER_STAT(__lxstat64, stat64)
VER_STAT(__xstat, stat)
VER_STAT(__xstat64, stat64)
