// SPDX-License-Identifier: GPL-2.0
/* Running the test table, each case in a fresh directory of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases.h"
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
	char path[4096];
	int dfd;

	snprintf(path, sizeof(path), "%s/%s", dir, t->name);
	if (mkdir(path, 0755) < 0 || chdir(path) < 0) {
		printf("    # %s: cannot make %s: %s\n", t->name, path,
		       strerror(errno));
		return -1;
	}
	dfd = open(".", O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return -1;
	if ((t->needs & NEEDS_EMPTY) && make_fixture(from) < 0)
		snprintf(observed, OBS_LEN, "setup:%s", errno_name(errno));
	else
		t->run(dfd, observed);
	close(dfd);
	return chdir("/");
}

int run_table(struct suite *s, const char *dir, const char *from,
	      int selftest_fail)
{
	char observed[OBS_LEN];
	unsigned int i, n = nr_cases + (selftest_fail ? 1 : 0);

	if (!s->broken && mkdir(dir, 0755) < 0 && errno != EEXIST) {
		printf("not ok %d %s.%s # cannot make %s: %s\n", s->index,
		       s->w.fs, s->w.source, dir, strerror(errno));
		return 2;
	}
	ktap_begin(s, n);
	for (i = 0; i < n; i++) {
		const struct tcase *t = &selftest_fail_case;

		if (i < nr_cases)
			t = &cases[i];

		if (!s->broken && run_case(dir, from, t, observed) < 0) {
			printf("not ok %d %s.%s # harness error\n", s->index,
			       s->w.fs, s->w.source);
			return 2;
		}
		ktap_case(s, t->name, t->want, observed);
	}
	return ktap_end(s);
}
