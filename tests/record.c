// SPDX-License-Identifier: GPL-2.0
/* Writing and reading setup records (see record.h for the format). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fields.h"
#include "record.h"

/* "%-8s %-15s\n": every link's line is LINE_W bytes long. */
#define LINE_W (8 + 1 + 15 + 1)

static const char *const link_key[NR_LINKS] = {
	[LINK_E] = "e",
	[LINK_MOVED] = "moved",
	[LINK_GONE] = "gone",
	[LINK_FSYNCED] = "fsynced",
	[LINK_UNSYNCED] = "unsynced",
	[LINK_MANY] = "many",
};

void record_init(struct record *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < NR_LINKS; i++)
		snprintf(r->link[i], sizeof(r->link[i]), "-");
	r->valid = 1;
}

void record_step(struct record *r, enum link_id id, long rc, int err)
{
	snprintf(r->link[id], sizeof(r->link[id]), "%s",
		 rc < 0 ? errno_name(err) : "ok");
}

static void line_of(const struct record *r, enum link_id id, char *buf)
{
	snprintf(buf, LINE_W + 1, "%-8s %-15s\n", link_key[id], r->link[id]);
}

static int write_at(int fd, const char *buf, size_t len, off_t off)
{
	ssize_t n = pwrite(fd, buf, len, off);

	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int record_write(const struct record *r, int fd)
{
	char buf[NR_LINKS * LINE_W + 64];
	size_t len = 0;
	int i;

	for (i = 0; i < NR_LINKS; i++, len += LINE_W)
		line_of(r, i, buf + len);
	if (r->has_ffree)
		len += snprintf(buf + len, sizeof(buf) - len, "%-8s %llu\n",
				"ffree", r->ffree);
	return write_at(fd, buf, len, 0);
}

int record_update(const struct record *r, int fd, enum link_id id)
{
	char buf[LINE_W + 1];

	line_of(r, id, buf);
	return write_at(fd, buf, LINE_W, (off_t)id * LINE_W);
}

/* "ok", "-" or an errno name ("ENOENT", "E1234"). */
static int valid_value(const char *v)
{
	if (!strcmp(v, "ok") || !strcmp(v, "-"))
		return 1;
	if (v[0] != 'E' || !v[1])
		return 0;
	for (v++; *v; v++)
		if (!isupper((unsigned char)*v) && !isdigit((unsigned char)*v))
			return 0;
	return 1;
}

static int parse_ffree(const char *v, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)v[0]))
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno || *end ? -1 : 0;
}

/* One line into r; seen has a bit per key already read. */
static int parse_line(struct record *r, const char *line, unsigned int *seen)
{
	char key[16], value[32], extra[2];
	const char *p = line;
	int id;

	if (field_next(&p, key, sizeof(key)) != 1 ||
	    field_next(&p, value, sizeof(value)) != 1 ||
	    field_next(&p, extra, sizeof(extra)) != 0)
		return -1;
	if (!strcmp(key, "ffree")) {
		if ((*seen & (1u << NR_LINKS)) || parse_ffree(value, &r->ffree))
			return -1;
		*seen |= 1u << NR_LINKS;
		r->has_ffree = 1;
		return 0;
	}
	for (id = 0; id < NR_LINKS; id++)
		if (!strcmp(key, link_key[id]))
			break;
	if (id == NR_LINKS || (*seen & (1u << id)) || !valid_value(value) ||
	    strlen(value) >= sizeof(r->link[id]))
		return -1;
	*seen |= 1u << id;
	memcpy(r->link[id], value, strlen(value) + 1);	/* fits: checked */
	return 0;
}

void record_read(struct record *r, const char *path)
{
	unsigned int lineno = 0, seen = 0;
	char line[128];
	FILE *f;
	int rc;

	record_init(r);
	r->valid = 0;
	f = fopen(path, "r");
	if (!f) {
		printf("# %s: %s\n", path, strerror(errno));
		return;
	}
	while ((rc = line_read(f, line, sizeof(line))) != 0) {
		lineno++;
		if (rc < 0 || (!line_is_blank(line) &&
			       parse_line(r, line, &seen) < 0)) {
			printf("# %s:%u: malformed record line\n", path,
			       lineno);
			fclose(f);
			record_init(r);
			r->valid = 0;
			return;
		}
	}
	fclose(f);
	r->valid = 1;
}

int record_check(const struct record *r, unsigned int needs, char *out)
{
	int id;

	for (id = 0; id < NR_LINKS; id++) {
		if (!(needs & NEEDS_LINK(id)))
			continue;
		if (!r || !r->valid || !strcmp(r->link[id], "-")) {
			snprintf(out, OBS_LEN, "setup:no-record");
			return -1;
		}
		if (strcmp(r->link[id], "ok")) {
			snprintf(out, OBS_LEN, "setup:%s", r->link[id]);
			return -1;
		}
	}
	return 0;
}
