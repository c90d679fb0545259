// SPDX-License-Identifier: GPL-2.0
/*
 * The test table: what an empty symlink must do on every filesystem.
 *
 * Each case runs in a fresh directory that is also the working directory.
 * Cases with NEEDS_EMPTY find an empty link "e" there, made by
 * symlink("", "e") on a scratch filesystem or hard-linked from a link on a
 * prebuilt image (so a kernel that cannot create one still gets to follow
 * one).  A case reports what it saw; it never decides pass or fail itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
#include "uring.h"

/* Creating */

static void create_symlink(int dfd, char *out)
{
	obs_rc(out, symlink("", "n"));
}

static void create_symlinkat(int dfd, char *out)
{
	obs_rc(out, symlinkat("", dfd, "n"));
}

static void create_uring(int dfd, char *out)
{
	obs_rc(out, uring_symlinkat("", dfd, "n"));
}

static void create_empty_name(int dfd, char *out)
{
	obs_rc(out, symlink("x", ""));
}

static void create_uring_empty_name(int dfd, char *out)
{
	obs_rc(out, uring_symlinkat("x", dfd, ""));
}

static void create_exists(int dfd, char *out)
{
	obs_rc(out, symlink("", "e"));
}

/* Reading the link itself */

static void read_readlink(int dfd, char *out)
{
	char buf[64];

	obs_link(out, readlink("e", buf, sizeof(buf)), buf);
}

static void read_readlinkat(int dfd, char *out)
{
	char buf[64];

	obs_link(out, readlinkat(dfd, "e", buf, sizeof(buf)), buf);
}

static void read_readlink_opath(int dfd, char *out)
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

static void read_lstat(int dfd, char *out)
{
	obs_lstat("e", out);
}

