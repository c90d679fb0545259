// SPDX-License-Identifier: GPL-2.0
/*
 * ext4's own view of an empty link: an xattr value larger than a block,
 * which only the ea_inode feature can store (in an xattr inode, whose
 * size the kernel charges to the link's i_blocks).  e2fsck took such an
 * empty link for one that maps blocks and cleared it, until its rule for
 * fast symlinks stopped looking at i_blocks (patches/e2fsprogs/).  The
 * link stays on the disk for the fsck rows.
 */
#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cases.h"

/* Larger than a 4 KiB block: only an xattr inode holds the value. */
#define BIG_XATTR_LEN 8000

CASE(TABLE, self, ext4_big_xattr, "ok", NEEDS_EMPTY)
{
	static char value[BIG_XATTR_LEN], back[BIG_XATTR_LEN];
	char target[16];
	ssize_t len;

	if (!obs_on_fs(c->dfd, EXT4_SUPER_MAGIC, "not ext2/3/4", out))
		return;
	memset(value, 'x', sizeof(value));
	if (lsetxattr("e", "trusted.big", value, sizeof(value), 0) < 0) {
		obs_rc(out, -1);
		return;
	}
	len = lgetxattr("e", "trusted.big", back, sizeof(back));
	if (len != sizeof(value) || memcmp(back, value, sizeof(value))) {
		snprintf(out, OBS_LEN, "xattr-len:%zd", len);
		return;
	}
	/* The value must not have become the target. */
	len = readlink("e", target, sizeof(target));
	if (len != 0)
		obs_link(out, len, target);
	else
		snprintf(out, OBS_LEN, "ok");
}
