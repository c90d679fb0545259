// SPDX-License-Identifier: GPL-2.0
/*
 * The series' kselftest (tools/testing/selftests/filesystems/
 * empty_symlink, built from the patched tree) on a column's scratch
 * directory: the binary runs with EMPTY_SYMLINK_DIR there, and what its
 * KTAP said of each of its tests becomes a case of this suite, which the
 * host judges like any other.  Each test it has is declared here, so
 * one it stops reporting (renamed, lost, a crash half-way) fails as
 * "not reported" on the host.
 *
 * Observed: "pass"; "fail"; "setup:ENOENT" for a test it skipped because
 * symlink("") failed with ENOENT there (its own gate: the kernel or the
 * filesystem does not take empty targets, which the registry's "create"
 * line decides, as for the table); any other skip as a SKIP, which fails
 * unless tests/expected.txt expects it; "missing" when it said nothing.
 * Its KTAP goes to the console log (stderr), each line after
 * "kselftest: ", and not into this suite's: a nested plan there would
 * be a second KTAP document inside ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suites.h"

#define FIXTURE "empty_symlink."
/* The kselftest's reason when symlink("") failed with ENOENT. */
#define GATE "empty symlinks not supported here"

struct ksft_result {
	char name[64];
	char obs[OBS_LEN];
};

static struct ksft_result results[64];
static unsigned int nr_results;

/* "ok 3 empty_symlink.NAME # SKIP reason" or "not ok 3 ...": remember. */
static void parse_line(const char *line)
{
	struct ksft_result *r;
	const char *p = line, *name, *skip;
	size_t len;
	int ok = 1;

	if (!strncmp(p, "not ", 4)) {
		ok = 0;
		p += 4;
	}
	if (strncmp(p, "ok ", 3))
		return;
	p += 3;
	p += strspn(p, "0123456789");
	if (*p++ != ' ' || strncmp(p, FIXTURE, strlen(FIXTURE)))
		return;
	name = p + strlen(FIXTURE);
	len = strcspn(name, "\n ");
	if (!len || len >= sizeof(r->name) || nr_results == ARRAY_SIZE(results))
		return;
	r = &results[nr_results++];
	memcpy(r->name, name, len);
	r->name[len] = '\0';
	skip = strstr(name + len, "# SKIP");
	if (!ok)
		snprintf(r->obs, sizeof(r->obs), "fail");
	else if (skip && strstr(skip, GATE))
		obs_setup(r->obs, ENOENT);
	else if (skip)
		obs_skip(r->obs, skip[6] ? skip + 7 : "(no reason)");
	else
		snprintf(r->obs, sizeof(r->obs), "pass");
}

/* fn: "ksft_NAME", the case's function. */
static void observe(const char *fn, char *out)
{
	const char *name = fn + strlen("ksft_");
	unsigned int i;

	for (i = 0; i < nr_results; i++)
		if (!strcmp(results[i].name, name)) {
			snprintf(out, OBS_LEN, "%s", results[i].obs);
			return;
		}
	snprintf(out, OBS_LEN, "missing");
}

/*
 * Each case's function is ksft_NAME (cases.h): __func__ names the
 * kselftest's test, so the two cannot drift apart.
 */
/* Whatever the kernel and filesystem: these need no empty link. */
CASE(KSELFTEST, ksft, create_empty, "pass", 0)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, empty_linkpath, "pass", 0)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, root_and_magic_links_still_jump, "pass", 0)
{
	observe(__func__, out);
}

/* The rest need the empty link. */
CASE(KSELFTEST, ksft, lstat_size_zero, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, readlink_zero_bytes, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, follow_trailing, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, follow_trailing_creat, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, follow_intermediate, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, follow_trailing_slash, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, stat_follows, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, openat2_resolve, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, chdir_enoent, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, execve_enoent, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, open_nofollow_eloop, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, opath_nofollow, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, unlink, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, rename, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, hardlink, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, lchown, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, utimensat_nofollow, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

CASE(KSELFTEST, ksft, symlinkat_empty, "pass", NEEDS_EMPTY)
{
	observe(__func__, out);
}

/* Its refusals run everywhere; where symlink("") fails, "" must fail too. */
CASE(KSELFTEST, ksft, io_uring_symlinkat, "pass", 0)
{
	observe(__func__, out);
}

/*
 * Run bin with EMPTY_SYMLINK_DIR=dir, its KTAP read from a pipe and
 * copied to our stderr (the console), as its diagnostics are.  0, or -1 with errno when
 * it could not be started.
 */
static int run_binary(const char *bin, const char *dir, int *status)
{
	char line[512];
	int fd[2];
	pid_t pid;
	FILE *f;

	if (pipe(fd) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(fd[0]);
		if (dup2(fd[1], STDOUT_FILENO) < 0)
			_exit(127);
		setenv("EMPTY_SYMLINK_DIR", dir, 1);
		execl(bin, bin, (char *)NULL);
		fprintf(stderr, "emptylink kselftest: %s: %s\n", bin,
			strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		fprintf(stderr, "kselftest: %s%s", line,
			strchr(line, '\n') ? "" : "\n");
		parse_line(line);
	}
	fclose(f);
	if (waitpid(pid, status, 0) < 0)
		return -1;
	return 0;
}

int run_kselftest(struct suite *s, const char *bin, const char *dir)
{
	static char why[64];
	struct ctx c = { .dfd = AT_FDCWD, .path = dir };
	int status = 0;

	if (!s->broken && mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(why, sizeof(why), "mkdir:%s", errno_name(errno));
		s->broken = why;
	}
	if (!s->broken && run_binary(bin, dir, &status) < 0) {
		snprintf(why, sizeof(why), "exec:%s", errno_name(errno));
		s->broken = why;
	}
	/*
	 * kselftest_harness.h exits 0, 1 (a test failed) or 4 (all
	 * skipped); a crash shows in what is missing, this says why.
	 */
	if (!s->broken && !(WIFEXITED(status) &&
			    (WEXITSTATUS(status) <= 1 || WEXITSTATUS(status) == 4)))
		fprintf(stderr, "emptylink kselftest: %s ended with status 0x%x\n",
			bin, status);
	return run_in_order(s, SUITE_KSELFTEST, &c);
}
