// SPDX-License-Identifier: GPL-2.0
/* Running the cases of a suite once each, in declaration order, on one context. */
#include <stdio.h>
#include <stdlib.h>

#include "suites.h"

int run_in_order(struct suite *s, enum suite_id id, const struct ctx *c)
{
	char observed[OBS_LEN];
	const struct tcase **v;
	unsigned int i, n;

	v = cases_of(id, &n);
	if (!v)
		return ktap_abort(s, "out of memory");
	ktap_begin(s, n);
	for (i = 0; i < n; i++) {
		snprintf(observed, sizeof(observed), "?");
		if (!s->broken)
			v[i]->run(c, observed);
		ktap_case(s, v[i]->name, v[i]->want, observed);
	}
	free(v);
	return ktap_end(s);
}
