// SPDX-License-Identifier: GPL-2.0
/*
 * Checking a prebuilt image against fs-images/manifest.txt: every entry's
 * lstat, its link body or file content, and what following it gives.
 * Reads only, so it runs before the table adds anything to the image.
 *
 * The cases below run once per entry, named "PATH:lstat" and so on; the
 * entry's TYPE says which of them apply, and its columns give the want.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fields.h"
#include "suites.h"

#define MAX_ENTRIES 64

/* The entry types a case runs on ... */
#define FOR_DIR		0x1
#define FOR_REG		0x2
#define FOR_LNK		0x4
#define FOR_CORRUPT	0x8	/* lstat, reading and following all fail */
#define FOR_ANY		0xf
/* ... and the column its want comes from. */
#define WANT_TYPE_SIZE	0x10	/* "TYPE:SIZE", or "dir" */
#define WANT_BODY	0x20
#define WANT_FOLLOW	0x40

CASE(MANIFEST, manifest, lstat, NULL, FOR_ANY | WANT_TYPE_SIZE | EVERY_ENTRY)
{
	obs_lstat(c->path, out);
}

/* A file's content; what readlink() gives of a corrupt inode. */
CASE(MANIFEST, manifest, read, NULL, FOR_REG | FOR_CORRUPT | WANT_BODY)
{
	char buf[512];
	long len;
	int fd, err;

	if (strcmp(c->type, "reg")) {
		obs_link(out, readlink(c->path, buf, sizeof(buf)), buf);
		return;
	}
	fd = open(c->path, O_RDONLY);
	if (fd < 0) {
		obs_rc(out, -1);
		return;
	}
	len = read(fd, buf, sizeof(buf));
	err = errno;
	close(fd);
	if (len < 0)
		obs_err(out, -1, err);
	else
		obs_link(out, len, buf);
}

CASE(MANIFEST, manifest, readlink, NULL, FOR_LNK | WANT_BODY)
{
	char buf[512];

	obs_link(out, readlink(c->path, buf, sizeof(buf)), buf);
}

CASE(MANIFEST, manifest, follow, NULL, FOR_ANY | WANT_FOLLOW | EVERY_ENTRY)
{
	obs_stat_type(c->path, out);
}

struct entry {
	char set[32], path[256], type[8], body[OBS_LEN], size[16];
	char follow[OBS_LEN];
	unsigned int kind;	/* FOR_* of type */
};

static const struct {
	const char *type;
	unsigned int kind;
} kinds[] = {
	{ "dir", FOR_DIR },
	{ "reg", FOR_REG },
	{ "lnk", FOR_LNK },
	{ "corrupt", FOR_CORRUPT },
};

/* Is set one of the comma-separated names in sets? */
static int in_sets(const char *set, const char *sets)
{
	size_t len = strlen(set);

	while (*sets) {
		size_t n = strcspn(sets, ",");

		if (n == len && !strncmp(set, sets, n))
			return 1;
		sets += n + (sets[n] == ',');
	}
	return 0;
}

/* SET PATH TYPE BODY SIZE FOLLOW LAYOUT, LAYOUT being free text. */
static const char *parse_entry(const char *line, struct entry *e)
{
	struct {
		const char *what;
		char *buf;
		size_t size;
	} col[] = {
		{ "SET", e->set, sizeof(e->set) },
		{ "PATH", e->path, sizeof(e->path) },
		{ "TYPE", e->type, sizeof(e->type) },
		{ "BODY", e->body, sizeof(e->body) },
		{ "SIZE", e->size, sizeof(e->size) },
		{ "FOLLOW", e->follow, sizeof(e->follow) },
	};
	static char why[64];
	char layout[256];
	const char *p = line;
	size_t i;
	int rc;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < ARRAY_SIZE(col); i++) {
		rc = field_next(&p, col[i].buf, col[i].size);
		if (rc < 0) {
			snprintf(why, sizeof(why), "%s is longer than %zu bytes",
				 col[i].what, col[i].size - 1);
			return why;
		}
		if (rc == 0)
			return "expected 7 columns (SET ... LAYOUT)";
	}
	rc = field_rest(p, layout, sizeof(layout));
	if (rc < 0)
		return "LAYOUT is longer than 255 bytes";
	if (rc == 0)
		return "expected 7 columns (SET ... LAYOUT)";
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(e->type, kinds[i].type))
			e->kind = kinds[i].kind;
	return e->kind ? NULL : "TYPE is not dir, reg, lnk or corrupt";
}

