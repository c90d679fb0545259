// SPDX-License-Identifier: GPL-2.0
/*
 * emptylink: run the test table in one directory of one filesystem and
 * print the results as a KTAP subtest.
 *
 *   emptylink --kernel K --fs FS --dir DIR --expect FILE --index N
 *             [--from LINK] [--selftest-fail]
 *
 * Without --from the empty link each case needs is made with symlink("");
 * with it, it is hard-linked from LINK (an empty link on a prebuilt image),
 * so following can be tested on a kernel that cannot create one.  Every
 * case line carries "observed=" and "expected=" for the host's matrix.
 * Exit status: 0 when every case met its expectation, 1 otherwise, 2 on
 * a usage or set-up error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases.h"
#include "expect.h"

struct options {
	struct where w;
	const char *dir, *from, *expect;
	int index, selftest_fail;
};

static void usage(void)
{
	fprintf(stderr, "usage: emptylink --kernel K --fs FS --dir DIR --expect FILE --index N [--from LINK] [--selftest-fail]\n");
	exit(2);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "fs", required_argument, NULL, 'f' },
		{ "dir", required_argument, NULL, 'd' },
		{ "from", required_argument, NULL, 'l' },
		{ "expect", required_argument, NULL, 'e' },
		{ "index", required_argument, NULL, 'i' },
		{ "selftest-fail", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'k': o->w.kernel = optarg; break;
		case 'f': o->w.fs = optarg; break;
		case 'd': o->dir = optarg; break;
		case 'l': o->from = optarg; break;
		case 'e': o->expect = optarg; break;
		case 'i': o->index = atoi(optarg); break;
		case 's': o->selftest_fail = 1; break;
		default: usage();
		}
	}
	if (!o->w.kernel || !o->w.fs || !o->dir || !o->expect || o->index < 1)
		usage();
	o->w.source = o->from ? "image" : "scratch";
}

/* The empty link "e" in the working directory, as the source provides it. */
static int make_fixture(const struct options *o)
{
	return o->from ? link(o->from, "e") : symlink("", "e");
}

/*
 * Run one case in DIR/NAME and fill observed.  Returns -1 only when the
 * harness itself cannot go on (the case directory cannot be made).
 */
static int run_case(const struct options *o, const struct tcase *t,
		    char *observed)
{
	char path[4096];
	int dfd;

	snprintf(path, sizeof(path), "%s/%s", o->dir, t->name);
	if (mkdir(path, 0755) < 0 || chdir(path) < 0) {
		printf("    # %s: cannot make %s: %s\n", t->name, path,
		       strerror(errno));
		return -1;
	}
	dfd = open(".", O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return -1;
	if ((t->needs & NEEDS_EMPTY) && make_fixture(o) < 0)
		snprintf(observed, OBS_LEN, "setup:%s", errno_name(errno));
	else
		t->run(dfd, observed);
	close(dfd);
	return chdir("/");
}

/* Print one KTAP result line; returns 1 if the result is unexpected. */
static int report(int n, const char *name, const char *observed,
		  const struct expectation *e)
{
	int same = !strcmp(observed, e->value);

	printf("    # %s: observed=%s expected=%s%s%s\n", name, observed,
	       e->value, e->reason[0] ? " -- " : "", e->reason);
	if (e->xfail && same) {
		printf("    not ok %d %s # TODO %s\n", n, name, e->reason);
		return 0;
	}
	printf("    %s %d %s\n", same ? "ok" : "not ok", n, name);
	return !same;
}

int main(int argc, char **argv)
{
	char observed[OBS_LEN], suite[96];
	struct expectation e;
	struct options o;
	unsigned int i, n;
	int bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_args(argc, argv, &o);
	if (expect_load(o.expect) < 0)
		return 2;
	snprintf(suite, sizeof(suite), "%s.%s", o.w.fs, o.w.source);
	if (mkdir(o.dir, 0755) < 0 && errno != EEXIST) {
		printf("not ok %d %s # cannot make %s: %s\n", o.index, suite,
		       o.dir, strerror(errno));
		return 2;
	}

	n = nr_cases + (o.selftest_fail ? 1 : 0);
	printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n", suite, n);
	for (i = 0; i < n; i++) {
		const struct tcase *t = i < nr_cases ? &cases[i] :
						       &selftest_fail_case;

		if (run_case(&o, t, observed) < 0) {
			printf("not ok %d %s # harness error\n", o.index, suite);
			return 2;
		}
		expect_for(&o.w, t->name, t->want, &e);
		bad += report(i + 1, t->name, observed, &e);
	}
	printf("%s %d %s\n", bad ? "not ok" : "ok", o.index, suite);
	return bad ? 1 : 0;
}
