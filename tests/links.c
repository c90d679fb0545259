// SPDX-License-Identifier: GPL-2.0
/*
 * Empty links that another step put somewhere (a snapshot, a received
 * send stream): each PATH under ROOT must read back as "".
 */
#include <stdio.h>
#include <unistd.h>

#include "observe.h"
#include "suites.h"

int run_links(struct suite *s, const char *root, char **paths, int n)
{
	char path[4096], name[300], buf[64], observed[OBS_LEN];
	int i;

	ktap_begin(s, n);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, paths[i]);
		snprintf(name, sizeof(name), "%s:readlink", paths[i]);
		if (!s->broken)
			obs_link(observed, readlink(path, buf, sizeof(buf)), buf);
		ktap_case(s, name, "\"\"", observed);
	}
	return ktap_end(s);
}
