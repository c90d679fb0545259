// SPDX-License-Identifier: GPL-2.0
/*
 * Does an empty link survive the trip to disk?  persist_setup() runs
 * before the guest unmounts a scratch filesystem: it leaves an empty link,
 * one renamed into a subdirectory, and one created and unlinked, and
 * records the free inode count from just before that last one was made.
 * run_persist() runs after the mount (and again after drop_caches) and
 * reads them back from disk.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "observe.h"
#include "suites.h"

/* Every step is tried even if an earlier one failed: verify says which. */
int persist_setup(const char *dir)
{
	struct statvfs sv;
	FILE *rec;

	if ((mkdir(dir, 0755) < 0 && errno != EEXIST) || chdir(dir) < 0 ||
	    (mkdir("sub", 0755) < 0 && errno != EEXIST)) {
		perror(dir);
		return 2;
	}
	rec = fopen("ffree", "w");
	if (!rec) {
		perror("ffree");
		return 2;
	}
	if (symlink("", "e") < 0)
		printf("# persist setup: symlink e: %s\n", errno_name(errno));
	if (symlink("", "moved") < 0 || rename("moved", "sub/moved") < 0)
		printf("# persist setup: moved: %s\n", errno_name(errno));
	if (statvfs(".", &sv) < 0) {
		perror("statvfs");
		return 2;
	}
	if (symlink("", "gone") < 0 || unlink("gone") < 0)
		printf("# persist setup: gone: %s\n", errno_name(errno));
	fprintf(rec, "%llu\n", (unsigned long long)sv.f_ffree);
	if (fclose(rec) || chdir("/") < 0)
		return 2;
	return 0;
}

/* Inodes made after the record on purpose (crash.c's later links). */
static unsigned int extra_inodes;

void persist_extra_inodes(unsigned int n)
{
	extra_inodes = n;
}

static void obs_ffree(char *out)
{
	unsigned long long before;
	struct statvfs sv;
	FILE *rec = fopen("ffree", "r");

	if (!rec || fscanf(rec, "%llu", &before) != 1) {
		snprintf(out, OBS_LEN, "setup:no-record");
		if (rec)
			fclose(rec);
		return;
	}
	fclose(rec);
	if (statvfs(".", &sv) < 0)
		obs_rc(out, -1);
	else if (sv.f_files == 0)
		snprintf(out, OBS_LEN, "n/a");
	else if (sv.f_ffree + extra_inodes == before)
		snprintf(out, OBS_LEN, "ok");
	else
		snprintf(out, OBS_LEN, "ffree%+lld",
			 (long long)sv.f_ffree + extra_inodes - (long long)before);
}

/* The cases, in order; each reads what persist_setup() left. */
static void persist_case(int i, char *out)
{
	char buf[64];
	struct stat st;

	switch (i) {
	case 0:
		obs_link(out, readlink("e", buf, sizeof(buf)), buf);
		break;
	case 1:
		obs_lstat("e", out);
		break;
	case 2:
		obs_rc(out, stat("e", &st));
		break;
	case 3:
		obs_link(out, readlink("sub/moved", buf, sizeof(buf)), buf);
		break;
	case 4:
		obs_rc(out, lstat("moved", &st));
		break;
	case 5:
		obs_rc(out, lstat("gone", &st));
		break;
	default:
		obs_ffree(out);
	}
}

static const struct {
	const char *name, *want;
} persist_cases[] = {
	{ "persist.readlink", "\"\"" },
	{ "persist.lstat", "lnk:0" },
	{ "persist.follow", "ENOENT" },
	{ "persist.renamed", "\"\"" },
	{ "persist.old_name_gone", "ENOENT" },
	{ "persist.unlinked_gone", "ENOENT" },
	{ "persist.inode_freed", "ok" },
};

unsigned int persist_count(void)
{
	return ARRAY_SIZE(persist_cases);
}

void persist_report(struct suite *s)
{
	char observed[OBS_LEN];
	unsigned int i;

	for (i = 0; i < persist_count(); i++) {
		if (!s->broken)
			persist_case(i, observed);
		ktap_case(s, persist_cases[i].name, persist_cases[i].want,
			  observed);
	}
}

int run_persist(struct suite *s, const char *dir)
{
	if (!s->broken && chdir(dir) < 0) {
		printf("not ok %d %s.%s # %s: %s\n", s->index, s->w.fs,
		       s->w.source, dir, strerror(errno));
		return 2;
	}
	ktap_begin(s, persist_count());
	persist_report(s);
	if (chdir("/") < 0)
		return 2;
	return ktap_end(s);
}
