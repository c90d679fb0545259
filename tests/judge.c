// SPDX-License-Identifier: GPL-2.0
/*
 * Host side: the verdicts the host measured itself (fsck after the boot)
 * go through the same expectations and KTAP as the guest's cases.
 * Each argument is NAME=OBSERVED; the mission's answer is "clean".
 */
#include <stdio.h>
#include <string.h>

#include "observe.h"
#include "suites.h"

int run_judge(struct suite *s, char **pairs, int n)
{
	char name[128];
	int i;

	ktap_begin(s, n);
	for (i = 0; i < n; i++) {
		const char *eq = strchr(pairs[i], '=');

		if (!eq || eq == pairs[i]) {
			printf("    # bad judge argument: %s\n", pairs[i]);
			return 2;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - pairs[i]),
			 pairs[i]);
		ktap_case(s, name, "clean", eq + 1);
	}
	return ktap_end(s);
}
