// SPDX-License-Identifier: GPL-2.0
/*
 * Host side: verdicts the host measured itself (fsck after the boots),
 * printed as raw KTAP like the guest's suites, so that the judge reads
 * them the same way.  Each argument is NAME=OBSERVED=WANT.
 */
#include <stdio.h>
#include <string.h>

#include "observe.h"
#include "suites.h"

/*
 * NAME=OBSERVED=WANT, each part non-empty and without blanks.  NAME and
 * WANT have no "=", OBSERVED may ("partial:deleted=/empty").
 */
static int split(char *arg, char **name, char **observed, char **want)
{
	char *eq1 = strchr(arg, '='), *eq2 = strrchr(arg, '=');

	if (!eq1 || eq1 == eq2 || eq1 == arg || eq2 == eq1 + 1 || !eq2[1] ||
	    strpbrk(arg, " \t\r\n"))
		return -1;
	*eq1 = '\0';
	*eq2 = '\0';
	*name = arg;
	*observed = eq1 + 1;
	*want = eq2 + 1;
	return 0;
}

int run_observed(struct suite *s, char **args, int n)
{
	char *name, *observed, *want;
	int i;

	/* Check every argument first: never half a suite. */
	for (i = 0; i < n; i++) {
		char copy[512];

		if (snprintf(copy, sizeof(copy), "%s", args[i]) >=
		    (int)sizeof(copy) ||
		    split(copy, &name, &observed, &want) < 0) {
			fprintf(stderr,
				"emptylink observed: '%s' is not NAME=OBSERVED=WANT (three non-empty words)\n",
				args[i]);
			return 2;
		}
	}
	ktap_begin(s, n);
	for (i = 0; i < n; i++) {
		split(args[i], &name, &observed, &want);
		ktap_case(s, name, want, s->broken ? "?" : observed);
	}
	return ktap_end(s);
}
