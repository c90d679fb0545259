/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a setup step made, written down so that the cases that read its
 * links after a remount or a crash can tell "the link is gone" from "the
 * link was never made".  A record is a text file, one fixed-width line
 * per link and then the free inode count:
 *
 *	e        ok
 *	moved    ok
 *	gone     ENOENT
 *	fsynced  -
 *	unsynced -
 *	many     ok
 *	ffree    16342
 *
 * Each link's value is "ok", the errno name of the step that failed, or
 * "-" (not made by this setup, or not known yet).  persist_setup() writes
 * DIR/record (e, moved, gone, many, ffree); crash_setup() writes DIR.made, a
 * sibling of DIR so that it outlives the removal of DIR for cleanup, with
 * the links it made, and crash_late() fills in fsynced and unsynced.
 * Lines are fixed-width so that crash_late() can fill them in place,
 * after the record is already on disk.
 */
#ifndef EMPTYLINK_RECORD_H
#define EMPTYLINK_RECORD_H

#include "observe.h"

enum link_id { LINK_E, LINK_MOVED, LINK_GONE, LINK_FSYNCED, LINK_UNSYNCED,
	       LINK_MANY, NR_LINKS };

/* A case needs the link made: otherwise it observes "setup:VALUE". */
#define NEEDS_LINK(id)	(0x100u << (id))
#define NEEDS_E		NEEDS_LINK(LINK_E)
#define NEEDS_MOVED	NEEDS_LINK(LINK_MOVED)
#define NEEDS_GONE	NEEDS_LINK(LINK_GONE)
#define NEEDS_FSYNCED	NEEDS_LINK(LINK_FSYNCED)
#define NEEDS_UNSYNCED	NEEDS_LINK(LINK_UNSYNCED)
#define NEEDS_MANY	NEEDS_LINK(LINK_MANY)

struct record {
	int valid;			/* read back and well formed */
	char link[NR_LINKS][16];	/* "ok", an errno name, or "-" */
	int has_ffree;
	unsigned long long ffree;	/* statvfs f_ffree before "gone" */
	unsigned int extra_inodes;	/* made after ffree, on purpose */
};

void record_init(struct record *r);
/* The outcome of a link's setup: rc < 0 means it failed with err. */
void record_step(struct record *r, enum link_id id, long rc, int err);
/* The whole record into fd, from offset 0.  0, or -1 with errno set. */
int record_write(const struct record *r, int fd);
/*
 * Rewrite one link's line in place, without syncing it: the caller
 * chooses fsync() or fdatasync().  0, or -1 with errno set.
 */
int record_update(const struct record *r, int fd, enum link_id id);
/*
 * Read path into r.  A missing, unreadable or malformed record leaves
 * r->valid 0 and says why on stdout, as a KTAP comment.
 */
void record_read(struct record *r, const char *path);
/*
 * 0 when every link in needs was made; else "setup:ERRNO", or
 * "setup:no-record" when the record cannot tell, in out and -1.
 */
int record_check(const struct record *r, unsigned int needs, char *out);

#endif
