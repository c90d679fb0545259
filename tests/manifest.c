// SPDX-License-Identifier: GPL-2.0
/*
 * Checking a prebuilt image against fs-images/manifest.txt: every entry's
 * lstat, its link body or file content, and what following it gives.
 * Reads only, so it runs before the table adds anything to the image.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "observe.h"
#include "suites.h"

#define MAX_ENTRIES 64

struct entry {
	char fs[16], path[256], type[8], body[OBS_LEN], size[16], follow[16];
};

/*
 * The entries of set: "*" lines belong to every filesystem's own image,
 * but not to an image of other entries (set differs from the fs).
 */
static int load(const char *manifest, const char *set, const char *fs,
		struct entry *e)
{
	char line[1024];
	int n = 0;
	FILE *f = fopen(manifest, "r");

	if (!f)
		return -1;
	while (n < MAX_ENTRIES && fgets(line, sizeof(line), f)) {
		struct entry *x = &e[n];

		if (line[0] == '#' || sscanf(line, "%15s %255s %7s %63s %15s %15s",
					     x->fs, x->path, x->type, x->body,
					     x->size, x->follow) != 6)
			continue;
		if (!strcmp(x->fs, set) ||
		    (!strcmp(set, fs) && !fnmatch(x->fs, fs, 0)))
			n++;
	}
	fclose(f);
	return n;
}

static void obs_content(const char *path, const char *type, char *out)
{
	char buf[512];
	long len;
	int fd;

	if (strcmp(type, "reg")) {
		len = readlink(path, buf, sizeof(buf));
	} else {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			obs_rc(out, -1);
			return;
		}
		len = read(fd, buf, sizeof(buf));
		close(fd);
	}
	obs_link(out, len, buf);
}

int run_manifest(struct suite *s, const char *manifest, const char *set,
		 const char *root)
{
	struct entry e[MAX_ENTRIES];
	char path[512], name[300], want[OBS_LEN], observed[OBS_LEN];
	int i, n = load(manifest, set, s->w.fs, e), planned = 0;

	if (n <= 0) {
		printf("not ok %d %s.%s # no entries for %s in %s\n", s->index,
		       s->w.fs, s->w.source, set, manifest);
		return 2;
	}
	for (i = 0; i < n; i++)
		planned += strcmp(e[i].type, "dir") ? 3 : 2;
	/* An inode that is corrupt on purpose must fail every way. */
	ktap_begin(s, planned);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s%s", root, e[i].path);

		if (!strcmp(e[i].type, "dir"))
			snprintf(want, sizeof(want), "dir");
		else if (!strcmp(e[i].type, "corrupt"))
			snprintf(want, sizeof(want), "%s", e[i].follow);
		else
			snprintf(want, sizeof(want), "%s:%s", e[i].type, e[i].size);
		snprintf(name, sizeof(name), "%s:lstat", e[i].path);
		if (!s->broken)
			obs_lstat(path, observed);
		ktap_case(s, name, want, observed);

		if (strcmp(e[i].type, "dir")) {
			snprintf(name, sizeof(name), "%s:%s", e[i].path,
				 strcmp(e[i].type, "lnk") ? "read" : "readlink");
			if (!s->broken)
				obs_content(path, e[i].type, observed);
			ktap_case(s, name, strcmp(e[i].type, "corrupt") ?
				  e[i].body : e[i].follow, observed);
		}

		snprintf(name, sizeof(name), "%s:follow", e[i].path);
		if (!s->broken)
			obs_stat_type(path, observed);
		ktap_case(s, name, e[i].follow, observed);
	}
	return ktap_end(s);
}
