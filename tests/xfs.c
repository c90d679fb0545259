// SPDX-License-Identifier: GPL-2.0
/*
 * xfs' own view of an empty link: online scrub of every type that looks
 * at the link's inode or at the directory entry that names it (not
 * parent scrub: without parent pointers, which mkfs.xfs 6.1 cannot make,
 * it answers ENOENT for any inode that is not a directory), and
 * online repair forced to rebuild the link (XFS_SCRUB_IFLAG_FORCE_REBUILD),
 * as xfs_io -c "repair -R" asks for it.  Scrub must not call the link
 * corrupt; a rebuilt link must still read back as "".  The xfs_scrub
 * program, as patched, checks the whole filesystem.  Also the guest
 * command xfs-repair, which rebuilds every inode of an image of
 * corrupt ones (the suite "online").  The ioctls' structs are in xfs.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
#include "suites.h"
#include "xfs.h"

/*
 * Bulkstat of inode ino: its generation in *gen, which scrub checks
 * against a handle it can load.  0; an errno; or -1 when bulkstat gave
 * another inode.
 */
static int xfs_gen(int fd, __u64 ino, __u32 *gen)
{
	struct xfs_bulkstat_one bs;

	memset(&bs, 0, sizeof(bs));
	bs.hdr.ino = ino;
	bs.hdr.icount = 1;
	if (ioctl(fd, XFS_IOC_BULKSTAT, &bs) < 0)
		return errno;
	if (bs.hdr.ocount != 1 || bs.bs_ino != ino)
		return -1;
	*gen = bs.bs_gen;
	return 0;
}

/*
 * The inode number and generation of path (not followed): scrub wants
 * both.  0, or -1 with out written (a SKIP where the filesystem is not
 * xfs).
 */
static int xfs_handle(const struct ctx *c, const char *path,
		      struct xfs_scrub_metadata *sm, char *out)
{
	struct stat st;
	int err;

	if (!obs_on_fs(c->dfd, XFS_SUPER_MAGIC, "not xfs", out))
		return -1;
	if (lstat(path, &st) < 0) {
		obs_rc(out, -1);
		return -1;
	}
	err = xfs_gen(c->dfd, st.st_ino, &sm->sm_gen);
	if (err) {
		snprintf(out, OBS_LEN, "bulkstat:%s",
			 err < 0 ? "other-inode" : errno_name(err));
		return -1;
	}
	sm->sm_ino = st.st_ino;
	return 0;
}

