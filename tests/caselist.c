// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the cases: every CASE() is a struct tcase in the section
 * emptylink_cases, and the linker marks the section's ends.  The linker
 * may lay out the files, and the compiler the cases of one file, in any
 * order, so a suite is sorted back into the order of its declarations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

static int by_place(const void *a, const void *b)
{
	const struct tcase *x = *(const struct tcase *const *)a;
	const struct tcase *y = *(const struct tcase *const *)b;
	int c = strcmp(x->file, y->file);

	return c ? c : x->line - y->line;
}

const struct tcase **cases_of(enum suite_id suite, unsigned int *n)
{
	const struct tcase *t;
	const struct tcase **v;

	v = calloc(__stop_emptylink_cases - __start_emptylink_cases + 1,
		   sizeof(*v));
	if (!v)
		return NULL;
	*n = 0;
	for (t = __start_emptylink_cases; t < __stop_emptylink_cases; t++)
		if (t->suite == suite)
			v[(*n)++] = t;
	qsort(v, *n, sizeof(*v), by_place);
	return v;
}

void case_entry_name(char *buf, size_t size, const char *path,
		     const struct tcase *t)
{
	const char *dot = strchr(t->name, '.');

	snprintf(buf, size, "%s:%s", path, dot ? dot + 1 : t->name);
}

/* Reported once per entry, as "PATH:name": no name of its own. */
static int per_entry(const struct tcase *t)
{
	return t->suite == SUITE_MANIFEST || t->suite == SUITE_LINKS;
}

const struct tcase *case_find(const char *name)
{
	const struct tcase *t;

	for (t = __start_emptylink_cases; t < __stop_emptylink_cases; t++)
		if (!per_entry(t) && !strcmp(t->name, name))
			return t;
	return NULL;
}

int case_group_known(const char *name)
{
	size_t n = strcspn(name, ".");
	const struct tcase *t;

	if (!name[n])
		return 0;
	for (t = __start_emptylink_cases; t < __stop_emptylink_cases; t++)
		if (!strncmp(t->name, name, n) && t->name[n] == '.')
			return 1;
	return 0;
}
