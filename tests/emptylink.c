// SPDX-License-Identifier: GPL-2.0
/*
 * emptylink: the test program.  In the guest it observes and reports;
 * on the host it judges.  Each suite command prints one raw KTAP subtest
 * (numbered --index in the caller's plan) of what every case observed
 * and what it wants; it never says whether that is right.
 *
 *   emptylink table DIR [--from LINK] [--fscrypt] [--selftest-fail]
 *        the test table in DIR; source "scratch", or "image" with --from
 *        (the empty link each case needs is hard-linked from LINK); with
 *        --fscrypt DIR is made an encrypted directory first
 *   emptylink manifest MANIFEST SETS ROOT
 *        the image mounted at ROOT against the entries of MANIFEST
 *        (fs-images/manifest.txt) whose SET is one of SETS (a,b,...);
 *        source "manifest"
 *   emptylink persist DIR      what persist-setup DIR left, after a remount
 *   emptylink crash DIR        after a crash and log recovery, what
 *                              crash-setup and crash-late DIR left
 *   emptylink cleanup DIR      DIR was removed and the filesystem
 *                              remounted: it must be gone (reads DIR.made)
 *   emptylink links ROOT PATH...
 *        each PATH under ROOT must be an empty link (snapshots, send)
 *   emptylink items ROOT       configfs mounted at ROOT: links between
 *                              the NVMe target's items; source "items"
 *   emptylink wire EXPORT      knfsd exporting EXPORT: NFSv3 SYMLINK
 *                              calls made by hand; source "wire"
 *   emptylink kselftest BINARY DIR
 *                              the series' kselftest (BINARY) with
 *                              EMPTY_SYMLINK_DIR=DIR, each of its tests
 *                              a case; source "kselftest"
 *   emptylink observed NAME=OBSERVED=WANT...
 *        host-measured observations (fsck) as the same raw KTAP
 *
 *   Options of all of these: --fs NAME and --index N (>= 1) are
 *   required, --source LABEL too where there is no default above.
 *   --broken STEP: a set-up step of this suite (a mount, say) failed;
 *   nothing runs and every case observes "broken:STEP".
 *
 *   emptylink persist-setup DIR    leave links in DIR (record: DIR/record)
 *   emptylink crash-setup DIR      make DIR, leave links in DIR/synced and
 *                                  the record DIR.made (beside DIR), then
 *                                  syncfs() DIR's filesystem, no other
 *   emptylink crash-late DIR       after crash-setup of every filesystem
 *                                  to crash: DIR/fsynced/e (its directory
 *                                  fsync()ed) and DIR/unsynced/e (never
 *                                  synced), both recorded in DIR.made
 *   emptylink fscrypt-unlock DIR   add the test key again after a remount
 *   emptylink mtd-setup DISK KIND  make DISK an MTD device (block2mtd);
 *                                  print mtdN
 *   emptylink ubi-setup DISK NAME  make DISK an MTD device (block2mtd),
 *                                  attach UBI, make volume NAME on it
 *                                  if it has none; print ubiN:NAME
 *   emptylink fuse-serve accept|refuse DIR
 *                                  mount an in-memory FUSE filesystem on
 *                                  DIR, served until it is unmounted;
 *                                  it says FUSE_EMPTY_SYMLINKS with
 *                                  "accept" (fuse.c)
 *   emptylink ecryptfs-key SIG     add eCryptfs' test key, signature SIG
 *   emptylink rpcbind-stub         answer knfsd's registrations (nfs.c)
 *   emptylink nfs3-mount SOURCE EXPORT DIR
 *                                  mount SOURCE (HOST:/PATH) over NFSv3
 *                                  on DIR, knfsd exporting EXPORT there
 *   emptylink xfs-repair ROOT PATH...
 *                                  xfs online repair, forced, of each
 *                                  PATH's inode and target (xfs.c)
 *        (these print no KTAP, the two -setup ones only that line)
 *
 *   emptylink cases KIND
 *        host: "NAME WANT" for every case a suite of KIND (table,
 *        persist, crash, cleanup, manifest, links) declares, in the
 *        order a suite reports them (per-entry kinds: their cases,
 *        reported per entry as "PATH:name"; WANT "-": the entry's)
 *
 *   emptylink judge --expect FILE --registry FILE --plan FILE
 *                   [--strict-rules] KERNEL=RAWFILE...
 *        host: judge raw KTAP against the wants, the registry and the
 *        rules of tests/expected.txt; print judged KTAP (see judge.c)
 *
 * Exit status: 0 done (judge: everything as expected), 1 a suite could
 * not run or a setup step failed (judge: a failure), 2 a usage or input
 * error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compiler.h"
#include "judge.h"
#include "suites.h"

static int do_table(struct cmdline *cl)
{
	const char *dir = cl->args[0];

	if (cl->fscrypt && !cl->s.broken && fscrypt_setup(dir) < 0)
		return ktap_abort(&cl->s, "cannot make %s encrypted", dir);
	return run_table(&cl->s, dir, cl->from, cl->selftest_fail);
}

static int do_manifest(struct cmdline *cl)
{
	return run_manifest(&cl->s, cl->args[0], cl->args[1], cl->args[2]);
}

static int do_persist(struct cmdline *cl)
{
	return run_persist(&cl->s, cl->args[0]);
}

static int do_crash(struct cmdline *cl)
{
	return run_crash(&cl->s, cl->args[0]);
}

static int do_cleanup(struct cmdline *cl)
{
	return run_cleanup(&cl->s, cl->args[0]);
}

static int do_links(struct cmdline *cl)
{
	return run_links(&cl->s, cl->args[0], cl->args + 1, cl->nargs - 1);
}

static int do_items(struct cmdline *cl)
{
	return run_items(&cl->s, cl->args[0]);
}

static int do_wire(struct cmdline *cl)
{
	return run_wire(&cl->s, cl->args[0]);
}

static int do_kselftest(struct cmdline *cl)
{
	return run_kselftest(&cl->s, cl->args[0], cl->args[1]);
}

static int do_ecryptfs_key(struct cmdline *cl)
{
	return ecryptfs_key(cl->args[0]);
}

static int do_rpcbind_stub(struct cmdline *cl)
{
	return rpcbind_stub();
}

static int do_nfs3_mount(struct cmdline *cl)
{
	return nfs3_mount(cl->args[0], cl->args[1], cl->args[2]);
}

static int do_observed(struct cmdline *cl)
{
	return run_observed(&cl->s, cl->args, cl->nargs);
}

static int do_persist_setup(struct cmdline *cl)
{
	return persist_setup(cl->args[0]);
}

static int do_crash_setup(struct cmdline *cl)
{
	return crash_setup(cl->args[0]);
}

static int do_crash_late(struct cmdline *cl)
{
	return crash_late(cl->args[0]);
}

static int do_unlock(struct cmdline *cl)
{
	return fscrypt_unlock(cl->args[0]) < 0 ? 1 : 0;
}

static int do_mtd_setup(struct cmdline *cl)
{
	return mtd_setup(cl->args[0]);
}

static int do_ubi_setup(struct cmdline *cl)
{
	return ubi_setup(cl->args[0], cl->args[1]);
}

/* accept|refuse: whether the server says it takes an empty target. */
static int do_fuse_serve(struct cmdline *cl)
{
	const char *mode = cl->args[0];

	if (strcmp(mode, "accept") && strcmp(mode, "refuse")) {
		fprintf(stderr, "emptylink fuse-serve: unknown mode '%s'\n",
			mode);
		return 2;
	}
	return fuse_serve(cl->args[1], !strcmp(mode, "accept"));
}

