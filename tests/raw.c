// SPDX-License-Identifier: GPL-2.0
/*
 * Reading raw KTAP: the guest's console log (or the host's observed
 * output), possibly several top-level documents one after the other.
 * What matters, and how each line is read:
 *
 *   KTAP version 1, 1..N, # ...      top-level headers and comments
 *       KTAP version 1               a subtest begins
 *       # Subtest: FS.SOURCE
 *       1..N                         how many cases it plans
 *       # NAME: observed=V want=W    what case NAME saw, and wants
 *       ok N NAME [# SKIP REASON]    the case reported
 *   ok N FS.SOURCE                   the suite is complete
 *   not ok N FS.SOURCE # REASON      it could not run (or go on)
 *
 * Anything else (kernel messages on the console) is not KTAP and is
 * passed over.  A subtest that never gets its result line, or whose
 * cases are numbered out of order, keeps a problem the judge reports.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "judge.h"

struct parser {
	struct raw *raw;
	const char *kernel;
	int cur;		/* the index of the open subtest, or -1 */
	char *diag[3];		/* the last diagnostic: name, observed, want */
};

/* The first problem of a suite is the one its result line gives. */
static __printf(2, 3) void set_problem(struct rsuite *s, const char *fmt,
					...)
{
	char buf[512];
	va_list ap;

	if (s->problem)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->problem = xstrdup(buf);
}

static void set_name(struct rsuite *s, const char *name)
{
	const char *dot = strchr(name, '.');

	free(s->fs);
	free(s->source);
	s->fs = xstrdup(name);
	s->fs[dot ? dot - name : (long)strlen(name)] = '\0';
	s->source = xstrdup(dot ? dot + 1 : "");
}

static struct rsuite *add_suite(struct parser *ps)
{
	struct raw *r = ps->raw;
	struct rsuite *s;

	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	s = &r->v[r->n++];
	memset(s, 0, sizeof(*s));
	s->kernel = xstrdup(ps->kernel);
	s->plan = -1;
	return s;
}

static void clear_diag(struct parser *ps)
{
	int i;

	for (i = 0; i < 3; i++) {
		free(ps->diag[i]);
		ps->diag[i] = NULL;
	}
}

static void close_open(struct parser *ps)
{
	if (ps->cur >= 0)
		set_problem(&ps->raw->v[ps->cur],
			    "no result line: the subtest was cut short");
	ps->cur = -1;
	clear_diag(ps);
}

/* "ok N NAME [# DIRECTIVE]": 0 and its parts, or -1 if it is not one. */
static int parse_result(char *l, int *not_ok, long *num, char **name,
			char **directive)
{
	char *end, *hash;

	*not_ok = !strncmp(l, "not ok ", 7);
	if (!*not_ok && strncmp(l, "ok ", 3))
		return -1;
	l += *not_ok ? 7 : 3;
	*num = strtol(l, &end, 10);
	if (end == l || *end != ' ' || !end[1])
		return -1;
	*name = end + 1;
	hash = strstr(*name, " # ");
	*directive = NULL;
	if (hash) {
		*hash = '\0';
		*directive = hash + 3;
	}
	return 0;
}

/* "# NAME: observed=V want=W" */
static void parse_diag(struct parser *ps, char *l)
{
	char *sep = NULL, *p, *obs, *want;

	for (p = strstr(l, ": observed="); p; p = strstr(p + 1, ": observed="))
		sep = p;
	if (!sep)
		return;		/* another comment */
	obs = sep + strlen(": observed=");
	want = strchr(obs, ' ');
	/* Exactly two words: "observed=V want=W". */
	if (!want || strncmp(want, " want=", 6) || strchr(want + 6, ' '))
		return;
	*sep = '\0';
	*want = '\0';
	clear_diag(ps);
	ps->diag[0] = xstrdup(l);
	ps->diag[1] = xstrdup(obs);
	ps->diag[2] = xstrdup(want + 6);
}

static void case_result(struct parser *ps, char *l)
{
	struct rsuite *s = &ps->raw->v[ps->cur];
	char *name, *directive;
	struct rcase *c;
	int not_ok;
	long num;

	if (parse_result(l, &not_ok, &num, &name, &directive) < 0)
		return;
	if (num != (long)s->n + 1)
		set_problem(s, "case %s is numbered out of order", name);
	s->cases = xrealloc(s->cases, (s->n + 1) * sizeof(*s->cases));
	c = &s->cases[s->n++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->not_ok = not_ok;
	if (directive && !strncmp(directive, "SKIP", 4))
		c->skip = xstrdup(directive + 4 + (directive[4] == ' '));
	if (ps->diag[0] && !strcmp(ps->diag[0], name)) {
		c->observed = ps->diag[1];
		c->want = ps->diag[2];
		ps->diag[1] = NULL;
		ps->diag[2] = NULL;
	}
	clear_diag(ps);
}

/* A line of the open subtest, its indentation taken off. */
static void subtest_line(struct parser *ps, char *l)
{
	struct rsuite *s = &ps->raw->v[ps->cur];
	char *end;

	if (!strncmp(l, "# Subtest: ", 11)) {
		set_name(s, l + 11);
	} else if (!strncmp(l, "1..", 3)) {
		s->plan = strtol(l + 3, &end, 10);
		if (end == l + 3 || *end)
			s->plan = -1;
	} else if (l[0] == '#') {
		parse_diag(ps, l + 1 + (l[1] == ' '));
	} else {
		case_result(ps, l);
	}
}

static void suite_result(struct parser *ps, char *l)
{
	char *name, *directive;
	struct rsuite *s;
	int not_ok;
	long num;

	if (parse_result(l, &not_ok, &num, &name, &directive) < 0)
		return;
	if (ps->cur >= 0) {
		s = &ps->raw->v[ps->cur];
		if (!s->fs)
			set_name(s, name);
		if (!strncmp(name, s->fs, strlen(s->fs)) &&
		    name[strlen(s->fs)] == '.' &&
		    !strcmp(name + strlen(s->fs) + 1, s->source)) {
			if (not_ok)
				set_problem(s, "guest: %s",
					    directive ? directive : "not ok");
			ps->cur = -1;
			clear_diag(ps);
			return;
		}
		close_open(ps);
	}
	s = add_suite(ps);
	set_name(s, name);
	if (not_ok)
		set_problem(s, "guest: %s", directive ? directive : "not ok");
	else
		set_problem(s, "reported ok without any case");
}

static void parse_line(struct parser *ps, char *line)
{
	if (!strncmp(line, "    ", 4) && line[4] != ' ') {
		line += 4;
		if (!strcmp(line, "KTAP version 1")) {
			close_open(ps);
			ps->cur = add_suite(ps) - ps->raw->v;
			ps->raw->v[ps->cur].has_subtest = 1;
		} else if (ps->cur >= 0) {
			subtest_line(ps, line);
		}
		return;
	}
	if (!strncmp(line, "ok ", 3) || !strncmp(line, "not ok ", 7))
		suite_result(ps, line);
}

int raw_read(struct raw *r, const char *kernel, const char *path)
{
	struct parser ps = { .raw = r, .kernel = kernel, .cur = -1 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		parse_line(&ps, line);
	}
	free(line);
	close_open(&ps);
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}
