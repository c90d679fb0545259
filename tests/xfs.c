// SPDX-License-Identifier: GPL-2.0
/*
 * xfs' own view of an empty link: online scrub of every type that looks
 * at the link's inode or at the directory entry that names it, and
 * online repair forced to rebuild the link (XFS_SCRUB_IFLAG_FORCE_REBUILD),
 * as xfs_scrub -k / xfs_io -c "repair -R" ask for it.  Scrub must not
 * call the link corrupt; a rebuilt link must still read back as "".
 * The ioctls' structs are in xfs.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cases.h"
#include "xfs.h"

/*
 * The inode number and generation of path (not followed): scrub wants
 * both, and bulkstat gives the generation.  0, or -1 with out written
 * (a SKIP where the filesystem is not xfs).
 */
static int xfs_handle(const struct ctx *c, const char *path,
		      struct xfs_scrub_metadata *sm, char *out)
{
	struct xfs_bulkstat_one bs;
	struct statfs sfs;
	struct stat st;

	if (fstatfs(c->dfd, &sfs) < 0) {
		obs_rc(out, -1);
		return -1;
	}
	if (sfs.f_type != XFS_SUPER_MAGIC) {
		obs_skip(out, "not xfs");
		return -1;
	}
	if (lstat(path, &st) < 0) {
		obs_rc(out, -1);
		return -1;
	}
	memset(&bs, 0, sizeof(bs));
	bs.hdr.ino = st.st_ino;
	bs.hdr.icount = 1;
	if (ioctl(c->dfd, XFS_IOC_BULKSTAT, &bs) < 0) {
		snprintf(out, OBS_LEN, "bulkstat:%s", errno_name(errno));
		return -1;
	}
	if (bs.hdr.ocount != 1 || bs.bs_ino != (__u64)st.st_ino) {
		snprintf(out, OBS_LEN, "bulkstat:other-inode");
		return -1;
	}
	sm->sm_ino = st.st_ino;
	sm->sm_gen = bs.bs_gen;
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

	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (oflags & v[i].flag)
			return v[i].word;
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

/* The link's parent: the directory entries that name it. */
CASE(TABLE, self, xfs_scrub_parent, "ok", NEEDS_EMPTY)
{
	xfs_scrub_one(c, "e", XFS_SCRUB_TYPE_PARENT, 0, out);
}

/* The directory holding the link: each entry's file type and inode. */
CASE(TABLE, self, xfs_scrub_dir, "ok", NEEDS_EMPTY)
{
	xfs_scrub_one(c, ".", XFS_SCRUB_TYPE_DIR, 0, out);
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
	if (len != 0 || lstat("e", &st) < 0 || st.st_size == 0)
		obs_link(out, len, buf);
	else
		snprintf(out, OBS_LEN, "size=%lld", (long long)st.st_size);
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
