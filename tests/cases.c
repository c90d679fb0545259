// SPDX-License-Identifier: GPL-2.0
/*
 * The test table: what an empty symlink must do on every filesystem.
 *
 * Each case runs in a fresh directory that is also the working directory.
 * Cases with NEEDS_EMPTY find an empty link "e" there, made by
 * symlink("", "e") on a scratch filesystem or hard-linked from a link on a
 * prebuilt image (so a kernel that cannot create one still gets to follow
 * one).  A case reports what it saw; it never decides pass or fail itself.
 * The order of the declarations is the order of the matrix's rows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
#include "uring.h"

/* Creating */

CASE(TABLE, create, symlink, "ok", 0)
{
	obs_rc(out, symlink("", "n"));
}

CASE(TABLE, create, symlinkat, "ok", 0)
{
	obs_rc(out, symlinkat("", c->dfd, "n"));
}

CASE(TABLE, create, io_uring, "ok", 0)
{
	obs_rc(out, uring_symlinkat("", c->dfd, "n"));
}

CASE(TABLE, create, empty_name, "ENOENT", 0)
{
	obs_rc(out, symlink("x", ""));
}

CASE(TABLE, create, io_uring_empty_name, "ENOENT", 0)
{
	obs_rc(out, uring_symlinkat("x", c->dfd, ""));
}

/*
 * What symlink("") answers is what it did: "ok" with a link of size 0
 * left, or an error with nothing left (a refusal must not make the link
 * anyway, as a server answering for a filesystem below might).  Anything
 * else is "ANSWER+left:WHAT".
 */
CASE(TABLE, create, answer_matches, "ok", 0)
{
	char left[OBS_LEN];
	int rc = symlink("", "n"), err = errno;

	obs_lstat("n", left);
	if (rc == 0 && !strcmp(left, "lnk:0"))
		obs_rc(out, 0);
	else if (rc < 0 && !strcmp(left, "ENOENT"))
		obs_err(out, rc, err);
	else
		snprintf(out, OBS_LEN, "%s+left:%.40s",
			 rc < 0 ? errno_name(err) : "ok", left);
}

CASE(TABLE, create, exists, "EEXIST", NEEDS_EMPTY)
{
	obs_rc(out, symlink("", "e"));
}

/* Reading the link itself */

CASE(TABLE, read, readlink, "\"\"", NEEDS_EMPTY)
{
	char buf[64];

	obs_link(out, readlink("e", buf, sizeof(buf)), buf);
}

CASE(TABLE, read, readlinkat, "\"\"", NEEDS_EMPTY)
{
	char buf[64];

	obs_link(out, readlinkat(c->dfd, "e", buf, sizeof(buf)), buf);
}

CASE(TABLE, read, readlink_opath, "\"\"", NEEDS_EMPTY)
{
	char buf[64];
	int fd = open("e", O_PATH | O_NOFOLLOW);

	if (fd < 0) {
		obs_rc(out, fd);
		return;
	}
	obs_link(out, readlinkat(fd, "", buf, sizeof(buf)), buf);
	close(fd);
}

CASE(TABLE, read, lstat, "lnk:0", NEEDS_EMPTY)
{
	obs_lstat("e", out);
}

CASE(TABLE, read, statx, "lnk:0", NEEDS_EMPTY)
{
	struct statx stx;

	if (statx(c->dfd, "e", AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_SIZE,
		  &stx) < 0)
		obs_rc(out, -1);
	else
		obs_type_size(out, stx.stx_mode, stx.stx_size);
}

/* Following it: one answer, ENOENT, whatever the path walk does */

static void open_type(int dfd, const char *path, int flags, char *out)
{
	int fd = openat(dfd, path, flags, 0644);

	if (fd < 0) {
		obs_rc(out, fd);
		return;
	}
	obs_fd_type(out, fd);
	close(fd);
}

CASE(TABLE, follow, stat, "ENOENT", NEEDS_EMPTY)
{
	obs_stat_type("e", out);
}

CASE(TABLE, follow, open, "ENOENT", NEEDS_EMPTY)
{
	open_type(c->dfd, "e", O_RDONLY, out);
}

CASE(TABLE, follow, open_creat, "ENOENT", NEEDS_EMPTY)
{
	open_type(c->dfd, "e", O_WRONLY | O_CREAT, out);
}

CASE(TABLE, follow, open_excl, "EEXIST", NEEDS_EMPTY)
{
	open_type(c->dfd, "e", O_WRONLY | O_CREAT | O_EXCL, out);
}

