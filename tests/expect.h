/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EMPTYLINK_EXPECT_H
#define EMPTYLINK_EXPECT_H

#include "observe.h"

/* Where a run is: which kernel, which filesystem, which kind of link. */
struct where {
	const char *kernel;	/* "vanilla" or "patched" */
	const char *fs;		/* "tmpfs", "ext4", ... */
	const char *source;	/* "scratch" or "image" */
};

struct expectation {
	char value[OBS_LEN];
	char reason[160];
	int xfail;		/* a gap in the patched kernel, not its spec */
};

/*
 * Load the deviations file (see tests/expected.txt for its format).
 * Returns 0, or -1 with a message on stderr.
 */
int expect_load(const char *path);

/* The expectation for a case: the first matching line, else want. */
void expect_for(const struct where *w, const char *name, const char *want,
		struct expectation *e);

#endif
