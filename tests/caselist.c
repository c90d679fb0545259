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

static const struct suite_kind kinds[] = {
	{ "table", SUITE_TABLE, -1, 0, 1 },
	{ "persist", SUITE_PERSIST, -1, 0, 1 },
	/* After a crash, the synced links are read back as after a remount. */
	{ "crash", SUITE_CRASH, SUITE_PERSIST, 0, 1 },
	{ "cleanup", SUITE_CLEANUP, -1, 0, 1 },
	{ "manifest", SUITE_MANIFEST, -1, 1, 1 },
	{ "links", SUITE_LINKS, -1, 1, 1 },
	{ "items", SUITE_ITEMS, -1, 0, 1 },
	{ "wire", SUITE_WIRE, -1, 0, 1 },
	{ "kselftest", SUITE_KSELFTEST, -1, 0, 1 },
	/* The host's fsck verdicts: no suite_id of cases ("suite" unused). */
	{ "observed", SUITE_SELFTEST, -1, 0, 0 },
};

const struct suite_kind *kind_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

const struct tcase **kind_cases(const struct suite_kind *k, unsigned int *n)
{
	const struct tcase **v, **w = NULL, **all = NULL;
	unsigned int nv, nw = 0;

	v = cases_of(k->suite, &nv);
	if (!v || k->also < 0) {
		*n = nv;
		return v;
	}
	w = cases_of(k->also, &nw);
	if (w)
		all = calloc(nw + nv + 1, sizeof(*all));
	if (all) {
		memcpy(all, w, nw * sizeof(*w));
		memcpy(all + nw, v, nv * sizeof(*v));
		*n = nw + nv;
	}
	free(w);
	free(v);
	return all;
}

int kind_has(const struct suite_kind *k, const struct tcase *t)
{
	if (!k->declared || k->per_entry)
		return 0;
	return t->suite == k->suite || (int)t->suite == k->also ||
	       (k->suite == SUITE_TABLE && t->suite == SUITE_SELFTEST);
}

const struct tcase *kind_entry_case(const struct suite_kind *k,
				    const char *name)
{
	const char *colon = strrchr(name, ':');
	const struct tcase *t;
	const char *dot;

	if (!k->per_entry || !colon || colon == name)
		return NULL;
	for (t = __start_emptylink_cases; t < __stop_emptylink_cases; t++) {
		dot = strchr(t->name, '.');
		if (t->suite == k->suite && dot && !strcmp(dot + 1, colon + 1))
			return t;
	}
	return NULL;
}
