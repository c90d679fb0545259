// SPDX-License-Identifier: GPL-2.0
/* Bounded line and field reading for the text files the tool reads. */
#include <errno.h>
#include <string.h>

#include "fields.h"

#define BLANKS " \t\r\n"

int line_read(FILE *f, char *buf, size_t size)
{
	size_t len;
	int c;

	if (!fgets(buf, size, f))
		return 0;
	len = strlen(buf);
	if (len && buf[len - 1] == '\n') {
		buf[--len] = '\0';
	} else {
		/*
		 * No newline: the last line, one that just fills buf (its
		 * newline comes next), or one too long for buf.
		 */
		c = fgetc(f);
		if (c != EOF && c != '\n') {
			while (c != EOF && c != '\n')
				c = fgetc(f);
			return -1;
		}
	}
	if (len && buf[len - 1] == '\r')
		buf[--len] = '\0';
	return 1;
}

int line_is_blank(const char *line)
{
	line += strspn(line, BLANKS);
	return *line == '\0' || *line == '#';
}

int field_next(const char **p, char *buf, size_t size)
{
	const char *s = *p + strspn(*p, BLANKS);
	size_t len = strcspn(s, BLANKS);

	*p = s + len;
	if (!len)
		return 0;
	if (len >= size)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 1;
}

int field_rest(const char *p, char *buf, size_t size)
{
	size_t len;

	p += strspn(p, BLANKS);
	len = strlen(p);
	while (len && strchr(BLANKS, p[len - 1]))
		len--;
	if (len >= size)
		return -1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return len > 0;
}

/*
 * "path:LINE: bad", or "path: bad" when lineno is 0, on stderr and into
 * why.  Returns -1.
 */
static int lines_fail(const char *path, unsigned int lineno, const char *bad,
		      char *why, size_t why_size)
{
	char at[16] = "";

	if (lineno)
		snprintf(at, sizeof(at), ":%u", lineno);
	if (!why) {
		fprintf(stderr, "%s%s: %s\n", path, at, bad);
		return -1;
	}
	snprintf(why, why_size, "%s%s: %s", path, at, bad);
	fprintf(stderr, "%s\n", why);
	return -1;
}

int lines_each(const char *path, char *buf, size_t size,
	       const char *(*parse)(char *line, unsigned int lineno, void *ctx),
	       void *ctx, char *why, size_t why_size)
{
	unsigned int lineno = 0;
	const char *bad = NULL;
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return lines_fail(path, 0, strerror(errno), why, why_size);
	while (!bad && (rc = line_read(f, buf, size)) != 0) {
		lineno++;
		if (rc < 0)
			bad = "line too long";
		else if (!line_is_blank(buf))
			bad = parse(buf, lineno, ctx);
	}
	fclose(f);
	if (bad)
		return lines_fail(path, lineno, bad, why, why_size);
	return 0;
}