/* What load() gathers: the entries of sets, up to MAX_ENTRIES. */
struct loading {
	const char *sets;
	struct entry *e;
	int n;
};

static const char *add_line(char *line, unsigned int lineno __maybe_unused,
			    void *ctx)
{
	struct loading *l = ctx;
	struct entry x;
	const char *bad;

	bad = parse_entry(line, &x);
	if (bad || !in_sets(x.set, l->sets))
		return bad;
	if (l->n == MAX_ENTRIES)
		return "too many entries";
	l->e[l->n++] = x;
	return NULL;
}

/*
 * The entries of sets into e; returns how many, or -1 after printing
 * the problem (file:line) to stderr and into why.
 */
static int load(const char *manifest, const char *sets, struct entry *e,
		char *why, size_t size)
{
	struct loading l = { .sets = sets, .e = e };
	char line[1024];

	if (lines_each(manifest, line, sizeof(line), add_line, &l, why, size))
		return -1;
	return l.n;
}

static void entry_want(const struct entry *e, const struct tcase *t,
		       char *want)
{
	if (e->kind == FOR_CORRUPT || (t->needs & WANT_FOLLOW))
		snprintf(want, OBS_LEN, "%s", e->follow);
	else if (t->needs & WANT_BODY)
		snprintf(want, OBS_LEN, "%s", e->body);
	else if (e->kind == FOR_DIR)
		snprintf(want, OBS_LEN, "dir");
	else
		snprintf(want, OBS_LEN, "%s:%s", e->type, e->size);
}

static void run_entry(struct suite *s, const struct entry *e,
		      const struct tcase **v, unsigned int nv, const char *root)
{
	char path[512], name[300], want[OBS_LEN], observed[OBS_LEN];
	struct ctx c = { .dfd = AT_FDCWD, .path = path, .type = e->type };
	unsigned int i;

	snprintf(path, sizeof(path), "%s%s", root, e->path);
	for (i = 0; i < nv; i++) {
		if (!(v[i]->needs & e->kind))
			continue;
		case_entry_name(name, sizeof(name), e->path, v[i]);
		entry_want(e, v[i], want);
		snprintf(observed, sizeof(observed), "?");
		if (!s->broken)
			v[i]->run(&c, observed);
		ktap_case(s, name, want, observed);
	}
}

int run_manifest(struct suite *s, const char *manifest, const char *sets,
		 const char *root)
{
	static struct entry e[MAX_ENTRIES];
	unsigned int nv, planned = 0, i, j;
	const struct tcase **v;
	char why[1200];
	int n;

	n = load(manifest, sets, e, why, sizeof(why));
	if (n < 0) {
		ktap_abort(s, "%s", why);
		return 2;
	}
	if (n == 0)
		return ktap_abort(s, "no entries for %s in %s", sets, manifest);
	v = cases_of(SUITE_MANIFEST, &nv);
	if (!v)
		return ktap_abort(s, "out of memory");
	for (i = 0; i < (unsigned int)n; i++)
		for (j = 0; j < nv; j++)
			planned += !!(v[j]->needs & e[i].kind);
	ktap_begin(s, planned);
	for (i = 0; i < (unsigned int)n; i++)
		run_entry(s, &e[i], v, nv, root);
	free(v);
	return ktap_end(s);
}
