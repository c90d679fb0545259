// SPDX-License-Identifier: GPL-2.0
/*
 * emptylink judge: the host decides what the guest observed means.
 *
 *   emptylink judge --expect tests/expected.txt
 *                   --registry harness/filesystems.txt --plan PLAN
 *                   [--strict-rules] KERNEL=RAWFILE...
 *
 * PLAN has a line "KERNEL FS SOURCE KIND" for every suite that must
 * have a result; KIND says what it reports (struct suite_kind): every
 * case this binary declares for that kind, each exactly once, or per
 * entry "PATH:name" cases, or the host's verdicts.  A declared case the
 * guest did not report fails as "not reported", a name twice, a name
 * this binary does not declare or one of another kind fails where it
 * stands.  Each case's expected value is its want, unless the registry's
 * "create" line decides it (the creating cases; and where creation is
 * refused, "setup:VALUE" for the cases whose link symlink("") was to
 * make, which never ran) or a rule of --expect says otherwise.  The
 * want of a case this binary declares is its own: a guest that reports
 * another one ran a stale initramfs.  Only per-entry cases and the
 * host's verdicts bring their wants with them.  The judged KTAP on
 * stdout:
 *
 *   KTAP version 1
 *   1..S
 *       KTAP version 1
 *       # Subtest: KERNEL.FS.SOURCE
 *       1..N
 *       # NAME: observed=V expected=E -- REASON
 *       ok 1 NAME                          as expected
 *       not ok 2 NAME                      not as expected
 *       ok 3 NAME # XFAIL REASON           a known gap, still there
 *       ok 4 NAME # SKIP REASON            does not apply, as expected
 *       ok 5 NAME # SKIP precondition: setup:ENOENT
 *                                          never ran, as expected: a
 *                                          set-up step failed
 *       not ok 6 NAME # XPASS fixed: remove the rule
 *                                          an XFAIL rule's case observed
 *                                          its want: the gap is gone
 *   ok 1 KERNEL.FS.SOURCE                  (not ok if anything failed)
 *   not ok 2 KERNEL.FS.SOURCE # no result: ...
 *   not ok 3 KERNEL.FS.SOURCE # no cases
 *
 * Suites come in plan order, then any suite that was not planned (each
 * a failure).  On stderr: rules that match no planned kernel or
 * filesystem, match nothing or are shadowed (errors with --strict-rules,
 * notes otherwise), then as the last line "judge: P passed, F failed,
 * S skipped".  P, F and S count cases (S: SKIP, preconditions and XFAIL;
 * an XPASS is a failure); a suite that is missing, not planned, cut short, without
 * cases or with the wrong plan adds one to F.  Exit status: 0 everything
 * as expected, 1 a failure, 2 a usage or input error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "judge.h"

struct tally {
	unsigned int pass, fail, skip;
};

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fprintf(stderr, "emptylink judge: out of memory\n");
		exit(2);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

/* Is v one of the |-separated alternatives, "-" standing for want? */
static int is_one_of(const char *alts, const char *want, const char *v)
{
	size_t n;

	for (;; alts += n + 1) {
		n = strcspn(alts, "|");
		if (n == 1 && alts[0] == '-' ? !strcmp(v, want) :
		    strlen(v) == n && !strncmp(alts, v, n))
			return 1;
		if (!alts[n])
			return 0;
	}
}

/* The alternatives as printed: each "-" replaced by the want. */
static void expand(const char *alts, const char *want, char *buf,
		   size_t size)
{
	size_t n, len = 0;

	buf[0] = '\0';
	for (;; alts += n + 1) {
		n = strcspn(alts, "|");
		if (n == 1 && alts[0] == '-')
			len += snprintf(buf + len, size - len, "%s", want);
		else
			len += snprintf(buf + len, size - len, "%.*s", (int)n,
					alts);
		if (!alts[n] || len >= size - 1)
			return;
		len += snprintf(buf + len, size - len, "|");
	}
}

/* "XFAIL: why" or "XFAIL why" is printed as "# XFAIL why". */
static const char *xfail_why(const char *reason)
{
	reason += strlen("XFAIL");
	return reason + strspn(reason, ": \t");
}

/*
 * What is wrong with c being in a suite of kind k, or NULL: every name
 * once, a case this binary declares for k, per entry "PATH:name" for a
 * name of k's cases; the host's verdicts are no case of ours.
 */
