// SPDX-License-Identifier: GPL-2.0
/*
 * Empty links across a crash.  The main boot's last steps are
 * crash_setup() for every filesystem in turn, then crash_late() for every
 * filesystem in turn:
 *
 *   crash_setup()  DIR/synced: persist_setup()'s links; DIR.made: the
 *                  record of every link (record.h), beside DIR so that
 *                  cleanup can still read it; then syncfs() of DIR's
 *                  filesystem, a full commit of that filesystem only
 *   crash_late()   DIR/fsynced/e, then fsync() of its directory: recovery
 *                  must replay it from the journal or log (btrfs: the log
 *                  tree); DIR/unsynced/e made last and never synced: after
 *                  the crash it may be there or not, but if it is, it must
 *                  read as ""
 *
 * and the guest reboots without syncing or unmounting.  A global sync()
 * anywhere in there would commit the unsynced links of every filesystem
 * set up before it; so setup syncs only its own filesystem, and nothing
 * is made to be left unsynced until every filesystem has been set up.
 * The next boot mounts the filesystem (log recovery) and runs
 * run_crash(); then the harness removes DIR, remounts, and runs
 * run_cleanup().
 *
 * crash_late() fills in its links' lines of DIR.made in place.  The
 * fsynced line is fsync()ed before unsynced/e exists.  The unsynced line
 * is written after the link and fdatasync()ed: it overwrites a block that
 * crash_setup() made durable, so it changes neither size nor allocation,
 * and fdatasync must commit no metadata.  ext4 waits only for the inode's
 * datasync transaction, long committed; xfs forces its log only for
 * fields other than timestamps logged since the last fsync (the fsync
 * before is also what clears them); btrfs logs only this inode, older
 * than the last commit, so not its parent.  The link stays unsynced.  If
 * that write is lost, the case observes setup:no-record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "suites.h"

CASE(CRASH, crash, fsynced_readlink, "\"\"", NEEDS_FSYNCED)
{
	char buf[64];

	obs_link(out, readlink("fsynced/e", buf, sizeof(buf)), buf);
}

CASE(CRASH, crash, fsynced_lstat, "lnk:0", NEEDS_FSYNCED)
{
	obs_lstat("fsynced/e", out);
}

/* "" or ENOENT are both right; tests/expected.txt says so, not this. */
CASE(CRASH, crash, unsynced_readlink, "\"\"", NEEDS_UNSYNCED)
{
	char buf[64];

	obs_link(out, readlink("unsynced/e", buf, sizeof(buf)), buf);
}

/* The links that were on disk when the crash directory was removed. */
#define NEEDS_DURABLE (NEEDS_E | NEEDS_MOVED | NEEDS_FSYNCED)

/* Removing a directory that held empty links leaves nothing behind. */
CASE(CLEANUP, cleanup, removed, "ENOENT", NEEDS_DURABLE)
{
	struct stat st;

	obs_rc(out, lstat(c->path, &st));
}

/* DIR.made: DIR without its trailing slashes, then ".made". */
static int made_path(const char *dir, char *buf, size_t size)
{
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (!len || (len == 1 && dir[0] == '/') ||
	    (size_t)snprintf(buf, size, "%.*s.made", (int)len, dir) >= size) {
		fprintf(stderr, "%s: no room for a record beside it\n", dir);
		return -1;
	}
	return 0;
}

/* fsync() of the directory at path; errno is that of the failing call. */
static int fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	int ret, err;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

/* DIR.made, absolute: DIR may be relative, and setup changes directory. */
static int made_abs(const char *dir, char *made, size_t size)
{
	char path[4096], cwd[2048];

	if (made_path(dir, path, sizeof(path)) < 0)
		return -1;
	if (path[0] == '/') {
		snprintf(made, size, "%s", path);
	} else if (!getcwd(cwd, sizeof(cwd)) ||
		   (size_t)snprintf(made, size, "%s/%s", cwd, path) >= size) {
		fprintf(stderr, "%s: cannot name its record\n", dir);
		return -1;
	}
	return 0;
}

/*
 * The record, durable with all else on DIR's filesystem, and no more.
 * fsync() first: on xfs it also clears the inode's logged fields that a
 * later fdatasync() would force the log for; syncfs() leaves them.
 */