static void read_statx(int dfd, char *out)
{
	struct statx stx;

	if (statx(dfd, "e", AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_SIZE,
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

static void follow_stat(int dfd, char *out)
{
	obs_stat_type("e", out);
}

static void follow_open(int dfd, char *out)
{
	open_type(dfd, "e", O_RDONLY, out);
}

static void follow_open_creat(int dfd, char *out)
{
	open_type(dfd, "e", O_WRONLY | O_CREAT, out);
}

static void follow_open_excl(int dfd, char *out)
{
	open_type(dfd, "e", O_WRONLY | O_CREAT | O_EXCL, out);
}

static void follow_opendir(int dfd, char *out)
{
	open_type(dfd, "e", O_RDONLY | O_DIRECTORY, out);
}

static void follow_mkdir(int dfd, char *out)
{
	obs_rc(out, mkdir("e", 0755));
}

static void follow_chdir(int dfd, char *out)
{
	obs_rc(out, chdir("e"));
	if (fchdir(dfd) < 0)
		snprintf(out, OBS_LEN, "fchdir:%s", errno_name(errno));
}

static void follow_execve(int dfd, char *out)
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
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (pid < 0)
		obs_rc(out, -1);
	else if (n == sizeof(err))
		snprintf(out, OBS_LEN, "%s", errno_name(err));
	else
		snprintf(out, OBS_LEN, "executed");
}

static void follow_access(int dfd, char *out)
{
	obs_rc(out, access("e", F_OK));
}

static void follow_truncate(int dfd, char *out)
{
	obs_rc(out, truncate("e", 0));
}

/* "x" exists beside the link, so a walk that treats "e" as "." finds it. */
static void follow_intermediate(int dfd, char *out)
{
	int fd = open("x", O_WRONLY | O_CREAT, 0644);

	if (fd < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	close(fd);
	obs_stat_type("e/x", out);
}

static void follow_trailing_slash(int dfd, char *out)
{
	obs_stat_type("e/", out);
}

static void follow_nofollow(int dfd, char *out)
{
	open_type(dfd, "e", O_RDONLY | O_NOFOLLOW, out);
}

static void follow_opath_nofollow(int dfd, char *out)
{
	open_type(dfd, "e", O_PATH | O_NOFOLLOW, out);
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

static void follow_no_symlinks(int dfd, char *out)
{
	openat2_type(dfd, RESOLVE_NO_SYMLINKS, out);
}

static void follow_beneath(int dfd, char *out)
{
	openat2_type(dfd, RESOLVE_BENEATH, out);
}

static void follow_in_root(int dfd, char *out)
{
	openat2_type(dfd, RESOLVE_IN_ROOT, out);
}

static void follow_linkat(int dfd, char *out)
{
	obs_rc(out, linkat(dfd, "e", dfd, "h", AT_SYMLINK_FOLLOW));
}

/* Working on the link itself */

static void self_unlink(int dfd, char *out)
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

static void self_rename_file(int dfd, char *out)
{
	int fd = open("f", O_WRONLY | O_CREAT, 0644);

	if (fd < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	close(fd);
	rename_and_read("f", out);
}

static void self_rename_link(int dfd, char *out)
{
	if (symlink("target", "l") < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	rename_and_read("l", out);
}

static void self_rename_dir(int dfd, char *out)
{
	if (mkdir("sub", 0755) < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	rename_and_read("sub/e", out);
}

static void self_link(int dfd, char *out)
{
	struct stat st;

	if (link("e", "h") < 0 || lstat("h", &st) < 0)
		obs_rc(out, -1);
	else if (st.st_nlink < 2)
		snprintf(out, OBS_LEN, "nlink=%lu", (unsigned long)st.st_nlink);
	else
		obs_type_size(out, st.st_mode, st.st_size);
}

static void self_lchown(int dfd, char *out)
{
	struct stat st;

	if (lchown("e", 1234, 1235) < 0 || lstat("e", &st) < 0)
		obs_rc(out, -1);
	else if (st.st_uid != 1234 || st.st_gid != 1235)
		snprintf(out, OBS_LEN, "owner=%u:%u", st.st_uid, st.st_gid);
	else
		snprintf(out, OBS_LEN, "ok");
}

static void self_utimensat(int dfd, char *out)
{
	const struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	struct stat st;

	if (utimensat(dfd, "e", ts, AT_SYMLINK_NOFOLLOW) < 0 ||
	    lstat("e", &st) < 0)
		obs_rc(out, -1);
	else if (st.st_mtim.tv_sec != ts[1].tv_sec)
		snprintf(out, OBS_LEN, "mtime=%lld", (long long)st.st_mtim.tv_sec);
	else
		snprintf(out, OBS_LEN, "ok");
}

/*
 * xfs online scrub of the link's inode, through the ioctls xfs_scrub uses
 * (uapi structs from fs/xfs/libxfs/xfs_fs.h, cut to the fields used, so
 * that xfslibs-dev is not needed).  "n/a" on other filesystems.
 */
struct xfs_scrub_metadata {
	__u32 sm_type, sm_flags;
	__u64 sm_ino;
	__u32 sm_gen, sm_agno;
	__u64 sm_reserved[5];
};
struct xfs_bulk_ireq {
	__u64 ino;
	__u32 flags, icount, ocount, agno;
	__u64 reserved[5];
};
struct xfs_bulkstat_one {
	struct xfs_bulk_ireq hdr;
	__u64 bs_ino, bs_size, bs_blocks, bs_xflags;
	__s64 bs_atime, bs_mtime, bs_ctime, bs_btime;
	__u32 bs_gen;
	__u32 rest[47];		/* to sizeof(struct xfs_bulkstat), 256 */
};
_Static_assert(sizeof(struct xfs_bulkstat_one) == 64 + 256, "xfs_bulkstat");
#define XFS_SUPER_MAGIC		0x58465342
#define XFS_IOC_BULKSTAT	_IOR('X', 127, struct xfs_bulk_ireq)
#define XFS_IOC_SCRUB_METADATA	_IOWR('X', 60, struct xfs_scrub_metadata)
#define XFS_SCRUB_TYPE_SYMLINK	17
#define XFS_SCRUB_OFLAG_CORRUPT	(1u << 1)

static void self_xfs_scrub(int dfd, char *out)
{
	struct xfs_scrub_metadata sm = { .sm_type = XFS_SCRUB_TYPE_SYMLINK };
	struct xfs_bulkstat_one bs;
	struct statfs sfs;
	struct stat st;

	if (fstatfs(dfd, &sfs) < 0 || lstat("e", &st) < 0) {
		obs_rc(out, -1);
		return;
	}
	if (sfs.f_type != XFS_SUPER_MAGIC) {
		snprintf(out, OBS_LEN, "n/a");
		return;
	}
	/* Scrub wants the inode's generation too: bulkstat gives it. */
	memset(&bs, 0, sizeof(bs));
	bs.hdr.ino = st.st_ino;
	bs.hdr.icount = 1;
	if (ioctl(dfd, XFS_IOC_BULKSTAT, &bs) < 0 || bs.hdr.ocount != 1 ||
	    bs.bs_ino != (__u64)st.st_ino) {
		snprintf(out, OBS_LEN, "bulkstat:%s", errno_name(errno));
		return;
	}
	sm.sm_ino = st.st_ino;
	sm.sm_gen = bs.bs_gen;
	if (ioctl(dfd, XFS_IOC_SCRUB_METADATA, &sm) < 0)
		obs_rc(out, -1);
	else if (sm.sm_flags & XFS_SCRUB_OFLAG_CORRUPT)
		snprintf(out, OBS_LEN, "corrupt");
	else
		snprintf(out, OBS_LEN, "ok");
}

/* Controls: ordinary links, so a broken harness or walk shows */

static void ctl_normal_stat(int dfd, char *out)
{
	int fd = open("t", O_WRONLY | O_CREAT, 0644);

	if (fd < 0 || symlink("t", "n") < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	close(fd);
	obs_stat_type("n", out);
}

static void ctl_normal_readlink(int dfd, char *out)
{
	char buf[64];

	if (symlink("target", "n") < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	obs_link(out, readlink("n", buf, sizeof(buf)), buf);
}

/* 400 bytes: out of the inode on every filesystem (remote on xfs). */
static void ctl_long_readlink(int dfd, char *out)
{
	char body[401], buf[512];

	memset(body, 'x', 400);
	body[400] = '\0';
	if (symlink(body, "n") < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	obs_link(out, readlink("n", buf, sizeof(buf)), buf);
}

static void ctl_dangling_stat(int dfd, char *out)
{
	if (symlink("missing", "d") < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	obs_stat_type("d", out);
}

/* O_CREAT through a dangling link creates its target: the link was followed. */
static void ctl_dangling_creat(int dfd, char *out)
{
	if (symlink("missing", "d") < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	open_type(dfd, "d", O_WRONLY | O_CREAT, out);
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
static void ctl_root(int dfd, char *out)
{
	if (symlink("//", "r") < 0) {
		snprintf(out, OBS_LEN, "setup:%s", errno_name(errno));
		return;
	}
	snprintf(out, OBS_LEN, "%s", same_file("r", "/") ? "root" : "not-root");
}

/* nd_jump_link() magic links return no body at all and must still jump. */
static void ctl_magic(int dfd, char *out)
{
	snprintf(out, OBS_LEN, "%s",
		 same_file("/proc/self/cwd", ".") ? "cwd" : "not-cwd");
}

static void ctl_empty_path(int dfd, char *out)
{
	obs_stat_type("", out);
}

const struct tcase cases[] = {
	{ "create.symlink", "ok", 0, create_symlink },
	{ "create.symlinkat", "ok", 0, create_symlinkat },
	{ "create.io_uring", "ok", 0, create_uring },
	{ "create.empty_name", "ENOENT", 0, create_empty_name },
	{ "create.io_uring_empty_name", "ENOENT", 0, create_uring_empty_name },
	{ "create.exists", "EEXIST", NEEDS_EMPTY, create_exists },
	{ "read.readlink", "\"\"", NEEDS_EMPTY, read_readlink },
	{ "read.readlinkat", "\"\"", NEEDS_EMPTY, read_readlinkat },
	{ "read.readlink_opath", "\"\"", NEEDS_EMPTY, read_readlink_opath },
	{ "read.lstat", "lnk:0", NEEDS_EMPTY, read_lstat },
	{ "read.statx", "lnk:0", NEEDS_EMPTY, read_statx },
	{ "follow.stat", "ENOENT", NEEDS_EMPTY, follow_stat },
	{ "follow.open", "ENOENT", NEEDS_EMPTY, follow_open },
	{ "follow.open_creat", "ENOENT", NEEDS_EMPTY, follow_open_creat },
	{ "follow.open_excl", "EEXIST", NEEDS_EMPTY, follow_open_excl },
	{ "follow.opendir", "ENOENT", NEEDS_EMPTY, follow_opendir },
	{ "follow.mkdir", "EEXIST", NEEDS_EMPTY, follow_mkdir },
	{ "follow.chdir", "ENOENT", NEEDS_EMPTY, follow_chdir },
	{ "follow.execve", "ENOENT", NEEDS_EMPTY, follow_execve },
	{ "follow.access", "ENOENT", NEEDS_EMPTY, follow_access },
	{ "follow.truncate", "ENOENT", NEEDS_EMPTY, follow_truncate },
	{ "follow.intermediate", "ENOENT", NEEDS_EMPTY, follow_intermediate },
	{ "follow.trailing_slash", "ENOENT", NEEDS_EMPTY, follow_trailing_slash },
	{ "follow.o_nofollow", "ELOOP", NEEDS_EMPTY, follow_nofollow },
	{ "follow.o_path_nofollow", "lnk", NEEDS_EMPTY, follow_opath_nofollow },
	{ "follow.resolve_no_symlinks", "ELOOP", NEEDS_EMPTY, follow_no_symlinks },
	{ "follow.resolve_beneath", "ENOENT", NEEDS_EMPTY, follow_beneath },
	{ "follow.resolve_in_root", "ENOENT", NEEDS_EMPTY, follow_in_root },
	{ "follow.linkat_follow", "ENOENT", NEEDS_EMPTY, follow_linkat },
	{ "self.unlink", "ok", NEEDS_EMPTY, self_unlink },
	{ "self.rename_over_file", "\"\"", NEEDS_EMPTY, self_rename_file },
	{ "self.rename_over_link", "\"\"", NEEDS_EMPTY, self_rename_link },
	{ "self.rename_to_subdir", "\"\"", NEEDS_EMPTY, self_rename_dir },
	{ "self.link", "lnk:0", NEEDS_EMPTY, self_link },
	{ "self.lchown", "ok", NEEDS_EMPTY, self_lchown },
	{ "self.utimensat_nofollow", "ok", NEEDS_EMPTY, self_utimensat },
	{ "self.xfs_scrub", "ok", NEEDS_EMPTY, self_xfs_scrub },
	{ "ctl.normal_stat", "reg", 0, ctl_normal_stat },
	{ "ctl.normal_readlink", "\"target\"", 0, ctl_normal_readlink },
	{ "ctl.long_readlink", "x*400", 0, ctl_long_readlink },
	{ "ctl.dangling_stat", "ENOENT", 0, ctl_dangling_stat },
	{ "ctl.dangling_creat", "reg", 0, ctl_dangling_creat },
	{ "ctl.slashes_to_root", "root", 0, ctl_root },
	{ "ctl.magic_link", "cwd", 0, ctl_magic },
	{ "ctl.empty_pathname", "ENOENT", 0, ctl_empty_path },
};

const unsigned int nr_cases = ARRAY_SIZE(cases);

/* The mission says stat("") is ENOENT; claiming "ok" must show as a failure. */
const struct tcase selftest_fail_case = {
	"selftest.must_fail", "ok", 0, ctl_empty_path
};