CASE(TABLE, follow, opendir, "ENOENT", NEEDS_EMPTY)
{
	open_type(c->dfd, "e", O_RDONLY | O_DIRECTORY, out);
}

CASE(TABLE, follow, mkdir, "EEXIST", NEEDS_EMPTY)
{
	obs_rc(out, mkdir("e", 0755));
}

CASE(TABLE, follow, chdir, "ENOENT", NEEDS_EMPTY)
{
	obs_rc(out, chdir("e"));
	if (fchdir(c->dfd) < 0)
		snprintf(out, OBS_LEN, "fchdir:%s", errno_name(errno));
}

CASE(TABLE, follow, execve, "ENOENT", NEEDS_EMPTY)
{
	static char *const argv[] = { "e", NULL }, *const envp[] = { NULL };
	int pfd[2], err = 0, status;
	ssize_t n;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0) {
		obs_rc(out, -1);
		return;
	}
	pid = fork();
	if (pid < 0) {
		obs_rc(out, -1);
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (pid == 0) {
		execve("./e", argv, envp);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], &err, sizeof(err));
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (n == sizeof(err))
		snprintf(out, OBS_LEN, "%s", errno_name(err));
	else
		snprintf(out, OBS_LEN, "executed");
}

CASE(TABLE, follow, access, "ENOENT", NEEDS_EMPTY)
{
	obs_rc(out, access("e", F_OK));
}

CASE(TABLE, follow, truncate, "ENOENT", NEEDS_EMPTY)
{
	obs_rc(out, truncate("e", 0));
}

/* "x" exists beside the link, so a walk that treats "e" as "." finds it. */
CASE(TABLE, follow, intermediate, "ENOENT", NEEDS_EMPTY)
{
	int fd = open("x", O_WRONLY | O_CREAT, 0644);

	if (fd < 0) {
		obs_setup(out, errno);
		return;
	}
	close(fd);
	obs_stat_type("e/x", out);
}

CASE(TABLE, follow, trailing_slash, "ENOENT", NEEDS_EMPTY)
{
	obs_stat_type("e/", out);
}

CASE(TABLE, follow, o_nofollow, "ELOOP", NEEDS_EMPTY)
{
	open_type(c->dfd, "e", O_RDONLY | O_NOFOLLOW, out);
}

CASE(TABLE, follow, o_path_nofollow, "lnk", NEEDS_EMPTY)
{
	open_type(c->dfd, "e", O_PATH | O_NOFOLLOW, out);
}

static void openat2_type(int dfd, __u64 resolve, char *out)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = resolve };
	long fd = syscall(SYS_openat2, dfd, "e", &how, sizeof(how));

	if (fd < 0) {
		obs_rc(out, fd);
		return;
	}
	obs_fd_type(out, fd);
	close(fd);
}

CASE(TABLE, follow, resolve_no_symlinks, "ELOOP", NEEDS_EMPTY)
{
	openat2_type(c->dfd, RESOLVE_NO_SYMLINKS, out);
}

CASE(TABLE, follow, resolve_beneath, "ENOENT", NEEDS_EMPTY)
{
	openat2_type(c->dfd, RESOLVE_BENEATH, out);
}

CASE(TABLE, follow, resolve_in_root, "ENOENT", NEEDS_EMPTY)
{
	openat2_type(c->dfd, RESOLVE_IN_ROOT, out);
}

CASE(TABLE, follow, linkat_follow, "ENOENT", NEEDS_EMPTY)
{
	obs_rc(out, linkat(c->dfd, "e", c->dfd, "h", AT_SYMLINK_FOLLOW));
}

/* Working on the link itself */

CASE(TABLE, self, unlink, "ok", NEEDS_EMPTY)
{
	struct stat st;

	if (unlink("e") < 0)
		obs_rc(out, -1);
	else if (lstat("e", &st) == 0)
		snprintf(out, OBS_LEN, "still-there");
	else
		snprintf(out, OBS_LEN, "ok");
}

/* Rename "e" to "to" and report the bytes now found at "to". */
static void rename_and_read(const char *to, char *out)
{
	char buf[64];

	if (rename("e", to) < 0)
		obs_rc(out, -1);
	else
		obs_link(out, readlink(to, buf, sizeof(buf)), buf);
}

CASE(TABLE, self, rename_over_file, "\"\"", NEEDS_EMPTY)
{
	int fd = open("f", O_WRONLY | O_CREAT, 0644);

	if (fd < 0) {
		obs_setup(out, errno);
		return;
	}
	close(fd);
	rename_and_read("f", out);
}