static const char *membership(const struct suite_kind *k,
			      const struct rsuite *s, unsigned int i,
			      char *why, size_t size)
{
	const struct rcase *c = &s->cases[i];
	const struct tcase *t;
	unsigned int j;

	for (j = 0; j < i; j++)
		if (!strcmp(s->cases[j].name, c->name))
			return "reported twice";
	if (k->per_entry) {
		if (kind_entry_case(k, c->name))
			return NULL;
		snprintf(why, size, "not a PATH:name case of a %s suite",
			 k->name);
		return why;
	}
	t = strchr(c->name, ':') ? NULL : case_find(c->name);
	if (!k->declared && !t && !case_group_known(c->name))
		return NULL;		/* a host verdict: no case of ours */
	if (!t || !k->declared)
		return "unknown case";
	if (kind_has(k, t))
		return NULL;
	snprintf(why, size, "a case of another suite, not of a %s suite",
		 k->name);
	return why;
}

/* A value that says the case never ran: its set-up failed. */
static int is_precondition(const char *v)
{
	return !strncmp(v, "setup:", 6) || !strncmp(v, "broken:", 7);
}

/*
 * The want of c into *want: this binary's own where the case declares
 * one, else (a manifest entry's, the host's verdicts) the one reported
 * with it, which can never say that the case is not to run.  Returns
 * what is wrong with the reported one, or NULL.
 */
static const char *own_want(const struct rcase *c, const struct tcase *t,
			    const char **want, char *why, size_t size)
{
	*want = c->want ? c->want : "?";
	if (!t || !t->want) {
		if (is_precondition(*want) || !strcmp(*want, "SKIP"))
			return "a reported want cannot be SKIP or a precondition";
		return NULL;
	}
	*want = t->want;
	if (!c->want || !strcmp(c->want, t->want))
		return NULL;
	snprintf(why, size,
		 "the guest's want %s differs from this judge's %s: stale initramfs",
		 c->want, t->want);
	return why;
}

/* What is wrong with how the guest reported c, or NULL. */
static const char *report_problem(const struct rcase *c,
				  const char *observed)
{
	if (!c->observed)
		return "no diagnostic line with what it observed";
	if (c->not_ok)
		return "the guest said not ok";
	if (!c->skip != !!strcmp(observed, "SKIP"))
		return "observed=SKIP and the SKIP directive disagree";
	return NULL;
}

/* The cell of a case: where it is, what it must be and what it was. */
struct cell {
	unsigned int num;
	const char *kernel;
	const struct rsuite *s;
	const struct suite_kind *kind;
};

/*
 * Judge case i of the suite; prints its lines, returns 1 if it failed.
 * A case whose expected value says it never ran (setup:, broken:) is a
 * SKIP with that precondition: as expected, but not a pass.
 */
static int judge_case(const struct cell *cl, unsigned int i, struct tally *t)
{
	const struct rcase *c = &cl->s->cases[i];
	const char *observed = c->observed ? c->observed : "none";
	const struct tcase *tc = NULL;
	const char *want, *problem, *reg, *reason = "";
	const struct rule *r = NULL;
	char expected[512], why[512];
	int decided;

	problem = membership(cl->kind, cl->s, i, why, sizeof(why));
	if (!problem && cl->kind->per_entry)
		tc = kind_entry_case(cl->kind, c->name);
	else if (!problem && cl->kind->declared)
		tc = case_find(c->name);
	if (!problem)
		problem = own_want(c, tc, &want, why, sizeof(why));
	else
		want = c->want ? c->want : "?";
	reg = registry_want(cl->s->fs, cl->s->source, tc, c->name, &reason,
			    &decided);
	if (reg)
		want = reg;
	else
		reason = "";
	if (!decided)
		r = rules_match(cl->kernel, cl->s->fs, cl->s->source, c->name);
	if (r)
		reason = r->reason;
	expand(r ? r->value : "-", want, expected, sizeof(expected));
	printf("    # %s: observed=%s expected=%s%s%s\n", c->name, observed,
	       expected, reason[0] ? " -- " : "", reason);
	if (!problem)
		problem = report_problem(c, observed);
	if (problem)
		printf("    # %s: %s\n", c->name, problem);
	if (!problem && r && r->xfail && !strcmp(observed, want)) {
		printf("    not ok %u %s # XPASS fixed: remove the rule\n",
		       cl->num, c->name);
		t->fail++;
		return 1;
	}
	if (problem || !is_one_of(r ? r->value : "-", want, observed)) {
		printf("    not ok %u %s\n", cl->num, c->name);
		t->fail++;
		return 1;
	}
	if (c->skip) {
		printf("    ok %u %s # SKIP %s\n", cl->num, c->name, c->skip);
		t->skip++;
	} else if (is_precondition(observed) && (r || reg)) {
		printf("    ok %u %s # SKIP precondition: %s\n", cl->num,
		       c->name, observed);
		t->skip++;
	} else if (r && r->xfail) {
		printf("    ok %u %s # XFAIL %s\n", cl->num, c->name,
		       xfail_why(r->reason));
		t->skip++;
	} else {
		printf("    ok %u %s\n", cl->num, c->name);
		t->pass++;
	}
	return 0;
}