static int write_made(const struct record *r, const char *made)
{
	int fd = open(made, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int err;

	if (fd < 0)
		return -1;
	if (record_write(r, fd) < 0 || fsync(fd) < 0 || syncfs(fd) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return close(fd);
}

int crash_setup(const char *dir)
{
	char path[4096], made[4096];
	struct record r;

	if (made_abs(dir, made, sizeof(made)) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/synced", dir);
	if (mkdir(dir, 0755) < 0) {
		perror(dir);
		return 1;
	}
	if (persist_make(path, &r) < 0)
		return 1;
	if (write_made(&r, made) < 0) {
		perror(made);
		return 1;
	}
	printf("# crash setup %s: synced, record %s\n", dir, made);
	return 0;
}

/* One link's line of the record, in place; not synced yet. */
static int update_made(struct record *r, int fd, enum link_id id, long rc,
		       int err)
{
	record_step(r, id, rc, err);
	return record_update(r, fd, id);
}

/* In DIR: fsynced/e, fsync()ed, then unsynced/e, never synced. */
static int make_late(const char *dir, int fd)
{
	struct record r;
	long rc;

	record_init(&r);
	if (mkdir("fsynced", 0755) < 0 || mkdir("unsynced", 0755) < 0)
		return -1;
	rc = symlink("", "fsynced/e");
	if (update_made(&r, fd, LINK_FSYNCED, rc, errno) < 0 ||
	    fsync_dir("fsynced") < 0 || fsync(fd) < 0)
		return -1;
	rc = symlink("", "unsynced/e");
	if (update_made(&r, fd, LINK_UNSYNCED, rc, errno) < 0 ||
	    fdatasync(fd) < 0)
		return -1;
	printf("# crash late %s: fsynced %s, unsynced %s\n", dir,
	       r.link[LINK_FSYNCED], r.link[LINK_UNSYNCED]);
	return 0;
}

int crash_late(const char *dir)
{
	char made[4096];
	int fd, ret = 0;

	if (made_abs(dir, made, sizeof(made)) < 0)
		return 1;
	/* No O_CREAT, no O_TRUNC: the blocks crash_setup() made durable. */
	fd = open(made, O_WRONLY);
	if (fd < 0) {
		perror(made);
		return 1;
	}
	if (chdir(dir) < 0 || make_late(dir, fd) < 0) {
		perror(dir);
		ret = 1;
	}
	if (close(fd) < 0 && !ret) {
		perror(made);
		ret = 1;
	}
	return chdir("/") < 0 ? 1 : ret;
}

/* The inodes made after the ffree record that still exist. */
static unsigned int count_later_inodes(const char *dir, const char *made)
{
	static const char *const later[] = {
		"fsynced", "fsynced/e", "unsynced", "unsynced/e",
	};
	char path[4096];
	unsigned int i, n = 0;
	struct stat st;

	for (i = 0; i < ARRAY_SIZE(later); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, later[i]);
		n += lstat(path, &st) == 0;
	}
	return n + (lstat(made, &st) == 0);
}

int run_crash(struct suite *s, const char *dir)
{
	struct ctx c = { .dfd = AT_FDCWD, .path = dir };
	const struct tcase **pv = NULL, **cv = NULL;
	struct record synced, made;
	char path[4096];
	unsigned int np, nc;
	int ret = 1;

	pv = cases_of(SUITE_PERSIST, &np);
	cv = cases_of(SUITE_CRASH, &nc);
	if (!pv || !cv) {
		ktap_abort(s, "out of memory");
		goto out;
	}
	if (!s->broken) {
		if (made_path(dir, path, sizeof(path)) < 0) {
			ktap_abort(s, "%s: no record path", dir);
			goto out;
		}
		record_read(&made, path);
		snprintf(path, sizeof(path), "%s/synced/record", dir);
		record_read(&synced, path);
		made_path(dir, path, sizeof(path));
		synced.extra_inodes = count_later_inodes(dir, path);
		if (chdir(dir) < 0 || chdir("synced") < 0) {
			ktap_abort(s, "%s/synced: %s", dir, strerror(errno));
			goto out;
		}
	}
	ktap_begin(s, np + nc);
	c.rec = &synced;
	run_recorded(s, pv, np, &c);
	if (!s->broken && chdir("..") < 0) {
		ktap_abort(s, "%s: %s", dir, strerror(errno));
		goto out;
	}
	c.rec = &made;
	run_recorded(s, cv, nc, &c);
	ret = ktap_end(s);
	if (chdir("/") < 0)
		ret = 1;
out:
	free(pv);
	free(cv);
	return ret;
}

int run_cleanup(struct suite *s, const char *dir)
{
	struct ctx c = { .dfd = AT_FDCWD, .path = dir };
	const struct tcase **v;
	char path[4096];
	struct record r;
	unsigned int n;

	v = cases_of(SUITE_CLEANUP, &n);
	if (!v)
		return ktap_abort(s, "out of memory");
	if (!s->broken) {
		record_init(&r);
		r.valid = 0;
		if (made_path(dir, path, sizeof(path)) == 0)
			record_read(&r, path);
		c.rec = &r;
	}
	ktap_begin(s, n);
	run_recorded(s, v, n, &c);
	free(v);
	return ktap_end(s);
}