/* The worst of what scrub said, as xfs_scrub would print it. */
static const char *scrub_verdict(__u32 oflags)
{
	static const struct {
		__u32 flag;
		const char *word;
	} v[] = {
		{ XFS_SCRUB_OFLAG_CORRUPT, "corrupt" },
		{ XFS_SCRUB_OFLAG_XCORRUPT, "xcorrupt" },
		{ XFS_SCRUB_OFLAG_XFAIL, "xfail" },
		{ XFS_SCRUB_OFLAG_INCOMPLETE, "incomplete" },
		{ XFS_SCRUB_OFLAG_WARNING, "warning" },
		{ XFS_SCRUB_OFLAG_PREEN, "preen" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		if (oflags & v[i].flag)
			return v[i].word;
	}
	return NULL;
}

/* Scrub (flags 0) or repair one object of type of path's inode. */
static int xfs_scrub_one(const struct ctx *c, const char *path, __u32 type,
			 __u32 flags, char *out)
{
	struct xfs_scrub_metadata sm = { .sm_type = type, .sm_flags = flags };
	const char *bad;

	if (xfs_handle(c, path, &sm, out) < 0)
		return -1;
	if (ioctl(c->dfd, XFS_IOC_SCRUB_METADATA, &sm) < 0) {
		obs_rc(out, -1);
		return -1;
	}
	bad = scrub_verdict(sm.sm_flags);
	if (bad) {
		snprintf(out, OBS_LEN, "%s", bad);
		return -1;
	}
	snprintf(out, OBS_LEN, "ok");
	return 0;
}

/*
 * The filesystem holding the link has the empty symlinks feature, and
 * says so in its geometry (XFS_FSOP_GEOM_FLAGS_EMPTY_SYMLINKS), the
 * flag xfs_info and tests look for.
 */
CASE(TABLE, self, xfs_geometry, "ok", NEEDS_EMPTY)
{
	struct xfs_fsop_geom geo;

	if (!obs_on_fs(c->dfd, XFS_SUPER_MAGIC, "not xfs", out))
		return;
	if (ioctl(c->dfd, XFS_IOC_FSGEOMETRY, &geo) < 0)
		obs_rc(out, -1);
	else if (!(geo.flags & XFS_FSOP_GEOM_FLAGS_EMPTY_SYMLINKS))
		snprintf(out, OBS_LEN, "no-flag:0x%x", geo.flags);
	else
		snprintf(out, OBS_LEN, "ok");
}

/* The link's inode record: mode, size, forks, flags (xchk_dinode()). */
CASE(TABLE, self, xfs_scrub_inode, "ok", NEEDS_EMPTY)
{
	xfs_scrub_one(c, "e", XFS_SCRUB_TYPE_INODE, 0, out);
}

/* The link's data fork mappings: a local fork has none. */
CASE(TABLE, self, xfs_scrub_bmbtd, "ok", NEEDS_EMPTY)
{
	xfs_scrub_one(c, "e", XFS_SCRUB_TYPE_BMBTD, 0, out);
}

/* The target itself (xchk_symlink()). */
CASE(TABLE, self, xfs_scrub, "ok", NEEDS_EMPTY)
{
	xfs_scrub_one(c, "e", XFS_SCRUB_TYPE_SYMLINK, 0, out);
}

/* The directory holding the link: each entry's file type and inode. */
CASE(TABLE, self, xfs_scrub_dir, "ok", NEEDS_EMPTY)
{
	xfs_scrub_one(c, ".", XFS_SCRUB_TYPE_DIR, 0, out);
}

/* Seconds xfs_scrub may take before SIGALRM: well inside SUITE_TIMEOUT. */
#define XFS_SCRUB_SECONDS 120

/*
 * The mount point of the xfs filesystem that holds directory fd: the
 * /proc/mounts entry of type xfs whose directory is on fd's device (the
 * guest's mount points have no blanks, which /proc/mounts escapes).
 */
static int xfs_mount_point(int fd, char *mnt, size_t len)
{
	char line[2 * PATH_MAX], dir[PATH_MAX], type[32];
	struct stat st, mst;
	int found = 0;
	FILE *f;

	if (fstat(fd, &st) < 0)
		return -1;
	f = fopen("/proc/mounts", "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %31s", dir, type) != 2 ||
		    strcmp(type, "xfs") || stat(dir, &mst) < 0 ||
		    mst.st_dev != st.st_dev)
			continue;
		snprintf(mnt, len, "%s", dir);
		found = 1;
	}
	fclose(f);
	return found ? 0 : -1;
}

/*
 * The xfs_scrub program of the patched xfsprogs, check only (-n), on
 * the whole filesystem that holds the link: every phase, every inode
 * and directory.  Exit 0 means it found nothing wrong anywhere; what
 * it says goes to the console (stderr), never into the KTAP on stdout.
 */