/* A case a suite must have reported and did not. */
struct missing {
	char *name;		/* its name, "PATH:name" per entry */
	const struct tcase *t;
};

struct missing_list {
	struct missing *v;
	unsigned int n;
};

static int reported(const struct rsuite *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->cases[i].name, name))
			return 1;
	return 0;
}

static void add_missing(struct missing_list *m, const char *name,
			const struct tcase *t)
{
	m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
	m->v[m->n].name = xstrdup(name);
	m->v[m->n++].t = t;
}

/*
 * What s should have reported and did not: every case kind declares; per
 * entry, for each PATH it names, every case reported for every entry.
 */
static void missing_cases(const struct suite_kind *k, const struct rsuite *s,
			  struct missing_list *m)
{
	const struct tcase **v;
	unsigned int nv, i, j, l;
	char path[512], name[512];

	m->v = NULL;
	m->n = 0;
	if (!k->declared)
		return;
	v = kind_cases(k, &nv);
	if (!v) {
		fprintf(stderr, "emptylink judge: out of memory\n");
		exit(2);
	}
	for (i = 0; i < nv && !k->per_entry; i++)
		if (!reported(s, v[i]->name))
			add_missing(m, v[i]->name, v[i]);

	for (i = 0; i < s->n && k->per_entry; i++) {
		const char *colon = strrchr(s->cases[i].name, ':');

		if (!colon)
			continue;
		l = colon - s->cases[i].name;
		snprintf(path, sizeof(path), "%.*s", (int)l, s->cases[i].name);
		/* Each PATH once: at its first case. */
		for (j = 0; j < i; j++)
			if (!strncmp(s->cases[j].name, s->cases[i].name, l + 1))
				break;
		if (j < i)
			continue;
		for (j = 0; j < nv; j++) {
			if (!(v[j]->needs & EVERY_ENTRY))
				continue;
			case_entry_name(name, sizeof(name), path, v[j]);
			if (!reported(s, name))
				add_missing(m, name, v[j]);
		}
	}
	free(v);
}

/* A case the guest never reported: a failed cell of its own. */
static void judge_missing(unsigned int num, const struct rsuite *s,
			  const struct missing *x, struct tally *t)
{
	const char *reason = "", *reg, *want;
	int decided;

	reg = registry_want(s->fs, s->source, x->t, x->name, &reason,
			    &decided);
	want = reg ? reg : x->t->want ? x->t->want : "?";
	printf("    # %s: observed=none expected=%s%s%s\n", x->name, want,
	       reg && reason[0] ? " -- " : "", reg ? reason : "");
	printf("    # %s: not reported: the guest never ran it\n", x->name);
	printf("    not ok %u %s\n", num, x->name);
	t->fail++;
}

static void judge_suite(unsigned int k, const struct planned *p,
			const struct rsuite *s, int kernel_seen,
			struct tally *t)
{
	const char *problem = s ? s->problem : NULL;
	struct missing_list m;
	unsigned int i, bad = 0;
	struct cell cl;
	char name[128], why[128];

	snprintf(name, sizeof(name), "%s.%s.%s", p->kernel, p->fs, p->source);
	if (!s) {
		printf("not ok %u %s # no result: %s\n", k, name, kernel_seen ?
		       "not in the raw output" :
		       "no raw output for this kernel");
		t->fail++;
		return;
	}
	if (!s->has_subtest) {
		printf("not ok %u %s # %s\n", k, name, problem);
		t->fail++;
		return;
	}
	missing_cases(p->kind, s, &m);
	printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n", name,
	       s->n + m.n);
	cl.kernel = p->kernel;
	cl.s = s;
	cl.kind = p->kind;
	for (i = 0; i < s->n; i++) {
		cl.num = i + 1;
		bad += judge_case(&cl, i, t);
	}
	for (i = 0; i < m.n; i++) {
		judge_missing(s->n + i + 1, s, &m.v[i], t);
		free(m.v[i].name);
	}
	bad += m.n;
	free(m.v);
	if (!problem && !s->n)
		problem = "no cases";
	if (!problem && m.n) {
		snprintf(why, sizeof(why),
			 "%u declared case%s not reported", m.n,
			 m.n == 1 ? "" : "s");
		problem = why;
	}
	if (!problem && s->plan != (int)s->n) {
		snprintf(why, sizeof(why), "planned %d cases, reported %u",
			 s->plan, s->n);
		problem = why;
	}
	if (problem)
		t->fail++;
	printf("%s %u %s%s%s\n", bad || problem ? "not ok" : "ok", k, name,
	       problem ? " # " : "", problem ? problem : "");
}