CASE(TABLE, self, rename_over_link, "\"\"", NEEDS_EMPTY)
{
	if (symlink("target", "l") < 0) {
		obs_setup(out, errno);
		return;
	}
	rename_and_read("l", out);
}

CASE(TABLE, self, rename_to_subdir, "\"\"", NEEDS_EMPTY)
{
	if (mkdir("sub", 0755) < 0) {
		obs_setup(out, errno);
		return;
	}
	rename_and_read("sub/e", out);
}

CASE(TABLE, self, link, "lnk:0", NEEDS_EMPTY)
{
	struct stat st;

	if (link("e", "h") < 0 || lstat("h", &st) < 0)
		obs_rc(out, -1);
	else if (st.st_nlink < 2)
		snprintf(out, OBS_LEN, "nlink=%lu", (unsigned long)st.st_nlink);
	else
		obs_type_size(out, st.st_mode, st.st_size);
}

CASE(TABLE, self, lchown, "ok", NEEDS_EMPTY)
{
	struct stat st;

	if (lchown("e", 1234, 1235) < 0 || lstat("e", &st) < 0)
		obs_rc(out, -1);
	else if (st.st_uid != 1234 || st.st_gid != 1235)
		snprintf(out, OBS_LEN, "owner=%u:%u", st.st_uid, st.st_gid);
	else
		snprintf(out, OBS_LEN, "ok");
}

CASE(TABLE, self, utimensat_nofollow, "ok", NEEDS_EMPTY)
{
	const struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	struct stat st;

	if (utimensat(c->dfd, "e", ts, AT_SYMLINK_NOFOLLOW) < 0 ||
	    lstat("e", &st) < 0)
		obs_rc(out, -1);
	else if (st.st_mtim.tv_sec != ts[1].tv_sec)
		snprintf(out, OBS_LEN, "mtime=%lld", (long long)st.st_mtim.tv_sec);
	else
		snprintf(out, OBS_LEN, "ok");
}

/* Controls: ordinary links, so a broken harness or walk shows */

CASE(TABLE, ctl, normal_stat, "reg", 0)
{
	int fd = open("t", O_WRONLY | O_CREAT, 0644);

	if (fd < 0) {
		obs_setup(out, errno);
		return;
	}
	close(fd);
	if (symlink("t", "n") < 0) {
		obs_setup(out, errno);
		return;
	}
	obs_stat_type("n", out);
}

CASE(TABLE, ctl, normal_readlink, "\"target\"", 0)
{
	char buf[64];

	if (symlink("target", "n") < 0) {
		obs_setup(out, errno);
		return;
	}
	obs_link(out, readlink("n", buf, sizeof(buf)), buf);
}

/* 400 bytes: out of the inode on every filesystem (remote on xfs). */
CASE(TABLE, ctl, long_readlink, "x*400", 0)
{
	char body[401], buf[512];

	memset(body, 'x', 400);
	body[400] = '\0';
	if (symlink(body, "n") < 0) {
		obs_setup(out, errno);
		return;
	}
	obs_link(out, readlink("n", buf, sizeof(buf)), buf);
}

CASE(TABLE, ctl, dangling_stat, "ENOENT", 0)
{
	if (symlink("missing", "d") < 0) {
		obs_setup(out, errno);
		return;
	}
	obs_stat_type("d", out);
}

/* O_CREAT through a dangling link creates its target: the link was followed. */
CASE(TABLE, ctl, dangling_creat, "reg", 0)
{
	if (symlink("missing", "d") < 0) {
		obs_setup(out, errno);
		return;
	}
	open_type(c->dfd, "d", O_WRONLY | O_CREAT, out);
	if (!strcmp(out, "reg") && access("missing", F_OK) < 0)
		snprintf(out, OBS_LEN, "no-target");
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A body of only slashes is the one legitimate "pure jump". */
CASE(TABLE, ctl, slashes_to_root, "root", 0)
{
	if (symlink("//", "r") < 0) {
		obs_setup(out, errno);
		return;
	}
	snprintf(out, OBS_LEN, "%s", same_file("r", "/") ? "root" : "not-root");
}

/* nd_jump_link() magic links return no body at all and must still jump. */
CASE(TABLE, ctl, magic_link, "cwd", 0)
{
	snprintf(out, OBS_LEN, "%s",
		 same_file("/proc/self/cwd", ".") ? "cwd" : "not-cwd");
}

CASE(TABLE, ctl, empty_pathname, "ENOENT", 0)
{
	obs_stat_type("", out);
}

/* The mission says stat("") is ENOENT; claiming "ok" must show as a failure. */
CASE(SELFTEST, selftest, must_fail, "ok", 0)
{
	obs_stat_type("", out);
}
