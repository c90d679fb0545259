// SPDX-License-Identifier: GPL-2.0
/* KTAP output and the pass/fail decision for each case. */
#include <stdio.h>
#include <string.h>

#include "ktap.h"

void ktap_begin(struct suite *s, unsigned int planned)
{
	printf("    KTAP version 1\n    # Subtest: %s.%s\n    1..%u\n",
	       s->w.fs, s->w.source, planned);
}

void ktap_case(struct suite *s, const char *name, const char *want,
	       const char *observed)
{
	struct expectation e;
	int same;

	if (s->broken) {
		static char why[OBS_LEN];

		snprintf(why, sizeof(why), "broken:%s", s->broken);
		observed = why;
	}
	expect_for(&s->w, name, want, &e);
	same = !strcmp(observed, e.value);
	s->n++;
	printf("    # %s: observed=%s expected=%s%s%s\n", name, observed,
	       e.value, e.reason[0] ? " -- " : "", e.reason);
	if (e.xfail && same) {
		printf("    not ok %d %s # TODO %s\n", s->n, name, e.reason);
		return;
	}
	printf("    %s %d %s\n", same ? "ok" : "not ok", s->n, name);
	s->bad += !same;
}

int ktap_end(struct suite *s)
{
	printf("%s %d %s.%s\n", s->bad ? "not ok" : "ok", s->index, s->w.fs,
	       s->w.source);
	return s->bad ? 1 : 0;
}
