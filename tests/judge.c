// SPDX-License-Identifier: GPL-2.0
/*
 * Host side: the verdicts the host measured itself (fsck after the boot)
 * go through the same expectations and KTAP as the guest's cases.
 * Each argument is NAME=OBSERVED[=WANT]; the mission's answer is WANT,
 * "clean" when it is left out.
 */
#include <stdio.h>
#include <string.h>

#include "observe.h"
#include "suites.h"

int run_judge(struct suite *s, char **pairs, int n)
{
	char name[128], observed[OBS_LEN];
	int i;

	ktap_begin(s, n);
	for (i = 0; i < n; i++) {
		const char *eq = strchr(pairs[i], '=');

		if (!eq || eq == pairs[i]) {
			printf("    # bad judge argument: %s\n", pairs[i]);
			return 2;
		}
		const char *want = strchr(eq + 1, '=');

		snprintf(name, sizeof(name), "%.*s", (int)(eq - pairs[i]),
			 pairs[i]);
		snprintf(observed, sizeof(observed), "%.*s",
			 (int)(want ? want - eq - 1 : (long)strlen(eq + 1)), eq + 1);
		ktap_case(s, name, want ? want + 1 : "clean", observed);
	}
	return ktap_end(s);
}
