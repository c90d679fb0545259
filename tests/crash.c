// SPDX-License-Identifier: GPL-2.0
/*
 * Empty links across a crash.  crash_setup() runs last in the first boot:
 *
 *   DIR/synced     persist_setup()'s links, then sync(): a full commit
 *   DIR/fsynced/e  made after that sync, then fsync() of its directory:
 *                  recovery must replay it from the journal or log
 *                  (btrfs: the log tree)
 *   DIR/unsynced/e made last and never synced: after the crash it may be
 *                  there or not, but if it is, it must read as ""
 *   DIR.made       the record of every link above (record.h), beside
 *                  DIR so that cleanup can still read it
 *
 * and the guest reboots without syncing or unmounting.  The next boot
 * mounts the filesystem (log recovery) and runs run_crash(); then the
 * harness removes DIR, remounts, and runs run_cleanup().
 *
 * DIR.made is written and fsync()ed before unsynced/e is made, so that
 * syncing it does not sync the link; the link's outcome is then written
 * over its slot in place and fdatasync()ed: an overwrite of blocks that
 * are already on disk changes no metadata that fdatasync must commit, so
 * the journal (ext4) or log (xfs) is not forced and the link stays
 * unsynced.  If that write is lost, the case observes setup:no-record.
 */
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

/* The parent directory of path, for fsync_dir(). */
static void parent_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, size, ".");
	else if (slash == path)
		snprintf(buf, size, "/");
	else
		snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

/* In DIR, after the sync: fsynced/e, fsync()ed, and unsynced/ (empty). */
static int make_fsynced(struct record *r)
{
	long rc;

	if (mkdir("fsynced", 0755) < 0 || mkdir("unsynced", 0755) < 0)
		return -1;
	rc = symlink("", "fsynced/e");
	record_step(r, LINK_FSYNCED, rc, errno);
	return fsync_dir("fsynced");
}

/* The record, on disk before unsynced/e exists; then that link. */
static int make_unsynced(struct record *r, const char *made)
{
	char parent[4096];
	long rc;
	int fd, err;

	parent_of(made, parent, sizeof(parent));
	fd = open(made, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (record_write(r, fd) < 0 || fsync(fd) < 0 || fsync_dir(parent) < 0)
		goto fail;
	rc = symlink("", "unsynced/e");
	record_step(r, LINK_UNSYNCED, rc, errno);
	if (record_update(r, fd, LINK_UNSYNCED) < 0)
		goto fail;
	return close(fd);
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

int crash_setup(const char *dir)
{
	char path[4096], made[4096], cwd[2048];
	struct record r;

	if (made_path(dir, path, sizeof(path)) < 0)
		return 1;
	/* DIR may be relative: DIR.made is made absolute before chdir. */
	if (path[0] == '/') {
		snprintf(made, sizeof(made), "%s", path);
	} else if (!getcwd(cwd, sizeof(cwd)) ||
		   snprintf(made, sizeof(made), "%s/%s", cwd, path) >=
		   (int)sizeof(made)) {
		fprintf(stderr, "%s: cannot name its record\n", dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/synced", dir);
	if (mkdir(dir, 0755) < 0) {
		perror(dir);
		return 1;
	}
	if (persist_make(path, &r) < 0)
		return 1;
	sync();
	if (chdir(dir) < 0 || make_fsynced(&r) < 0 ||
	    make_unsynced(&r, made) < 0) {
		perror(dir);
		return 1;
	}
	printf("# crash setup %s: fsynced %s, unsynced %s\n", dir,
	       r.link[LINK_FSYNCED], r.link[LINK_UNSYNCED]);
	return chdir("/") < 0 ? 1 : 0;
}

/* The inodes crash_setup() made after the ffree record that still exist. */
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
