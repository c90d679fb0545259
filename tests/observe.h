/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a case saw, as one short word with no blanks in it, which the
 * KTAP diagnostic line can carry: "ok", an errno name ("ENOENT"), a file
 * type ("dir", "lnk:0") or link bytes ("\"\"").
 */
#ifndef EMPTYLINK_OBSERVE_H
#define EMPTYLINK_OBSERVE_H

#include <stddef.h>
#include <sys/stat.h>

#include "compiler.h"

#define OBS_LEN 64

/* "ok" when rc >= 0, else the name of errno. */
void obs_rc(char *out, long rc);
/* "ok" when rc >= 0, else the name of err (errno saved by the caller). */
void obs_err(char *out, long rc, int err);
/* "setup:ENAME": a step before the case's own call failed with err. */
void obs_setup(char *out, int err);
/* The name of an errno value. */
const char *errno_name(int err);
/* "dir", "reg", "lnk" ... for a st_mode. */
const char *type_name(mode_t mode);
/* The type of what path leads to (following links), or stat's errno. */
void obs_stat_type(const char *path, char *out);
/* The type of the file open on fd, or the errno of fstat. */
void obs_fd_type(char *out, int fd);
/* "lnk:0", "reg:5": type and size; "dir" alone (its size is the fs's). */
void obs_type_size(char *out, mode_t mode, long long size);
/* obs_type_size() of what lstat() says of path, or its errno. */
void obs_lstat(const char *path, char *out);
/*
 * readlink()'s bytes, quoted, or its errno.  Blanks and other bytes
 * outside printable ASCII are written as \xNN, so the word stays one.
 */
void obs_link(char *out, long len, const char *buf);

/*
 * The case does not apply here (not xfs, no inode count): the KTAP line
 * says "# SKIP reason".  obs_skipped() gives that reason back, or NULL
 * when out holds an observation.
 */
void obs_skip(char *out, const char *reason);
const char *obs_skipped(const char *out);

/*
 * 1 when directory dfd is on a filesystem of statfs type magic; else 0,
 * with out written: the errno of fstatfs(), or a SKIP saying why.
 */
int obs_on_fs(int dfd, long magic, const char *why, char *out);

#endif
