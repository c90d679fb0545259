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
 *
 * and the guest reboots without syncing or unmounting.  The next boot
 * mounts the filesystem (log recovery) and runs run_crash().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "observe.h"
#include "suites.h"

static int make_in(const char *sub, int do_fsync)
{
	int fd;

	if (mkdir(sub, 0755) < 0 || chdir(sub) < 0)
		return -1;
	if (symlink("", "e") < 0)
		printf("# crash setup: %s/e: %s\n", sub, errno_name(errno));
	if (do_fsync) {
		fd = open(".", O_RDONLY | O_DIRECTORY);
		if (fd < 0 || fsync(fd) < 0)
			return -1;
		close(fd);
	}
	return chdir("..");
}

int crash_setup(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/synced", dir);
	if (mkdir(dir, 0755) < 0 || persist_setup(path))
		return 2;
	sync();
	if (chdir(dir) < 0 || make_in("fsynced", 1) < 0 ||
	    make_in("unsynced", 0) < 0) {
		perror(dir);
		return 2;
	}
	return 0;
}

/* The inodes crash_setup() made after the ffree record that still exist. */
static unsigned int count_later_inodes(void)
{
	static const char *const later[] = {
		"../fsynced", "../fsynced/e", "../unsynced", "../unsynced/e",
	};
	unsigned int i, n = 0;
	struct stat st;

	for (i = 0; i < ARRAY_SIZE(later); i++)
		n += lstat(later[i], &st) == 0;
	return n;
}

int run_crash(struct suite *s, const char *dir)
{
	char observed[OBS_LEN], buf[64];
	long len;

	if (!s->broken && (chdir(dir) < 0 || chdir("synced") < 0)) {
		printf("not ok %d %s.%s # %s/synced: %s\n", s->index, s->w.fs,
		       s->w.source, dir, strerror(errno));
		return 2;
	}
	ktap_begin(s, persist_count() + 3);
	if (!s->broken)
		persist_extra_inodes(count_later_inodes());
	persist_report(s);
	if (!s->broken && chdir("..") < 0)
		return 2;

	if (!s->broken)
		obs_link(observed, readlink("fsynced/e", buf, sizeof(buf)), buf);
	ktap_case(s, "crash.fsynced_readlink", "\"\"", observed);
	if (!s->broken)
		obs_lstat("fsynced/e", observed);
	ktap_case(s, "crash.fsynced_lstat", "lnk:0", observed);

	/* Either outcome of an unsynced create is fine; anything else is not. */
	if (!s->broken) {
		len = readlink("unsynced/e", buf, sizeof(buf));
		if (len == 0 || (len < 0 && errno == ENOENT))
			snprintf(observed, OBS_LEN, "ok");
		else
			obs_link(observed, len, buf);
	}
	ktap_case(s, "crash.unsynced_absent_or_empty", "ok", observed);
	if (chdir("/") < 0)
		return 2;
	return ktap_end(s);
}

int run_cleanup(struct suite *s, const char *dir)
{
	char observed[OBS_LEN];
	struct stat st;

	ktap_begin(s, 1);
	if (!s->broken)
		obs_rc(observed, lstat(dir, &st));
	ktap_case(s, "cleanup.removed", "ENOENT", observed);
	return ktap_end(s);
}
