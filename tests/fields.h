/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the line-based text files (manifest, expectations, plan,
 * registry, setup records) with bounds: a line or a field that does not
 * fit its buffer is an error the caller names by file and line, never a
 * silent truncation.
 */
#ifndef EMPTYLINK_FIELDS_H
#define EMPTYLINK_FIELDS_H

#include <stddef.h>
#include <stdio.h>

/*
 * One line of f into buf, without its newline.  Returns 1, 0 at the end
 * of the file, or -1 when the line is longer than size - 1 (the rest of
 * it is then skipped, so the caller can go on counting lines).
 */
int line_read(FILE *f, char *buf, size_t size);

/* Nothing but blanks, or a comment starting with #. */
int line_is_blank(const char *line);

/*
 * Copy the next blank-separated field at *p into buf and move *p past
 * it.  Returns 1, 0 when the line has no more fields, or -1 when the
 * field does not fit.
 */
int field_next(const char **p, char *buf, size_t size);

/*
 * The rest of the line at p, blanks trimmed at both ends, into buf.
 * Returns 1, 0 when only blanks are left, or -1 when it does not fit.
 */
int field_rest(const char *p, char *buf, size_t size);

/*
 * Read path a line at a time into buf (size bytes) and call
 * parse(buf, lineno, ctx) for every line that is not blank or a comment;
 * stop at the first error it returns (a static string) or at a line too
 * long for buf.  Returns 0, or -1 after such an error or when path cannot
 * be opened: then "path:LINE: error" or "path: strerror" is printed on
 * stderr, and also left in why (why_size bytes) unless why is NULL.
 */
int lines_each(const char *path, char *buf, size_t size,
	       const char *(*parse)(char *line, unsigned int lineno, void *ctx),
	       void *ctx, char *why, size_t why_size);

#endif