CASE(TABLE, self, xfs_scrub_fs, "ok", NEEDS_EMPTY)
{
	char mnt[PATH_MAX];
	int status;
	pid_t pid;

	if (!obs_on_fs(c->dfd, XFS_SUPER_MAGIC, "not xfs", out))
		return;
	if (xfs_mount_point(c->dfd, mnt, sizeof(mnt)) < 0) {
		snprintf(out, OBS_LEN, "no-mount-point");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		obs_rc(out, -1);
		return;
	}
	if (pid == 0) {
		/* A hang ends this case, not the whole suite. */
		alarm(XFS_SCRUB_SECONDS);
		if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(126);
		execl("/bin/xfs_scrub", "xfs_scrub", "-n", mnt, (char *)NULL);
		fprintf(stderr, "emptylink: /bin/xfs_scrub: %s\n",
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		obs_rc(out, -1);
	else if (WIFSIGNALED(status))
		snprintf(out, OBS_LEN, "signal:%d", WTERMSIG(status));
	else if (WEXITSTATUS(status))
		snprintf(out, OBS_LEN, "exit:%d", WEXITSTATUS(status));
	else
		snprintf(out, OBS_LEN, "ok");
}

/* Repair forced to run on a sound object; then the link must read "". */
static void xfs_rebuild(const struct ctx *c, __u32 type, char *out)
{
	char buf[OBS_LEN];
	struct stat st;
	ssize_t len;

	if (xfs_scrub_one(c, "e", type, XFS_SCRUB_IFLAG_REPAIR |
			  XFS_SCRUB_IFLAG_FORCE_REBUILD, out) < 0)
		return;
	len = readlink("e", buf, sizeof(buf));
	if (len != 0)
		obs_link(out, len, buf);
	else if (lstat("e", &st) < 0)
		obs_rc(out, -1);
	else if (st.st_size != 0)
		snprintf(out, OBS_LEN, "size=%lld", (long long)st.st_size);
	else
		obs_link(out, len, buf);
}

/* Inode repair: on a sound inode, the checks of xrep_inode_problems(). */
CASE(TABLE, self, xfs_repair_inode, "\"\"", NEEDS_EMPTY)
{
	xfs_rebuild(c, XFS_SCRUB_TYPE_INODE, out);
}

/*
 * Symlink repair: salvages the target, writes it into a temporary file
 * and exchanges the forks (xrep_symlink()); needs rmapbt and the
 * exchange-range feature.
 */
CASE(TABLE, self, xfs_repair_link, "\"\"", NEEDS_EMPTY)
{
	xfs_rebuild(c, XFS_SCRUB_TYPE_SYMLINK, out);
}

/* The inode number the directory entry path names, from readdir(). */
static __u64 dirent_ino(const char *path)
{
	char dir[PATH_MAX];
	const char *name = strrchr(path, '/');
	struct dirent *d;
	__u64 ino = 0;
	DIR *dp;

	if (!name || name == path)
		snprintf(dir, sizeof(dir), "%s", name ? "/" : ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(name - path), path);
	name = name ? name + 1 : path;
	dp = opendir(dir);
	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		if (!strcmp(d->d_name, name)) {
			ino = d->d_ino;
			break;
		}
	}
	closedir(dp);
	return ino;
}

/* One forced repair; what it said goes to stdout (the console). */
static void xfs_rebuild_ino(int fd, __u64 ino, __u32 type, const char *what,
			    const char *path)
{
	struct xfs_scrub_metadata sm = {
		.sm_type = type,
		.sm_flags = XFS_SCRUB_IFLAG_REPAIR |
			    XFS_SCRUB_IFLAG_FORCE_REBUILD,
		.sm_ino = ino,
	};
	const char *bad;

	/* An inode bulkstat cannot load keeps 0: scrub then skips the check. */
	xfs_gen(fd, ino, &sm.sm_gen);
	if (ioctl(fd, XFS_IOC_SCRUB_METADATA, &sm) < 0) {
		printf("xfs-repair %s %s: %s\n", path, what,
		       errno_name(errno));
		return;
	}
	bad = scrub_verdict(sm.sm_flags);
	printf("xfs-repair %s %s: %s\n", path, what, bad ? bad : "ok");
}

int xfs_repair_paths(const char *root, char *const *paths, int n)
{
	char full[PATH_MAX];
	struct stat st;
	int fd, i, rc = 0;
	__u64 ino;

	fd = open(root, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		perror(root);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (paths[i][0] != '/' ||
		    snprintf(full, sizeof(full), "%s%s", root, paths[i]) >=
		    (int)sizeof(full)) {
			fprintf(stderr, "emptylink xfs-repair: not a path under %s: %s\n",
				root, paths[i]);
			rc = 1;
			continue;
		}
		ino = dirent_ino(full);
		if (!ino) {
			fprintf(stderr, "emptylink xfs-repair: no entry %s\n",
				full);
			rc = 1;
			continue;
		}
		/*
		 * In xfs_scrub's order: the inode, its data fork mappings
		 * (which clears a zapped fork), then what the inode is.
		 */
		xfs_rebuild_ino(fd, ino, XFS_SCRUB_TYPE_INODE, "inode",
				paths[i]);
		xfs_rebuild_ino(fd, ino, XFS_SCRUB_TYPE_BMBTD, "bmapbtd",
				paths[i]);
		if (lstat(full, &st) < 0) {
			printf("xfs-repair %s lstat: %s\n", paths[i],
			       errno_name(errno));
			continue;
		}
		if (S_ISLNK(st.st_mode))
			xfs_rebuild_ino(fd, ino, XFS_SCRUB_TYPE_SYMLINK,
					"symlink", paths[i]);
		else if (S_ISDIR(st.st_mode))
			xfs_rebuild_ino(fd, ino, XFS_SCRUB_TYPE_DIR,
					"directory", paths[i]);
	}
	close(fd);
	return rc;
}
