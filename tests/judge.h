/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's judge: raw KTAP in (what the guest and the host observed),
 * judged KTAP out.  What is right comes from the case's want, the
 * registry's "create" lines and the rules of tests/expected.txt; what
 * must have run comes from the plan.  Input errors are reported on
 * stderr as FILE:LINE: PROBLEM and make the functions return -1.
 */
#ifndef EMPTYLINK_JUDGE_H
#define EMPTYLINK_JUDGE_H

#include <stddef.h>

#include "cases.h"

/* emptylink judge; returns the exit status (0, 1 or 2). */
int run_judge(const char *expect, const char *registry, const char *plan,
	      int strict, char **args, int nargs);

/* Out of memory ends the judge with status 2. */
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/*
 * plan.c: "KERNEL FS SOURCE KIND" lines, the suites that must have a
 * result, and what each must report (struct suite_kind, cases.h).
 */
struct planned {
	char kernel[32], fs[32], source[32];
	const struct suite_kind *kind;
};

struct plan {
	struct planned *v;
	unsigned int n;
};

int plan_read(struct plan *p, const char *path);
/* Does pattern match a planned kernel (field 0) or filesystem (1)? */
int plan_matches(const struct plan *p, int field, const char *pattern);

/*
 * registry.c: "NAME create VALUE [REASON]" from harness/filesystems.txt,
 * what symlink("") gives on that filesystem.
 */
int registry_read(const char *path);
/*
 * The want of case name (t: its declaration, or NULL) on fs in source,
 * where the registry decides it: the create line's VALUE for the
 * creating cases; where VALUE refuses creation, "setup:VALUE" for every
 * case that needs a link symlink("") made on that filesystem, which
 * then never ran.  *reason is the create line's REASON.  NULL where the
 * registry has no say: then want and the rules of expected.txt decide.
 * *decided is set when no rule may override the want (a case that never
 * ran cannot observe anything else).
 */
const char *registry_want(const char *fs, const char *source,
			  const struct tcase *t, const char *name,
			  const char **reason, int *decided);

/* rules.c: tests/expected.txt. */
struct rule {
	char kernel[32], fs[32], source[32], name[128];
	char value[128];	/* alternatives A|B|...; "-" is the want */
	char reason[256];
	int xfail;		/* reason starts with XFAIL: a known gap */
	unsigned int line;
	unsigned int matched;	/* cells it matched */
	unsigned int first;	/* cells where it was the first match */
	unsigned int shadowed_by; /* the line that won one of its cells */
};

int rules_read(const char *path);
/* The first rule matching a cell, or NULL; counts matches for report. */
/* A shell pattern, or several as "A|B": does any match s? */
int pattern_match(const char *pattern, const char *s);
const struct rule *rules_match(const char *kernel, const char *fs,
			       const char *source, const char *name);
/*
 * Rules that apply to the run but matched nothing, and rules that were
 * always shadowed, printed to stderr; with strict also rules whose KERNEL
 * or FS pattern matches no planned kernel or filesystem (without it,
 * only counted on one line: a subset leaves them out by design).
 * Returns how many were printed.
 */
unsigned int rules_report(const char *path, const struct plan *p, int strict);

/* raw.c: raw KTAP documents. */
struct rcase {
	char *name;
	char *observed, *want;	/* NULL: no diagnostic line for it */
	char *skip;		/* the SKIP directive's reason, or NULL */
	int not_ok;		/* the guest said "not ok" */
};

struct rsuite {
	char *kernel, *fs, *source;
	int has_subtest;	/* else only a top-level result line */
	int plan;		/* its 1..N, -1 when missing */
	struct rcase *cases;
	unsigned int n;
	char *problem;		/* the guest's not-ok reason, or ours */
	int used;		/* matched to a planned suite */
};

struct raw {
	struct rsuite *v;
	unsigned int n;
};

/* Add the suites of path, reported by kernel; -1 if it cannot be read. */
int raw_read(struct raw *r, const char *kernel, const char *path);

#endif
