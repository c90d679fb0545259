// SPDX-License-Identifier: GPL-2.0
/* Running the test table, each case in a fresh directory of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suites.h"

/* The empty link "e" in the working directory, as the source provides it. */
static int make_fixture(const char *from)
{
	return from ? link(from, "e") : symlink("", "e");
}

/* Returns -1 only when the case's directory cannot be made. */
static int run_case(const char *dir, const char *from, const struct tcase *t,
		    char *observed)
{
	struct ctx c = { .path = dir };
	char path[4096];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, t->name);
	if (mkdir(path, 0755) < 0 || chdir(path) < 0) {
		err = errno;
		printf("    # %s: cannot make %s: %s\n", t->name, path,
		       strerror(err));
		return -1;
	}
	c.dfd = open(".", O_RDONLY | O_DIRECTORY);
	if (c.dfd < 0) {
		err = errno;
		printf("    # %s: cannot open %s: %s\n", t->name, path,
		       strerror(err));
		return -1;
	}
	if ((t->needs & NEEDS_EMPTY) && make_fixture(from) < 0)
		obs_setup(observed, errno);
	else
		t->run(&c, observed);
	close(c.dfd);
	return chdir("/");
}

/* The table's cases, then with selftest_fail the one that must fail. */
static const struct tcase **table_cases(int selftest_fail, unsigned int *n)
{
	const struct tcase **v, **extra, **all;
	unsigned int nv, ne = 0;

	v = cases_of(SUITE_TABLE, &nv);
	extra = NULL;
	if (selftest_fail)
		extra = cases_of(SUITE_SELFTEST, &ne);
	if (!v || (selftest_fail && !extra)) {
		free(v);
		free(extra);
		return NULL;
	}
	all = realloc(v, (nv + ne + 1) * sizeof(*v));
	if (!all) {
		free(v);
		free(extra);
		return NULL;
	}
	if (ne)
		memcpy(all + nv, extra, ne * sizeof(*extra));
	free(extra);
	*n = nv + ne;
	return all;
}

int run_table(struct suite *s, const char *dir, const char *from,
	      int selftest_fail)
{
	static char mkdir_failed[64];
	char observed[OBS_LEN];
	const struct tcase **v;
	unsigned int i, n;
	int ret = 1;

	v = table_cases(selftest_fail, &n);
	if (!v)
		return ktap_abort(s, "out of memory");
	/*
	 * A filesystem that cannot make the table's directory (one that
	 * withdrew or went read-only) has every case say so, for the rules
	 * of tests/expected.txt to expect or not.
	 */
	if (!s->broken && mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(mkdir_failed, sizeof(mkdir_failed), "mkdir:%s",
			 errno_name(errno));
		s->broken = mkdir_failed;
	}
	ktap_begin(s, n);
	for (i = 0; i < n; i++) {
		snprintf(observed, sizeof(observed), "?");
		if (!s->broken && run_case(dir, from, v[i], observed) < 0) {
			ktap_abort(s, "harness error in %s", v[i]->name);
			goto out;
		}
		ktap_case(s, v[i]->name, v[i]->want, observed);
	}
	ret = ktap_end(s);
out:
	free(v);
	return ret;
}
