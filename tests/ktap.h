/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One KTAP subtest per suite.  Each case prints a diagnostic line with
 * "observed=" and "expected=" (what the host's matrix shows) and then its
 * result: ok, not ok, or not ok # TODO for a known gap.
 */
#ifndef EMPTYLINK_KTAP_H
#define EMPTYLINK_KTAP_H

#include "expect.h"

struct suite {
	struct where w;
	int index;		/* position in the top-level KTAP plan */
	int n;			/* cases reported so far */
	int bad;		/* unexpected results so far */
	const char *broken;	/* a set-up step that failed: run nothing */
};

void ktap_begin(struct suite *s, unsigned int planned);
/* Judge observed against the expectation for name (want by default). */
void ktap_case(struct suite *s, const char *name, const char *want,
	       const char *observed);
/* The suite's own result line; returns the exit status for main(). */
int ktap_end(struct suite *s);

#endif