static int same_suite(const struct rsuite *s, const struct planned *p)
{
	return s->fs && !strcmp(s->kernel, p->kernel) &&
	       !strcmp(s->fs, p->fs) && !strcmp(s->source, p->source);
}

/* The raw suite for each planned one (NULL: none); marks them used. */
static const struct rsuite **match_plan(const struct plan *p,
					struct raw *raw)
{
	const struct rsuite **m = xrealloc(NULL, (p->n + 1) * sizeof(*m));
	unsigned int i, j;

	for (i = 0; i < p->n; i++) {
		m[i] = NULL;
		for (j = 0; j < raw->n && !m[i]; j++) {
			if (!raw->v[j].used && same_suite(&raw->v[j], &p->v[i])) {
				raw->v[j].used = 1;
				m[i] = &raw->v[j];
			}
		}
	}
	return m;
}

static int is_planned(const struct plan *p, const struct rsuite *s)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (same_suite(s, &p->v[i]))
			return 1;
	return 0;
}

static int kernel_seen(const struct raw *raw, const char *kernel)
{
	unsigned int i;

	for (i = 0; i < raw->n; i++)
		if (!strcmp(raw->v[i].kernel, kernel))
			return 1;
	return 0;
}

/* KERNEL=RAWFILE arguments into raw; -1 on a bad one. */
static int read_raw(struct raw *raw, char **args, int nargs)
{
	char kernel[64];
	int i;

	for (i = 0; i < nargs; i++) {
		const char *eq = strchr(args[i], '=');

		if (!eq || eq == args[i] || !eq[1] ||
		    eq - args[i] >= (long)sizeof(kernel)) {
			fprintf(stderr,
				"emptylink judge: '%s' is not KERNEL=RAWFILE\n",
				args[i]);
			return -1;
		}
		snprintf(kernel, sizeof(kernel), "%.*s", (int)(eq - args[i]),
			 args[i]);
		if (raw_read(raw, kernel, eq + 1) < 0)
			return -1;
	}
	return 0;
}

int run_judge(const char *expect, const char *registry, const char *plan,
	      int strict, char **args, int nargs)
{
	struct raw raw = { NULL, 0 };
	const struct rsuite **m;
	struct tally t = { 0, 0, 0 };
	unsigned int i, k, unplanned = 0, notes;
	struct plan p;

	if (rules_read(expect) < 0 || registry_read(registry) < 0 ||
	    plan_read(&p, plan) < 0 || read_raw(&raw, args, nargs) < 0)
		return 2;
	m = match_plan(&p, &raw);
	for (i = 0; i < raw.n; i++)
		unplanned += !raw.v[i].used;
	printf("KTAP version 1\n1..%u\n", p.n + unplanned);
	for (i = 0; i < p.n; i++)
		judge_suite(i + 1, &p.v[i], m[i],
			    kernel_seen(&raw, p.v[i].kernel), &t);
	for (i = 0, k = p.n; i < raw.n; i++) {
		const struct rsuite *s = &raw.v[i];

		if (s->used)
			continue;
		printf("not ok %u %s.%s.%s # %s\n", ++k, s->kernel,
		       s->fs ? s->fs : "?", s->fs ? s->source : "?",
		       is_planned(&p, s) ? "reported twice" : "not planned");
		t.fail++;
	}
	free(m);
	notes = rules_report(expect, &p, strict);
	if (notes && !strict)
		fprintf(stderr,
			"(%u rule note%s above; --strict-rules makes them errors)\n",
			notes, notes == 1 ? "" : "s");
	fprintf(stderr, "judge: %u passed, %u failed, %u skipped\n", t.pass,
		t.fail, t.skip);
	return t.fail || (strict && notes) ? 1 : 0;
}
