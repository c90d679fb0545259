// SPDX-License-Identifier: GPL-2.0
/* Printing raw KTAP: what each case observed and what it wants. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ktap.h"
#include "observe.h"

void ktap_begin(struct suite *s, unsigned int planned)
{
	printf("    KTAP version 1\n    # Subtest: %s.%s\n    1..%u\n",
	       s->fs, s->source, planned);
}

/* Values are blank-separated words on the diagnostic line. */
static const char *word(const char *v)
{
	return v && *v && !strpbrk(v, " \t\r\n") ? v : "?";
}

void ktap_case(struct suite *s, const char *name, const char *want,
	       const char *observed)
{
	const char *skip = s->broken ? NULL : obs_skipped(observed);
	char why[OBS_LEN];

	if (s->broken) {
		snprintf(why, sizeof(why), "broken:%s", s->broken);
		observed = why;
	}
	s->n++;
	printf("    # %s: observed=%s want=%s\n", name,
	       skip ? "SKIP" : word(observed), word(want));
	if (skip)
		printf("    ok %d %s # SKIP %s\n", s->n, name, skip);
	else
		printf("    ok %d %s\n", s->n, name);
}

int ktap_end(struct suite *s)
{
	printf("ok %d %s.%s\n", s->index, s->fs, s->source);
	return 0;
}

int ktap_abort(struct suite *s, const char *fmt, ...)
{
	va_list ap;

	printf("not ok %d %s.%s # ", s->index, s->fs, s->source);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 1;
}
