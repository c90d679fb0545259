// SPDX-License-Identifier: GPL-2.0
/* Reading tests/expected.txt: per-kernel, per-filesystem deviations. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

#define MAX_RULES 512

struct rule {
	char kernel[16], fs[32], source[16], name[64];
	struct expectation e;
};

static struct rule rules[MAX_RULES];
static unsigned int nr_rules;

static int parse_line(char *line, struct rule *r)
{
	char *reason;
	int n = 0;

	memset(r, 0, sizeof(*r));
	if (sscanf(line, "%15s %31s %15s %63s %63s %n", r->kernel, r->fs,
		   r->source, r->name, r->e.value, &n) < 5)
		return -1;
	reason = line + n;
	reason[strcspn(reason, "\n")] = '\0';
	snprintf(r->e.reason, sizeof(r->e.reason), "%s", reason);
	r->e.xfail = !strncmp(reason, "XFAIL", 5);
	return 0;
}

int expect_load(const char *path)
{
	char line[512];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		lineno++;
		if (*p == '#' || *p == '\n' || *p == '\0')
			continue;
		if (nr_rules == MAX_RULES || parse_line(p, &rules[nr_rules])) {
			fprintf(stderr, "%s:%u: bad or too many lines\n", path,
				lineno);
			fclose(f);
			return -1;
		}
		nr_rules++;
	}
	fclose(f);
	return 0;
}

static int match(const char *pattern, const char *s)
{
	return fnmatch(pattern, s, 0) == 0;
}

void expect_for(const struct where *w, const char *name, const char *want,
		struct expectation *e)
{
	unsigned int i;

	for (i = 0; i < nr_rules; i++) {
		const struct rule *r = &rules[i];

		if (match(r->kernel, w->kernel) && match(r->fs, w->fs) &&
		    match(r->source, w->source) && match(r->name, name)) {
			*e = r->e;
			/* "-": the mission's answer holds here. */
			if (!strcmp(e->value, "-"))
				snprintf(e->value, sizeof(e->value), "%s", want);
			return;
		}
	}
	memset(e, 0, sizeof(*e));
	snprintf(e->value, sizeof(e->value), "%s", want);
}
