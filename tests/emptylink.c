// SPDX-License-Identifier: GPL-2.0
/*
 * emptylink: the guest's test program.  Each call runs one suite and
 * prints it as a KTAP subtest (numbered --index in the guest's plan):
 *
 *   emptylink --kernel K --fs FS --expect FILE --index N MODE
 *
 *   --dir DIR [--from LINK] [--fscrypt] [--selftest-fail]
 *        the test table in DIR; source "scratch", or "image" with --from;
 *        with --fscrypt DIR is made an encrypted directory first
 *   --manifest FILE --dir ROOT [--set NAME]
 *        the image mounted at ROOT against fs-images/manifest.txt (the
 *        entries for FS, or for NAME)
 *   --persist DIR --source LABEL
 *        read back what --persist-setup DIR left before a remount
 *   --crash DIR --source LABEL
 *        after a crash and log recovery, read what --crash-setup DIR left
 *   --cleanup DIR --source LABEL
 *        DIR was removed and the filesystem remounted: it must be gone
 *   --links ROOT --source LABEL PATH...
 *        each PATH under ROOT must be an empty link (snapshots, send)
 *   --judge NAME=OBSERVED... --source LABEL
 *        host-measured verdicts (fsck), judged like the rest
 *
 *   emptylink --persist-setup DIR      (prints no KTAP)
 *   emptylink --crash-setup DIR        (prints no KTAP)
 *   emptylink --fscrypt-unlock DIR     (prints no KTAP)
 *
 * --broken STEP: a set-up step of this suite (a mount, say) failed; run
 * nothing and report every case as "broken:STEP", so the matrix shows
 * the gap instead of results from the wrong directory.
 *
 * Expectations come from the case's mission answer and the deviations in
 * FILE (tests/expected.txt).  Exit status: 0 when everything met its
 * expectation, 1 otherwise, 2 on a usage or set-up error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

enum mode { TABLE, MANIFEST, PERSIST, PERSIST_SETUP, CRASH, CRASH_SETUP,
	    CLEANUP, LINKS, UNLOCK, JUDGE };

struct options {
	struct suite s;
	enum mode mode;
	const char *dir, *from, *expect, *arg, *set;
	int selftest_fail, fscrypt;
};

static void usage(void)
{
	fprintf(stderr, "usage: see the comment at the top of emptylink.c\n");
	exit(2);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "fs", required_argument, NULL, 'f' },
		{ "source", required_argument, NULL, 'o' },
		{ "dir", required_argument, NULL, 'd' },
		{ "from", required_argument, NULL, 'l' },
		{ "expect", required_argument, NULL, 'e' },
		{ "index", required_argument, NULL, 'i' },
		{ "manifest", required_argument, NULL, 'm' },
		{ "set", required_argument, NULL, 'S' },
		{ "persist", required_argument, NULL, 'p' },
		{ "persist-setup", required_argument, NULL, 'P' },
		{ "crash", required_argument, NULL, 'c' },
		{ "crash-setup", required_argument, NULL, 'C' },
		{ "cleanup", required_argument, NULL, 'r' },
		{ "links", required_argument, NULL, 'L' },
		{ "fscrypt", no_argument, NULL, 'F' },
		{ "fscrypt-unlock", required_argument, NULL, 'U' },
		{ "judge", no_argument, NULL, 'j' },
		{ "selftest-fail", no_argument, NULL, 's' },
		{ "broken", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			o->s.w.kernel = optarg;
			break;
		case 'f':
			o->s.w.fs = optarg;
			break;
		case 'o':
			o->s.w.source = optarg;
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'l':
			o->from = optarg;
			break;
		case 'e':
			o->expect = optarg;
			break;
		case 'i':
			o->s.index = atoi(optarg);
			break;
		case 'm':
			o->mode = MANIFEST;
			o->arg = optarg;
			break;
		case 'S':
			o->set = optarg;
			break;
		case 'p':
			o->mode = PERSIST;
			o->dir = optarg;
			break;
		case 'P':
			o->mode = PERSIST_SETUP;
			o->dir = optarg;
			break;
		case 'c':
			o->mode = CRASH;
			o->dir = optarg;
			break;
		case 'C':
			o->mode = CRASH_SETUP;
			o->dir = optarg;
			break;
		case 'r':
			o->mode = CLEANUP;
			o->dir = optarg;
			break;
		case 'L':
			o->mode = LINKS;
			o->dir = optarg;
			break;
		case 'F':
			o->fscrypt = 1;
			break;
		case 'U':
			o->mode = UNLOCK;
			o->dir = optarg;
			break;
		case 'j':
			o->mode = JUDGE;
			break;
		case 's':
			o->selftest_fail = 1;
			break;
		case 'b':
			o->s.broken = optarg;
			break;
		default:
			usage();
		}
	}
	if (o->mode == PERSIST_SETUP || o->mode == CRASH_SETUP ||
	    o->mode == UNLOCK)
		return;
	if (!o->s.w.kernel || !o->s.w.fs || !o->expect || o->s.index < 1 ||
	    (o->mode != JUDGE && !o->dir))
		usage();
	if (!o->s.w.source) {
		if (o->mode == MANIFEST)
			o->s.w.source = "manifest";
		else if (o->mode == TABLE)
			o->s.w.source = o->from ? "image" : "scratch";
		else
			usage();
	}
}

int main(int argc, char **argv)
{
	struct options o;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_args(argc, argv, &o);
	if (o.mode == PERSIST_SETUP)
		return persist_setup(o.dir);
	if (o.mode == CRASH_SETUP)
		return crash_setup(o.dir);
	if (o.mode == UNLOCK)
		return fscrypt_unlock(o.dir);
	if (expect_load(o.expect) < 0)
		return 2;
	switch (o.mode) {
	case MANIFEST:
		return run_manifest(&o.s, o.arg, o.set ? o.set : o.s.w.fs, o.dir);
	case PERSIST:
		return run_persist(&o.s, o.dir);
	case CRASH:
		return run_crash(&o.s, o.dir);
	case CLEANUP:
		return run_cleanup(&o.s, o.dir);
	case LINKS:
		return run_links(&o.s, o.dir, argv + optind, argc - optind);
	case JUDGE:
		return run_judge(&o.s, argv + optind, argc - optind);
	default:
		if (o.fscrypt && !o.s.broken && fscrypt_setup(o.dir) < 0) {
			printf("not ok %d %s.%s # cannot make %s encrypted\n",
			       o.s.index, o.s.w.fs, o.s.w.source, o.dir);
			return 2;
		}
		return run_table(&o.s, o.dir, o.from, o.selftest_fail);
	}
}
