// SPDX-License-Identifier: GPL-2.0
/*
 * The judge reads one key of the registry of filesystems (harness/
 * filesystems.txt, "NAME KEY VALUE..." lines): "create VALUE [REASON]",
 * what symlink("") gives on that filesystem.  It is the one place that
 * says a filesystem has not opted in: VALUE is then the error, and the
 * cases that needed such a link never ran.
 */
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "fields.h"
#include "judge.h"

struct fs_create {
	char fs[32], want[64], reason[256];
	char setup[72];		/* "setup:" want, for the cases that never ran */
};

static struct fs_create *creates;
static unsigned int nr_creates;

/* The cases whose want is the registry's "create". */
static const char *const create_cases[] = {
	"create.symlink", "create.symlinkat", "create.io_uring",
	"create.answer_matches",
};

static const char *parse(const char *line, struct fs_create *x, int *is)
{
	char key[16];
	const char *p = line;
	int name_rc;

	memset(x, 0, sizeof(*x));
	name_rc = field_next(&p, x->fs, sizeof(x->fs));
	*is = field_next(&p, key, sizeof(key)) == 1 && !strcmp(key, "create");
	if (!*is)
		return NULL;
	if (name_rc < 0)
		return "NAME is longer than 31 bytes";
	switch (field_next(&p, x->want, sizeof(x->want))) {
	case -1:
		return "VALUE is longer than 63 bytes";
	case 0:
		return "expected NAME create VALUE [REASON]";
	}
	if (field_rest(p, x->reason, sizeof(x->reason)) < 0)
		return "REASON is longer than 255 bytes";
	if (strcmp(x->want, "ok") && !x->reason[0])
		return "a create VALUE other than ok needs its REASON";
	snprintf(x->setup, sizeof(x->setup), "setup:%s", x->want);
	return NULL;
}

/* A create line joins the others; the registry's other keys are not ours. */
static const char *add_line(char *line, unsigned int lineno __maybe_unused,
			    void *ctx __maybe_unused)
{
	struct fs_create x;
	const char *bad;
	unsigned int i;
	int is;

	bad = parse(line, &x, &is);
	if (bad || !is)
		return bad;
	for (i = 0; i < nr_creates; i++)
		if (!strcmp(creates[i].fs, x.fs))
			return "a second create line for this NAME";
	creates = xrealloc(creates, (nr_creates + 1) * sizeof(x));
	creates[nr_creates++] = x;
	return NULL;
}

int registry_read(const char *path)
{
	char line[1024];

	return lines_each(path, line, sizeof(line), add_line, NULL, NULL, 0);
}

static const struct fs_create *create_of(const char *fs)
{
	unsigned int i;

	for (i = 0; i < nr_creates; i++)
		if (!strcmp(fs, creates[i].fs))
			return &creates[i];
	return NULL;
}

/*
 * Does t need a link that symlink("") made on the filesystem itself?
 * The table's links on a scratch disk, and every link that persist and
 * crash set up; the image's table hard-links the image's own link.
 */
static int needs_created_link(const struct tcase *t, const char *source)
{
	switch (t->suite) {
	case SUITE_TABLE:
		return (t->needs & NEEDS_EMPTY) && !strcmp(source, "scratch");
	case SUITE_KSELFTEST:
		return t->needs & NEEDS_EMPTY;
	case SUITE_PERSIST:
	case SUITE_CRASH:
	case SUITE_CLEANUP:
		return 1;
	default:
		return 0;
	}
}

const char *registry_want(const char *fs, const char *source,
			  const struct tcase *t, const char *name,
			  const char **reason, int *decided)
{
	const struct fs_create *x = create_of(fs);
	unsigned int i;

	*decided = 0;
	if (!x)
		return NULL;
	*reason = x->reason;
	for (i = 0; i < ARRAY_SIZE(create_cases); i++)
		if (!strcmp(name, create_cases[i]))
			return x->want;
	if (strcmp(x->want, "ok") && t && needs_created_link(t, source)) {
		*decided = 1;
		return x->setup;
	}
	return NULL;
}
