/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw KTAP: the guest only reports.  One subtest per suite; each case
 * prints a diagnostic line "# NAME: observed=V want=W" and "ok N NAME",
 * where "ok" means only "observed"; whether V is right is decided on the
 * host (emptylink judge), which can also re-judge an old log.
 */
#ifndef EMPTYLINK_KTAP_H
#define EMPTYLINK_KTAP_H

#include "compiler.h"

struct suite {
	const char *fs;		/* "tmpfs", "ext4", ... */
	const char *source;	/* "scratch", "image", "remount", ... */
	int index;		/* position in the top-level KTAP plan */
	int n;			/* cases reported so far */
	const char *broken;	/* a set-up step that failed: run nothing */
};

void ktap_begin(struct suite *s, unsigned int planned);
/*
 * One case: observed is what it saw (or an obs_skip()); with s->broken
 * it is "broken:STEP" whatever observed holds.
 */
void ktap_case(struct suite *s, const char *name, const char *want,
	       const char *observed);
/* The suite's own result line, after its cases; returns 0. */
int ktap_end(struct suite *s);
/*
 * The suite cannot run (or go on): "not ok INDEX FS.SOURCE # reason".
 * Returns 1, the exit status of a suite that could not report.
 */
__printf(2, 3) int ktap_abort(struct suite *s, const char *fmt, ...);

#endif
