// SPDX-License-Identifier: GPL-2.0
/*
 * Does an empty link survive the trip to disk?  persist_setup() runs
 * before the guest unmounts a scratch filesystem: it leaves an empty link
 * "e", one renamed into a subdirectory ("moved"), one created and
 * unlinked ("gone"), and MANY in a directory of their own ("many"), and
 * writes DIR/record: how each of those steps went and the free inode
 * count from just before "gone" was made.  The cases
 * run after the mount (and again after drop_caches) and read them back;
 * a case about a link whose setup failed observes "setup:ERRNO", so a
 * kernel that never made the link cannot pass by finding nothing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "record.h"
#include "suites.h"

#define RECORD "record"

/*
 * Made in one go after a syncfs(), MANY links take a directory past its
 * inline or first-block form on most filesystems.  On jffs2 over NAND,
 * each writes a 68-byte inode node without data and a 48-byte dirent
 * node (a 5-byte name); 116 and the 2 KiB page have only 4 in common, so
 * after a page-aligned start the end of link 123's inode node, and of
 * one in every 512 after it, falls on a page boundary: reading it back
 * reads zero bytes at the start of a page (docs/filesystems.md, jffs2).
 */
#define MANY 1024
#define MANY_NAME "p%04u"

CASE(PERSIST, persist, readlink, "\"\"", NEEDS_E)
{
	char buf[64];

	obs_link(out, readlink("e", buf, sizeof(buf)), buf);
}

CASE(PERSIST, persist, lstat, "lnk:0", NEEDS_E)
{
	obs_lstat("e", out);
}

CASE(PERSIST, persist, follow, "ENOENT", NEEDS_E)
{
	struct stat st;

	obs_rc(out, stat("e", &st));
}

CASE(PERSIST, persist, renamed, "\"\"", NEEDS_MOVED)
{
	char buf[64];

	obs_link(out, readlink("sub/moved", buf, sizeof(buf)), buf);
}

CASE(PERSIST, persist, old_name_gone, "ENOENT", NEEDS_MOVED)
{
	struct stat st;

	obs_rc(out, lstat("moved", &st));
}

CASE(PERSIST, persist, unlinked_gone, "ENOENT", NEEDS_GONE)
{
	struct stat st;

	obs_rc(out, lstat("gone", &st));
}

/*
 * Each of the MANY links reads back as "" (the first that does not
 * says what it gives), and "many" holds nothing else.
 */
