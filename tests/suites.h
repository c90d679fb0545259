/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands of emptylink (see the comment at the top of
 * emptylink.c).  The ones that print a KTAP subtest return 0 when it was
 * printed, 1 when the suite could not run at all ("not ok INDEX ...").
 */
#ifndef EMPTYLINK_SUITES_H
#define EMPTYLINK_SUITES_H

#include "cases.h"
#include "ktap.h"

/*
 * The test table (tests/cases.c) in DIR.  The empty link each case needs
 * is made with symlink("") or, with from, hard-linked from that link.
 */
int run_table(struct suite *s, const char *dir, const char *from,
	      int selftest_fail);

/*
 * Compare the image mounted at root with the entries of fs-images/
 * manifest.txt whose SET column is one of sets (comma-separated).
 */
int run_manifest(struct suite *s, const char *manifest, const char *sets,
		 const char *root);

/*
 * Persistence: persist_setup() leaves links in DIR before an unmount,
 * run_persist() reads them back after the mount (or drop_caches).
 * persist_make() is persist_setup() for crash_setup(): r gets its record.
 */
int persist_setup(const char *dir);
int persist_make(const char *dir, struct record *r);
int run_persist(struct suite *s, const char *dir);

/*
 * Each case of v in the working directory, unless base->rec says a link
 * it needs was never made (then it observes "setup:...").
 */
void run_recorded(struct suite *s, const struct tcase **v, unsigned int n,
		  const struct ctx *base);

/*
 * Crash: crash_setup() leaves synced links in DIR (and syncs DIR's
 * filesystem only), for every filesystem; then crash_late() leaves an
 * fsynced and an unsynced link in each DIR, just before the guest reboots
 * without syncing or unmounting; run_crash() checks them after the next
 * boot's mount has replayed the journal or log; run_cleanup() checks
 * that nothing is left once DIR is removed and the fs remounted.
 */
int crash_setup(const char *dir);
int crash_late(const char *dir);
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

/*
 * Host side: NAME=OBSERVED=WANT verdicts the host measured itself (fsck)
 * as raw KTAP.  Returns 2 on a malformed argument.
 */
int run_observed(struct suite *s, char **args, int n);

/* Make disk an MTD device; print its mount source (flash.c). */
int mtd_setup(const char *disk);
/* Make disk an MTD device with one UBI volume, volname (flash.c). */
int ubi_setup(const char *disk, const char *volname);

/*
 * Mount an in-memory FUSE filesystem on dir, served by a forked child
 * until dir is unmounted; with empty_symlinks the server says
 * FUSE_EMPTY_SYMLINKS at INIT (fuse.c).  0 once mounted, 1 on failure.
 */
int fuse_serve(const char *dir, int empty_symlinks);

/*
 * The cases of suite id, each once, in declaration order, all on c
 * (ordered.c); a set-up failure before it is s->broken.
 */
int run_in_order(struct suite *s, enum suite_id id, const struct ctx *c);

/* configfs: links between the NVMe target's items under root (configfs.c). */
int run_items(struct suite *s, const char *root);

/* Add eCryptfs' test key, signature sig, to the user keyring (ecryptfs.c). */
int ecryptfs_key(const char *sig);

/*
 * NFSv3 without nfs-utils (nfs.c): a stub rpcbind for knfsd's and
 * lockd's registrations, forked into the background; and a mount of
 * source (HOST:/PATH, knfsd exporting the directory export) on dir.
 */
int rpcbind_stub(void);
int nfs3_mount(const char *source, const char *export, const char *dir);
/* read() len bytes, or -1 (nfs.c). */
int read_full(int fd, void *buf, size_t len);
/* knfsd's root file handle of export, for the client "local". */
struct nfs3_fh;
int nfs_root_handle(const char *export, struct nfs3_fh *fh);
/*
 * xfs online repair forced on each of paths (under root, each "/..."):
 * the inode, its data fork, then the target of what is a symlink
 * afterwards or the entries of what is a directory (xfs.c).
 * What each call said goes to stdout; the manifest suite after it judges
 * the outcome.  0, or 1 when root cannot be opened or a path is not one
 * of its entries.
 */
int xfs_repair_paths(const char *root, char *const *paths, int n);
/* knfsd exporting export: NFSv3 SYMLINK calls made by hand (wire.c). */
int run_wire(struct suite *s, const char *export);
/* The series' kselftest binary bin in dir, its tests as cases (kselftest.c). */
int run_kselftest(struct suite *s, const char *bin, const char *dir);

#endif
