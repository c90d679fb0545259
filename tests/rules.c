// SPDX-License-Identifier: GPL-2.0
/*
 * tests/expected.txt: where a kernel or filesystem differs from the
 * want.  "KERNEL FS SOURCE CASE EXPECTED [REASON]", shell patterns (A|B
 * for several), the first matching line wins.  EXPECTED is one value or alternatives
 * "A|B"; "-" stands for the want, "SKIP" for a case that must not apply.
 * A REASON starting with XFAIL marks a known gap: its EXPECTED names the
 * gap's values, never "-", so that a fixed case cannot still pass as one.
 * Each rule counts the cells it matched and won, so that a rule that
 * matches nothing (not even a planned kernel or filesystem), or only
 * cells an earlier rule already decides, is reported instead of silently
 * rotting.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "fields.h"
#include "judge.h"

static struct rule *rules;
static unsigned int nr_rules;

/* Alternatives must all be non-empty: "A||B" or "A|" is a typo. */
static int valid_value(const char *v)
{
	size_t n;

	for (;;) {
		n = strcspn(v, "|");
		if (!n)
			return 0;
		if (!v[n])
			return 1;
		v += n + 1;
	}
}

/* Is one of the alternatives "-", the want? */
static int names_want(const char *v)
{
	size_t n;

	for (;; v += n + 1) {
		n = strcspn(v, "|");
		if (n == 1 && v[0] == '-')
			return 1;
		if (!v[n])
			return 0;
	}
}

static const char *parse(const char *line, struct rule *r)
{
	static const char *const what[] = {
		"KERNEL", "FS", "SOURCE", "CASE", "EXPECTED",
	};
	static char why[64];
	struct {
		char *buf;
		size_t size;
	} col[] = {
		{ r->kernel, sizeof(r->kernel) },
		{ r->fs, sizeof(r->fs) },
		{ r->source, sizeof(r->source) },
		{ r->name, sizeof(r->name) },
		{ r->value, sizeof(r->value) },
	};
	const char *p = line;
	size_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 5; i++) {
		rc = field_next(&p, col[i].buf, col[i].size);
		if (rc == 0)
			return "expected KERNEL FS SOURCE CASE EXPECTED [REASON]";
		if (rc < 0) {
			snprintf(why, sizeof(why), "%s is longer than %zu bytes",
				 what[i], col[i].size - 1);
			return why;
		}
	}
	if (field_rest(p, r->reason, sizeof(r->reason)) < 0)
		return "REASON is longer than 255 bytes";
	if (!valid_value(r->value))
		return "EXPECTED has an empty alternative";
	r->xfail = !strncmp(r->reason, "XFAIL", 5);
	if (r->xfail && names_want(r->value))
		return "an XFAIL rule must name the gap's values, not -";
	return NULL;
}

static const char *add_line(char *line, unsigned int lineno,
			    void *ctx __maybe_unused)
{
	struct rule r;
	const char *bad;

	bad = parse(line, &r);
	if (bad)
		return bad;
	r.line = lineno;
	rules = xrealloc(rules, (nr_rules + 1) * sizeof(r));
	rules[nr_rules++] = r;
	return NULL;
}

int rules_read(const char *path)
{
	char line[1024];

	return lines_each(path, line, sizeof(line), add_line, NULL, NULL, 0);
}

int pattern_match(const char *pattern, const char *s)
{
	char one[256];
	const char *bar;
	size_t n;

	for (;;) {
		bar = strchr(pattern, '|');
		if (!bar)
			return fnmatch(pattern, s, 0) == 0;
		n = bar - pattern;
		if (n < sizeof(one)) {
			memcpy(one, pattern, n);
			one[n] = '\0';
			if (fnmatch(one, s, 0) == 0)
				return 1;
		}
		pattern = bar + 1;
	}
}

const struct rule *rules_match(const char *kernel, const char *fs,
			       const char *source, const char *name)
{
	struct rule *won = NULL;
	unsigned int i;

	for (i = 0; i < nr_rules; i++) {
		struct rule *r = &rules[i];

		if (!pattern_match(r->kernel, kernel) || !pattern_match(r->fs, fs) ||
		    !pattern_match(r->source, source) || !pattern_match(r->name, name))
			continue;
		r->matched++;
		if (!won) {
			won = r;
			r->first++;
		} else if (!r->shadowed_by) {
			r->shadowed_by = won->line;
		}
	}
	return won;
}

unsigned int rules_report(const char *path, const struct plan *p, int strict)
{
	unsigned int i, n = 0, outside = 0;

	for (i = 0; i < nr_rules; i++) {
		const struct rule *r = &rules[i];

		if (!plan_matches(p, 0, r->kernel) ||
		    !plan_matches(p, 1, r->fs)) {
			/*
			 * A run of a subset leaves such rules out by design;
			 * only a run of everything can call one a typo.
			 */
			if (!strict) {
				outside++;
				continue;
			}
			fprintf(stderr,
				"%s:%u: rule matches no planned kernel or filesystem\n",
				path, r->line);
			n++;
		} else if (!r->matched) {
			fprintf(stderr, "%s:%u: rule matches nothing\n", path,
				r->line);
			n++;
		} else if (!r->first) {
			fprintf(stderr, "%s:%u: rule is shadowed by line %u\n",
				path, r->line, r->shadowed_by);
			n++;
		}
	}
	if (outside)
		fprintf(stderr,
			"(%u rule%s of %s name only kernels or filesystems this run does not cover)\n",
			outside, outside == 1 ? "" : "s", path);
	return n;
}
