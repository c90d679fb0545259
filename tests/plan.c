// SPDX-License-Identifier: GPL-2.0
/* The judge's plan: every suite that must have a result, and its kind. */
#include <string.h>

#include "compiler.h"
#include "fields.h"
#include "judge.h"

/* One field of a plan line into buf (32 bytes). */
static const char *column(const char **p, char *buf)
{
	switch (field_next(p, buf, sizeof(((struct planned *)0)->fs))) {
	case -1:
		return "a field is longer than 31 bytes";
	case 0:
		return "expected KERNEL FS SOURCE KIND";
	}
	return NULL;
}

static const char *parse(const char *line, struct planned *x)
{
	const char *p = line, *bad;
	char kind[32], extra[2];

	bad = column(&p, x->kernel);
	if (!bad)
		bad = column(&p, x->fs);
	if (!bad)
		bad = column(&p, x->source);
	if (!bad)
		bad = column(&p, kind);
	if (!bad && field_next(&p, extra, sizeof(extra)))
		bad = "expected KERNEL FS SOURCE KIND, and nothing more";
	if (bad)
		return bad;
	x->kind = kind_find(kind);
	if (!x->kind)
		return "unknown KIND (see the registry's suite lines)";
	return NULL;
}

static int same(const struct planned *a, const struct planned *b)
{
	return !strcmp(a->kernel, b->kernel) && !strcmp(a->fs, b->fs) &&
	       !strcmp(a->source, b->source);
}

static const char *add_line(char *line, unsigned int lineno __maybe_unused,
			    void *ctx)
{
	struct plan *p = ctx;
	struct planned x;
	const char *bad;
	unsigned int i;

	bad = parse(line, &x);
	if (bad)
		return bad;
	for (i = 0; i < p->n; i++)
		if (same(&p->v[i], &x))
			return "planned twice";
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n++] = x;
	return NULL;
}

int plan_read(struct plan *p, const char *path)
{
	char line[256];

	p->v = NULL;
	p->n = 0;
	return lines_each(path, line, sizeof(line), add_line, p, NULL, 0);
}

int plan_matches(const struct plan *p, int field, const char *pattern)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (pattern_match(pattern, field ? p->v[i].fs : p->v[i].kernel))
			return 1;
	return 0;
}
