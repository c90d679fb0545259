// SPDX-License-Identifier: GPL-2.0
/*
 * Empty links that another step put somewhere (a snapshot, a received
 * send stream, a remount of an encrypted directory): each PATH under
 * ROOT must read back as "".  The case runs once per PATH, named
 * "PATH:readlink".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"

CASE(LINKS, links, readlink, "\"\"", EVERY_ENTRY)
{
	char buf[64];

	obs_link(out, readlink(c->path, buf, sizeof(buf)), buf);
}

int run_links(struct suite *s, const char *root, char **paths, int n)
{
	char path[4096], name[300], observed[OBS_LEN];
	struct ctx c = { .dfd = AT_FDCWD, .path = path };
	const struct tcase **v;
	unsigned int nv, j;
	int i;

	v = cases_of(SUITE_LINKS, &nv);
	if (!v)
		return ktap_abort(s, "out of memory");
	ktap_begin(s, n * nv);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, paths[i]);
		for (j = 0; j < nv; j++) {
			case_entry_name(name, sizeof(name), paths[i], v[j]);
			snprintf(observed, sizeof(observed), "?");
			if (!s->broken)
				v[j]->run(&c, observed);
			ktap_case(s, name, v[j]->want, observed);
		}
	}
	free(v);
	return ktap_end(s);
}
