/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The xfs ioctls tests/xfs.c uses, as xfs_scrub does: the uapi structs
 * of fs/xfs/libxfs/xfs_fs.h cut to the fields used, so that the guest
 * build needs no xfslibs-dev.
 */
#ifndef EMPTYLINK_XFS_H
#define EMPTYLINK_XFS_H

#include <assert.h>
#include <linux/types.h>
#include <sys/ioctl.h>

struct xfs_scrub_metadata {
	__u32 sm_type, sm_flags;
	__u64 sm_ino;
	__u32 sm_gen, sm_agno;
	__u64 sm_reserved[5];
};

struct xfs_bulk_ireq {
	__u64 ino;
	__u32 flags, icount, ocount, agno;
	__u64 reserved[5];
};

/* XFS_IOC_BULKSTAT of one inode: the request, then its struct xfs_bulkstat. */
struct xfs_bulkstat_one {
	struct xfs_bulk_ireq hdr;
	__u64 bs_ino, bs_size, bs_blocks, bs_xflags;
	__s64 bs_atime, bs_mtime, bs_ctime, bs_btime;
	__u32 bs_gen;
	__u32 rest[47];		/* more than sizeof(struct xfs_bulkstat), 192 */
};

static_assert(sizeof(struct xfs_bulkstat_one) == 64 + 256, "xfs_bulkstat");

/* XFS_IOC_FSGEOMETRY's struct xfs_fsop_geom (version 5), to its flags. */
struct xfs_fsop_geom {
	__u32 sizes[8];		/* blocksize ... imaxpct */
	__u64 blocks[4];	/* datablocks ... logstart */
	unsigned char uuid[16];
	__u32 sunit, swidth;
	__s32 version;
	__u32 flags;
	__u32 rest[40];		/* logsectsize ... reserved[17] */
};

static_assert(sizeof(struct xfs_fsop_geom) == 256, "xfs_fsop_geom");

#define XFS_SUPER_MAGIC		0x58465342
#define XFS_IOC_BULKSTAT	_IOR('X', 127, struct xfs_bulk_ireq)
#define XFS_IOC_FSGEOMETRY	_IOR('X', 126, struct xfs_fsop_geom)
/* Patch 0008: the empty symlinks feature, as userspace sees it. */
#define XFS_FSOP_GEOM_FLAGS_EMPTY_SYMLINKS 0x40000000
#define XFS_IOC_SCRUB_METADATA	_IOWR('X', 60, struct xfs_scrub_metadata)
#define XFS_SCRUB_TYPE_INODE	11
#define XFS_SCRUB_TYPE_BMBTD	12
#define XFS_SCRUB_TYPE_DIR	15
#define XFS_SCRUB_TYPE_SYMLINK	17

/* The flags, as xfs_fs.h writes them in its comments. */
#define XFS_SCRUB_IFLAG_REPAIR	0x1	/* (1u << 0) */
#define XFS_SCRUB_OFLAG_CORRUPT	0x2	/* (1u << 1) */
#define XFS_SCRUB_OFLAG_PREEN	0x4	/* (1u << 2) */
#define XFS_SCRUB_OFLAG_XFAIL	0x8	/* (1u << 3) */
#define XFS_SCRUB_OFLAG_XCORRUPT	0x10	/* (1u << 4) */
#define XFS_SCRUB_OFLAG_INCOMPLETE	0x20	/* (1u << 5) */
#define XFS_SCRUB_OFLAG_WARNING	0x40	/* (1u << 6) */
#define XFS_SCRUB_IFLAG_FORCE_REBUILD	0x100	/* (1u << 8) */

#endif
