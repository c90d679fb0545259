// SPDX-License-Identifier: GPL-2.0
/*
 * configfs: a link there is between two config items, and its target is
 * resolved by get_target() with kern_path(), which takes "" for the
 * working directory (getname_kernel() does not refuse an empty name).
 * So an empty target, if it ever reached configfs_symlink(), would link
 * to whatever item the caller stands in.  configfs has not opted in
 * (SB_I_EMPTY_SYMLINKS), so vfs_symlink() must refuse it before that.
 *
 * The items are the NVMe target's (nvmet): a host and a subsystem, whose
 * allowed_hosts directory takes links to hosts.  Every case runs with
 * the host's item as the working directory: there an empty target
 * would name a host that allowed_hosts accepts.  The cases run in order
 * on the same items (link, read it, refuse "", find nothing, unlink).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suites.h"

#define HOST "nvmet/hosts/emptylink-host"
#define SUBSYS "nvmet/subsystems/emptylink-subsys"
#define ALLOWED SUBSYS "/allowed_hosts"

/* ROOT/rel, in buf; ctx->path is the configfs mount point. */
static const char *at(const struct ctx *c, char *buf, size_t size,
		      const char *rel)
{
	snprintf(buf, size, "%s/%s", c->path, rel);
	return buf;
}

/* The control: a link between two items, made the usual way. */
CASE(ITEMS, items, link, "ok", 0)
{
	char t[4096], l[4096];

	obs_rc(out, symlink(at(c, t, sizeof(t), HOST),
			    at(c, l, sizeof(l), ALLOWED "/host")));
}

/*
 * configfs stores no body: readlink() builds a path relative to the
 * link's directory from the items (configfs_get_target_path(): one
 * "../" per item from allowed_hosts up to the root, four, then the
 * target's items).
 */
CASE(ITEMS, items, readlink, "\"../../../../" HOST "\"", 0)
{
	char l[4096], buf[256];

	obs_link(out, readlink(at(c, l, sizeof(l), ALLOWED "/host"), buf,
			       sizeof(buf)), buf);
}

CASE(ITEMS, items, empty, "ENOENT", 0)
{
	char l[4096];

	obs_rc(out, symlink("", at(c, l, sizeof(l), ALLOWED "/e")));
}

CASE(ITEMS, items, empty_at, "ENOENT", 0)
{
	char d[4096];
	int fd = open(at(c, d, sizeof(d), ALLOWED), O_RDONLY | O_DIRECTORY);

	if (fd < 0) {
		obs_setup(out, errno);
		return;
	}
	obs_rc(out, symlinkat("", fd, "e"));
	close(fd);
}

/* Nothing was made, least of all a link to the working directory. */
CASE(ITEMS, items, empty_left_nothing, "ENOENT", 0)
{
	char l[4096];

	obs_lstat(at(c, l, sizeof(l), ALLOWED "/e"), out);
}

CASE(ITEMS, items, unlink, "ok", 0)
{
	char l[4096];

	obs_rc(out, unlink(at(c, l, sizeof(l), ALLOWED "/host")));
}

static int make_items(const char *root)
{
	static const char *const dirs[] = { HOST, SUBSYS };
	char path[4096];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			printf("    # cannot make %s: %s\n", path,
			       strerror(errno));
			return -1;
		}
	}
	snprintf(path, sizeof(path), "%s/%s", root, HOST);
	return chdir(path);
}

/* Links first: an item with a link to it cannot be removed. */
static void remove_items(const char *root)
{
	static const char *const dirs[] = { SUBSYS, HOST };
	char path[4096];
	size_t i;

	snprintf(path, sizeof(path), "%s/%s/host", root, ALLOWED);
	unlink(path);
	if (chdir("/") < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		rmdir(path);
	}
}

int run_items(struct suite *s, const char *root)
{
	struct ctx c = { .dfd = AT_FDCWD, .path = root };
	int ret;

	if (!s->broken && make_items(root) < 0)
		s->broken = "items";
	ret = run_in_order(s, SUITE_ITEMS, &c);
	remove_items(root);
	return ret;
}
