/* SPDX-License-Identifier: GPL-2.0 */
/* The kinds of suite the guest runs; each prints one KTAP subtest. */
#ifndef EMPTYLINK_SUITES_H
#define EMPTYLINK_SUITES_H

#include "ktap.h"

/*
 * The test table (tests/cases.c) in DIR.  The empty link each case needs
 * is made with symlink("") or, with from, hard-linked from that link.
 */
int run_table(struct suite *s, const char *dir, const char *from,
	      int selftest_fail);

/*
 * Compare the image mounted at root with the entries of fs-images/
 * manifest.txt whose FS column matches set (the filesystem's name, or
 * e.g. "xfs-bad" for an image of other entries).
 */
int run_manifest(struct suite *s, const char *manifest, const char *set,
		 const char *root);

/*
 * Persistence: persist_setup() leaves links in DIR before an unmount,
 * run_persist() checks them after the mount (or after drop_caches).
 */
int persist_setup(const char *dir);
int run_persist(struct suite *s, const char *dir);
/* The persistence cases, run in the directory persist_setup() filled. */
unsigned int persist_count(void);
void persist_report(struct suite *s);
/* Inodes the caller made after persist_setup() and kept, for inode_freed. */
void persist_extra_inodes(unsigned int n);

/*
 * Crash: crash_setup() leaves links in DIR just before the guest reboots
 * without syncing or unmounting; run_crash() checks them after the next
 * boot's mount has replayed the journal or log; run_cleanup() checks
 * that nothing is left once they are removed and the fs remounted.
 */
int crash_setup(const char *dir);
int run_crash(struct suite *s, const char *dir);
int run_cleanup(struct suite *s, const char *dir);

/*
 * fscrypt_setup() makes dir an encrypted directory (v2 policy, a fixed
 * test key); fscrypt_unlock() adds the key again after a remount.
 */
int fscrypt_setup(const char *dir);
int fscrypt_unlock(const char *dir);

/* Each of paths, under root, must be an empty link. */
int run_links(struct suite *s, const char *root, char **paths, int n);

/* Host side: judge NAME=OBSERVED pairs (e.g. fsck verdicts). */
int run_judge(struct suite *s, char **pairs, int n);

#endif
