/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EMPTYLINK_CASES_H
#define EMPTYLINK_CASES_H

#include "observe.h"

/* The case needs an empty link named "e" in its directory before it runs. */
#define NEEDS_EMPTY 0x1

/*
 * One row of the table.  Each case runs with its own fresh directory as
 * the working directory, dfd open on it, and writes what it saw to out.
 * want is the mission's answer, the same on every filesystem; per-kernel
 * and per-filesystem deviations live in tests/expected.txt.
 */
struct tcase {
	const char *name;
	const char *want;
	unsigned int needs;
	void (*run)(int dfd, char *out);
};

extern const struct tcase cases[];
extern const unsigned int nr_cases;

/* Only for the harness's self-test: a case whose want is wrong. */
extern const struct tcase selftest_fail_case;

#endif