static int do_xfs_repair(struct cmdline *cl)
{
	return xfs_repair_paths(cl->args[0], cl->args + 1, cl->nargs - 1);
}

static int do_cases(struct cmdline *cl)
{
	const struct suite_kind *k = kind_find(cl->args[0]);
	const struct tcase **v;
	unsigned int n, i;

	if (!k || !k->declared) {
		fprintf(stderr, "emptylink cases: no cases of kind '%s'\n",
			cl->args[0]);
		return 2;
	}
	v = kind_cases(k, &n);
	if (!v)
		return 2;
	for (i = 0; i < n; i++)
		printf("%s %s\n", v[i]->name, v[i]->want ? v[i]->want : "-");
	free(v);
	return 0;
}

static int do_judge(struct cmdline *cl)
{
	return run_judge(cl->expect, cl->registry, cl->plan, cl->strict_rules,
			 cl->args, cl->nargs);
}

#define SUITE_OPTS "--fs NAME --index N [--broken STEP]"

static const struct command commands[] = {
	{ "table", "DIR [--from LINK] [--fscrypt] [--selftest-fail] "
	  SUITE_OPTS " [--source LABEL]", 1, 1,
	  O_SUITE | O_FROM | O_FSCRYPT | O_SELFTEST, O_FS | O_INDEX,
	  "scratch", "image", do_table },
	{ "manifest", "MANIFEST SETS ROOT " SUITE_OPTS " [--source LABEL]",
	  3, 3, O_SUITE, O_FS | O_INDEX, "manifest", NULL, do_manifest },
	{ "persist", "DIR " SUITE_OPTS " --source LABEL", 1, 1, O_SUITE,
	  O_FS | O_INDEX | O_SOURCE, NULL, NULL, do_persist },
	{ "crash", "DIR " SUITE_OPTS " --source LABEL", 1, 1, O_SUITE,
	  O_FS | O_INDEX | O_SOURCE, NULL, NULL, do_crash },
	{ "cleanup", "DIR " SUITE_OPTS " --source LABEL", 1, 1, O_SUITE,
	  O_FS | O_INDEX | O_SOURCE, NULL, NULL, do_cleanup },
	{ "links", "ROOT PATH... " SUITE_OPTS " --source LABEL", 2, -1,
	  O_SUITE, O_FS | O_INDEX | O_SOURCE, NULL, NULL, do_links },
	{ "items", "ROOT " SUITE_OPTS " [--source LABEL]", 1, 1, O_SUITE,
	  O_FS | O_INDEX, "items", NULL, do_items },
	{ "wire", "EXPORT " SUITE_OPTS " [--source LABEL]", 1, 1, O_SUITE,
	  O_FS | O_INDEX, "wire", NULL, do_wire },
	{ "kselftest", "BINARY DIR " SUITE_OPTS " [--source LABEL]", 2, 2,
	  O_SUITE, O_FS | O_INDEX, "kselftest", NULL, do_kselftest },
	{ "observed", "NAME=OBSERVED=WANT... " SUITE_OPTS " --source LABEL",
	  1, -1, O_SUITE, O_FS | O_INDEX | O_SOURCE, NULL, NULL,
	  do_observed },
	{ "persist-setup", "DIR", 1, 1, 0, 0, NULL, NULL, do_persist_setup },
	{ "crash-setup", "DIR", 1, 1, 0, 0, NULL, NULL, do_crash_setup },
	{ "crash-late", "DIR", 1, 1, 0, 0, NULL, NULL, do_crash_late },
	{ "fscrypt-unlock", "DIR", 1, 1, 0, 0, NULL, NULL, do_unlock },
	{ "mtd-setup", "DISK KIND", 2, 2, 0, 0, NULL, NULL, do_mtd_setup },
	{ "ubi-setup", "DISK NAME", 2, 2, 0, 0, NULL, NULL, do_ubi_setup },
	{ "fuse-serve", "accept|refuse DIR", 2, 2, 0, 0, NULL, NULL,
	  do_fuse_serve },
	{ "ecryptfs-key", "SIG", 1, 1, 0, 0, NULL, NULL, do_ecryptfs_key },
	{ "rpcbind-stub", "", 0, 0, 0, 0, NULL, NULL, do_rpcbind_stub },
	{ "nfs3-mount", "SOURCE EXPORT DIR", 3, 3, 0, 0, NULL, NULL,
	  do_nfs3_mount },
	{ "xfs-repair", "ROOT PATH...", 2, -1, 0, 0, NULL, NULL,
	  do_xfs_repair },
	{ "cases", "KIND", 1, 1, 0, 0, NULL, NULL, do_cases },
	{ "judge",
	  "--expect FILE --registry FILE --plan FILE [--strict-rules] KERNEL=RAWFILE...",
	  0, -1,
	  O_EXPECT | O_REGISTRY | O_PLAN | O_STRICT,
	  O_EXPECT | O_REGISTRY | O_PLAN, NULL, NULL, do_judge },
};

int main(int argc, char **argv)
{
	struct cmdline cl;
	const struct command *cmd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cmd = cli_parse(argc, argv, commands, ARRAY_SIZE(commands), &cl);
	return cmd->run(&cl);
}
