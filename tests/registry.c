// SPDX-License-Identifier: GPL-2.0
/*
 * The judge reads one key of the registry of filesystems (harness/
 * filesystems.txt, "NAME KEY VALUE..." lines): "create", what
 * symlink("") gives on that filesystem.  It is the want of the creating
 * cases there on every kernel; tests/expected.txt still overrides it.
 */
#include <string.h>

#include "compiler.h"
#include "fields.h"
#include "judge.h"

struct fs_create {
	char fs[32], want[64];
};

static struct fs_create *creates;
static unsigned int nr_creates;

/* The cases whose want is the registry's "create". */
static const char *const create_cases[] = {
	"create.symlink", "create.symlinkat", "create.io_uring",
};

static const char *parse(const char *line, struct fs_create *x, int *is)
{
	char key[16], extra[2];
	const char *p = line;
	int name_rc;

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
		return "expected NAME create VALUE";
	}
	if (field_next(&p, extra, sizeof(extra)))
		return "expected one VALUE after create";
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

const char *registry_want(const char *fs, const char *name, const char *want)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(create_cases); i++) {
		if (strcmp(name, create_cases[i]))
			continue;
		for (j = 0; j < nr_creates; j++)
			if (!strcmp(fs, creates[j].fs))
				return creates[j].want;
	}
	return want;
}