CASE(PERSIST, persist, many, "ok", NEEDS_MANY)
{
	char path[32], buf[64], got[OBS_LEN];
	struct dirent *de;
	unsigned int i, n = 0;
	long len;
	DIR *d;

	for (i = 0; i < MANY; i++) {
		snprintf(path, sizeof(path), "many/" MANY_NAME, i);
		len = readlink(path, buf, sizeof(buf));
		if (len != 0) {
			obs_link(got, len, buf);
			snprintf(out, OBS_LEN, MANY_NAME ":%.50s", i % 10000, got);
			return;
		}
	}
	d = opendir("many");
	if (!d) {
		obs_rc(out, -1);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	if (n != MANY)
		snprintf(out, OBS_LEN, "entries:%u", n);
	else
		snprintf(out, OBS_LEN, "ok");
}

/*
 * The type of the filesystem mounted at "." as mountinfo names it.
 * statfs' f_type cannot say: 9p passes on the server's, the type of
 * the host filesystem it exports.
 */
static int cwd_fstype(char type[64])
{
	unsigned int maj, min;
	char line[4096], *sep;
	struct stat st;
	FILE *f;
	int ret = -1;

	if (stat(".", &st) < 0)
		return -1;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*d %*d %u:%u", &maj, &min) != 2 ||
		    makedev(maj, min) != st.st_dev)
			continue;
		sep = strstr(line, " - ");
		if (sep && sscanf(sep, " - %63s", type) == 1)
			ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * Filesystems whose statfs f_ffree is not a count of free inodes: udf
 * (f_ffree = f_bfree), f2fs (capped by the free blocks), nilfs2 (free
 * slots of the inode file as its last checkpoint sized it), 9p (the
 * server's host filesystem, which every host process changes).
 */
static int ffree_is_estimate(void)
{
	static const char *const estimate[] = { "udf", "f2fs", "nilfs2", "9p" };
	char type[64];
	unsigned int i;

	if (cwd_fstype(type) < 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(estimate); i++)
		if (!strcmp(type, estimate[i]))
			return 1;
	return 0;
}

/* Unlinking "gone" must have given its inode back. */
CASE(PERSIST, persist, inode_freed, "ok", NEEDS_GONE)
{
	const struct record *r = c->rec;
	struct statvfs sv;

	if (!r->has_ffree)
		snprintf(out, OBS_LEN, "setup:no-record");
	else if (statvfs(".", &sv) < 0)
		obs_rc(out, -1);
	else if (sv.f_files == 0)
		obs_skip(out, "statfs f_files is 0");
	else if (ffree_is_estimate())
		obs_skip(out, "statfs f_ffree is an estimate here");
	else if (sv.f_ffree + r->extra_inodes == r->ffree)
		snprintf(out, OBS_LEN, "ok");
	else
		snprintf(out, OBS_LEN, "ffree%+lld",
			 (long long)sv.f_ffree + r->extra_inodes -
			 (long long)r->ffree);
}

void run_recorded(struct suite *s, const struct tcase **v, unsigned int n,
		  const struct ctx *base)
{
	char observed[OBS_LEN];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(observed, sizeof(observed), "?");
		if (!s->broken &&
		    record_check(base->rec, v[i]->needs, observed) == 0)
			v[i]->run(base, observed);
		ktap_case(s, v[i]->name, v[i]->want, observed);
	}
}

/* The MANY links of "many"; -1 with errno set at the first that failed. */
static long make_many(void)
{
	char name[16];
	unsigned int i;
	int dfd, err;

	if (mkdir("many", 0755) < 0 && errno != EEXIST)
		return -1;
	dfd = open("many", O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return -1;
	if (syncfs(dfd) < 0)
		goto fail;
	for (i = 0; i < MANY; i++) {
		snprintf(name, sizeof(name), MANY_NAME, i);
		if (symlinkat("", dfd, name) < 0)
			goto fail;
	}
	return close(dfd);
fail:
	err = errno;
	close(dfd);
	errno = err;
	return -1;
}

/* Every step is tried even if an earlier one failed: the record says. */
int persist_make(const char *dir, struct record *r)
{
	struct statvfs sv;
	long rc;
	int fd;

	record_init(r);
	if ((mkdir(dir, 0755) < 0 && errno != EEXIST) || chdir(dir) < 0 ||
	    (mkdir("sub", 0755) < 0 && errno != EEXIST)) {
		perror(dir);
		return -1;
	}
	/* Made first, so that its inode is in the count already. */
	fd = open(RECORD, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(RECORD);
		return -1;
	}
	/* errno is read only once the call has returned. */
	rc = symlink("", "e");
	record_step(r, LINK_E, rc, errno);
	rc = symlink("", "moved");
	if (rc == 0)
		rc = rename("moved", "sub/moved");
	record_step(r, LINK_MOVED, rc, errno);
	rc = make_many();
	record_step(r, LINK_MANY, rc, errno);
	if (statvfs(".", &sv) < 0) {
		perror("statvfs");
		close(fd);
		return -1;
	}
	r->has_ffree = 1;
	r->ffree = sv.f_ffree;
	rc = symlink("", "gone");
	if (rc == 0)
		rc = unlink("gone");
	record_step(r, LINK_GONE, rc, errno);
	if (record_write(r, fd) < 0) {
		perror(RECORD);
		close(fd);
		return -1;
	}
	if (close(fd) < 0 || chdir("/") < 0) {
		perror(dir);
		return -1;
	}
	printf("# persist setup %s: e %s, moved %s, gone %s, many %s\n", dir,
	       r->link[LINK_E], r->link[LINK_MOVED], r->link[LINK_GONE],
	       r->link[LINK_MANY]);
	return 0;
}

int persist_setup(const char *dir)
{
	struct record r;

	return persist_make(dir, &r) < 0 ? 1 : 0;
}

int run_persist(struct suite *s, const char *dir)
{
	struct ctx c = { .dfd = AT_FDCWD, .path = dir };
	char path[4096];
	struct record r;
	const struct tcase **v;
	unsigned int n;
	int ret = 0;

	v = cases_of(SUITE_PERSIST, &n);
	if (!v)
		return ktap_abort(s, "out of memory");
	if (!s->broken) {
		snprintf(path, sizeof(path), "%s/" RECORD, dir);
		record_read(&r, path);
		c.rec = &r;
		if (chdir(dir) < 0) {
			ret = ktap_abort(s, "%s: %s", dir, strerror(errno));
			goto out;
		}
	}
	ktap_begin(s, n);
	run_recorded(s, v, n, &c);
	ret = ktap_end(s);
	if (chdir("/") < 0)
		ret = 1;
out:
	free(v);
	return ret;
}
