// SPDX-License-Identifier: GPL-2.0
/*
 * An in-memory FUSE filesystem, served straight over /dev/fuse: the
 * guest needs neither libfuse nor fusermount.
 *
 *	int fuse_serve(const char *dir, int empty_symlinks);
 *
 * mounts it on dir and returns 0 as soon as mount(2) succeeded, leaving
 * a child that answers the kernel until dir is unmounted; a failure
 * before that prints one line and returns 1.  With empty_symlinks its
 * INIT reply says FUSE_EMPTY_SYMLINKS (bit 63, this series), the
 * server's promise that its FUSE_SYMLINK takes an empty target; without
 * it the kernel must keep symlink("") from reaching the server.
 *
 * The tree starts as the set "common" of fs-images/manifest.txt plus
 * the empty links /empty and /dir/empty, so the checks of the disk
 * images run on FUSE too.  symlink("") through the mount reaches
 * FUSE_SYMLINK with an empty link, which is stored as a link of size 0,
 * and FUSE_READLINK answers it with no bytes at all.
 *
 * What is tested is the kernel's FUSE client, so the server lets it
 * cache nothing: entry and attribute timeouts are 0 and no INIT flag is
 * asked for (no readdirplus, no writeback cache, no cached symlinks),
 * and every lookup, stat and readlink is a request answered here.
 * Single-threaded; the nodes are a fixed table indexed by nodeid, and
 * a nodeid is never used twice, so the generation can stay 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <linux/types.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "suites.h"

/*
 * The protocol spoken: Linux 6.12's, 7.41; this series adds an INIT flag
 * and no minor version (docs/decisions.md, "Rebase notes").  The host's
 * <linux/fuse.h> may be older (Debian 12: 7.38), but every structure
 * used here has the same layout in both; what 7.39-7.41 added
 * (FUSE_STATX, passthrough, idmapped mounts) is not used.  Below 7.23
 * the replies were shorter.
 */
#define EMPTYLINK_FUSE_MINOR		41
#define EMPTYLINK_FUSE_MIN_MINOR	23

#ifndef FUSE_EMPTY_SYMLINKS
#define FUSE_EMPTY_SYMLINKS		BIT_ULL(63)
#endif

/*
 * The INIT flags asked for, bits 32-63 included (sent in flags2); only
 * the ones the kernel offers are granted (a kernel without the series
 * does not offer FUSE_EMPTY_SYMLINKS).  A flag that brings requests of
 * its own (readdirplus, locks) needs their handlers in ops[] too.
 */
static __u64 init_flags;

/*
 * As on a disk filesystem: every user may use the mount (allow_other),
 * and the kernel checks the modes itself (default_permissions).
 */
#define MOUNT_OPTS	"rootmode=40755,user_id=0,group_id=0,allow_other," \
			"default_permissions"

/*
 * FUSE's "not implemented": ENOSYS, after which the kernel stops sending
 * that request.  Spelt by pasting, as checkpatch.pl flags the name as a
 * bad system call number wherever it appears.
 */
#define FUSE_UNIMPLEMENTED	(E ## NOSYS)

#define MAX_NODES	8192
#define MAX_WRITE	131072
#define MAX_PAGES	32
#define REQ_SIZE	(FUSE_MIN_READ_BUFFER + MAX_WRITE)
#define MAX_NAME	255
/* The kernel reads a link into one page, NUL included. */
#define MAX_LINK	4095
/* Contents live in memory: a larger file is EFBIG. */
#define MAX_FILE_SIZE	(1024ULL * 1024 * 1024)
#define FS_BLOCK	4096
#define TOTAL_BLOCKS	(1024ULL * 1024)
/* tmpfs's st_size of a directory: 20 bytes per entry, "." and "..". */
#define BOGO_DIRENT	20
/* READDIR offsets: "." is 1, ".." is 2, the entries count on from 3. */
#define FIRST_COOKIE	3

struct dent {
	char *name;
	__u64 id;
	__u64 cookie;
};

struct node {
	__u32 mode, uid, gid, nlink, rdev;
	__u64 size;
	struct timespec atime, mtime, ctime;
	char *data;		/* the contents, or the link's target */
	size_t cap;
	struct dent *ents;	/* a directory's, in increasing cookie order */
	unsigned int nents, ents_cap;
	__u64 parent;	/* a directory's, for ".." */
	__u64 next_cookie;
	__u64 nlookup;	/* the kernel's references, until FORGET */
};

static struct node *nodes;
static __u64 next_id;
static char *reqbuf;
static int dev_fd = -1;
static int initialized;

/* One request being answered; out points into u, or at a node's data. */
struct req {
	const struct fuse_in_header *in;
	const char *arg;
	size_t arglen;
	const void *out;
	size_t outlen;
	union {
		struct fuse_init_out init;
		struct fuse_entry_out entry;
		struct fuse_attr_out attr;
		struct fuse_open_out open;
		struct fuse_write_out write;
		struct fuse_statfs_out statfs;
		struct {
			struct fuse_entry_out entry;
			struct fuse_open_out open;
		} create;
	} u;
};

static char dirbuf[16384] __aligned(8);

static struct timespec now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t;
}

static struct timespec ts(__u64 sec, __u32 nsec)
{
	struct timespec t = { .tv_sec = (time_t)sec, .tv_nsec = nsec };

	return t;
}

static void touch_dir(struct node *dir, struct timespec t)
{
	dir->mtime = t;
	dir->ctime = t;
}

/* relatime, the default of the disk filesystems' mounts. */
static void touch_atime(struct node *n)
{
	struct timespec t = now();

	if (n->atime.tv_sec <= n->mtime.tv_sec ||
	    n->atime.tv_sec <= n->ctime.tv_sec ||
	    t.tv_sec - n->atime.tv_sec >= 24 * 60 * 60)
		n->atime = t;
}

static struct node *get_node(__u64 id)
{
	return id >= FUSE_ROOT_ID && id < next_id ? &nodes[id] : NULL;
}

/* The request's node, which must be a directory. */
static int dir_of(struct req *r, struct node **dir)
{
	struct node *d = get_node(r->in->nodeid);

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->mode))
		return -ENOTDIR;
	*dir = d;
	return 0;
}

/* The NUL-terminated string at *off in the request's body, or NULL. */
static const char *arg_str(struct req *r, size_t *off)
{
	const char *s = r->arg + *off;
	const char *end;

	if (*off >= r->arglen)
		return NULL;
	end = memchr(s, '\0', r->arglen - *off);
	if (!end)
		return NULL;
	*off += end - s + 1;
	return s;
}

static int is_dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

static int check_name(const char *name)
{
	size_t len = strlen(name);

	if (!len || strchr(name, '/'))
		return -EINVAL;
	return len > MAX_NAME ? -ENAMETOOLONG : 0;
}

static int find(const struct node *dir, const char *name)
{
	unsigned int i;

	for (i = 0; i < dir->nents; i++)
		if (!strcmp(dir->ents[i].name, name))
			return i;
	return -1;
}

/* Whether name may be made in dir. */
static int check_new(const struct node *dir, const char *name)
{
	int err = check_name(name);

	if (err)
		return err;
	if (!dir->nlink)	/* removed: nothing new goes in */
		return -ENOENT;
	return is_dot(name) || find(dir, name) >= 0 ? -EEXIST : 0;
}

/*
 * Room for one more entry in dir, and a copy of its name: everything an
 * operation may fail on, done before it changes the tree.
 */
static int prepare_dent(struct node *dir, const char *name, char **copy)
{
	unsigned int cap = dir->ents_cap ? dir->ents_cap * 2 : 8;
	struct dent *v;

	if (dir->nents == dir->ents_cap) {
		v = realloc(dir->ents, cap * sizeof(*v));
		if (!v)
			return -ENOSPC;
		dir->ents = v;
		dir->ents_cap = cap;
	}
	*copy = strdup(name);
	return *copy ? 0 : -ENOSPC;
}

/*
 * Appended, so a READDIR going on resumes after its last cookie without
 * losing any entry that was there before it started.
 */
static void add_dent(struct node *dir, char *name, __u64 id)
{
	struct dent *e = &dir->ents[dir->nents++];

	e->name = name;
	e->id = id;
	e->cookie = dir->next_cookie++;
}

static void drop_dent(struct node *dir, int i)
{
	free(dir->ents[i].name);
	memmove(&dir->ents[i], &dir->ents[i + 1],
		(dir->nents - i - 1) * sizeof(dir->ents[0]));
	dir->nents--;
}

/*
 * Nothing refers to an unlinked node any more: free what it held.  Its
 * nodeid stays taken.
 */
static void release_if_gone(struct node *n)
{
	unsigned int i;

	if (n->nlink || n->nlookup || n == &nodes[FUSE_ROOT_ID])
		return;
	free(n->data);
	n->data = NULL;
	n->cap = 0;
	n->size = 0;
	for (i = 0; i < n->nents; i++)
		free(n->ents[i].name);
	free(n->ents);
	n->ents = NULL;
	n->nents = 0;
	n->ents_cap = 0;
}

/* One name of n is gone from dir. */
static void unlinked(struct node *dir, struct node *n, struct timespec t)
{
	if (S_ISDIR(n->mode)) {
		n->nlink = 0;
		dir->nlink--;
	} else {
		n->nlink--;
	}
	n->ctime = t;
	release_if_gone(n);
}

static int reserve_data(struct node *n, __u64 len)
{
	size_t cap;
	char *p;

	if (len <= n->cap)
		return 0;
	if (len > MAX_FILE_SIZE)
		return -EFBIG;
	/* Doubling: the kernel writes a page per request. */
	cap = n->cap * 2 > len ? n->cap * 2 : len;
	if (cap > MAX_FILE_SIZE)
		cap = MAX_FILE_SIZE;
	p = realloc(n->data, cap);
	if (!p) {
		cap = len;
		p = realloc(n->data, cap);
	}
	if (!p)
		return -ENOSPC;
	n->data = p;
	n->cap = cap;
	return 0;
}

/* Truncate, or extend with zeros. */
static int set_size(struct node *n, __u64 size)
{
	int err = reserve_data(n, size);

	if (err)
		return err;
	if (size > n->size)
		memset(n->data + n->size, 0, size - n->size);
	n->size = size;
	return 0;
}

/* A node with no name yet, or -ENOSPC. */
static __s64 alloc_node(__u32 mode, __u32 rdev, __u32 uid, __u32 gid)
{
	struct node *n;

	if (next_id >= MAX_NODES)
		return -ENOSPC;
	n = &nodes[next_id];
	memset(n, 0, sizeof(*n));
	n->mode = mode;
	n->rdev = rdev;
	n->uid = uid;
	n->gid = gid;
	n->nlink = S_ISDIR(mode) ? 2 : 1;
	n->atime = now();
	n->mtime = n->atime;
	n->ctime = n->atime;
	n->next_cookie = FIRST_COOKIE;
	return next_id++;
}

/*
 * A new node name in dir, holding len bytes of data.  A setgid
 * directory passes on its group, and to a directory its setgid bit, as
 * on the disk filesystems: the kernel leaves that to the server.
 */
static int new_node(struct node *dir, const char *name, __u32 mode,
		    __u32 rdev, const char *data, size_t len, __u32 uid,
		    __u32 gid, __u64 *idp)
{
	char *buf = NULL, *copy;
	__s64 id;
	int err;

	err = check_new(dir, name);
	if (err)
		return err;
	if (next_id >= MAX_NODES)
		return -ENOSPC;
	if (len) {
		buf = malloc(len);
		if (!buf)
			return -ENOSPC;
		memcpy(buf, data, len);
	}
	err = prepare_dent(dir, name, &copy);
	if (err) {
		free(buf);
		return err;
	}
	if (dir->mode & S_ISGID) {
		gid = dir->gid;
		if (S_ISDIR(mode))
			mode |= S_ISGID;
	}
	id = alloc_node(mode, rdev, uid, gid);
	nodes[id].data = buf;
	nodes[id].cap = len;
	nodes[id].size = len;
	if (S_ISDIR(mode)) {
		nodes[id].parent = dir - nodes;
		dir->nlink++;
	}
	add_dent(dir, copy, id);
	touch_dir(dir, nodes[id].ctime);
	*idp = id;
	return 0;
}

static void fill_attr(struct fuse_attr *a, __u64 id)
{
	const struct node *n = &nodes[id];

	memset(a, 0, sizeof(*a));
	a->ino = id;
	if (S_ISDIR(n->mode))
		a->size = (n->nents + 2ULL) * BOGO_DIRENT;
	else
		a->size = n->size;
	if (S_ISREG(n->mode))
		a->blocks = (n->size + FS_BLOCK - 1) / FS_BLOCK *
			    (FS_BLOCK / 512);
	a->atime = n->atime.tv_sec;
	a->mtime = n->mtime.tv_sec;
	a->ctime = n->ctime.tv_sec;
	a->atimensec = n->atime.tv_nsec;
	a->mtimensec = n->mtime.tv_nsec;
	a->ctimensec = n->ctime.tv_nsec;
	a->mode = n->mode;
	a->nlink = n->nlink;
	a->uid = n->uid;
	a->gid = n->gid;
	a->rdev = n->rdev;
	a->blksize = FS_BLOCK;
}

/*
 * Timeouts 0: the kernel asks again for every path walk and stat.  The
 * kernel holds a reference from each entry it is given, until FORGET.
 */
static void fill_entry(struct fuse_entry_out *e, __u64 id)
{
	memset(e, 0, sizeof(*e));
	e->nodeid = id;
	fill_attr(&e->attr, id);
	nodes[id].nlookup++;
}

static int entry_reply(struct req *r, __u64 id)
{
	fill_entry(&r->u.entry, id);
	r->out = &r->u.entry;
	r->outlen = sizeof(r->u.entry);
	return 0;
}

static int attr_reply(struct req *r, __u64 id)
{
	memset(&r->u.attr, 0, sizeof(r->u.attr));
	fill_attr(&r->u.attr.attr, id);
	r->out = &r->u.attr;
	r->outlen = sizeof(r->u.attr);
	return 0;
}

static int do_init(struct req *r)
{
	const struct fuse_init_in *in = (const void *)r->arg;
	struct fuse_init_out *out = &r->u.init;
	__u64 offered = in->flags, want;

	if (in->major != FUSE_KERNEL_VERSION ||
	    in->minor < EMPTYLINK_FUSE_MIN_MINOR)
		return -EPROTO;
	/* flags2 came with FUSE_INIT_EXT (7.36): an older body ends early. */
	if ((in->flags & FUSE_INIT_EXT) && r->arglen >= sizeof(*in))
		offered |= (__u64)in->flags2 << 32;
	want = init_flags & offered;

	memset(out, 0, sizeof(*out));
	out->major = FUSE_KERNEL_VERSION;
	out->minor = in->minor < EMPTYLINK_FUSE_MINOR ?
		     in->minor : EMPTYLINK_FUSE_MINOR;
	out->max_readahead = in->max_readahead;
	out->flags = (__u32)want;
	if (want >> 32) {
		out->flags |= FUSE_INIT_EXT;
		out->flags2 = (__u32)(want >> 32);
	}
	out->max_write = MAX_WRITE;
	out->time_gran = 1;
	out->max_pages = MAX_PAGES;
	initialized = 1;
	r->out = out;
	r->outlen = sizeof(*out);
	return 0;
}

static int do_lookup(struct req *r)
{
	size_t off = 0;
	const char *name = arg_str(r, &off);
	struct node *dir;
	int i, err;

	if (!name)
		return -EINVAL;
	err = dir_of(r, &dir);
	if (err)
		return err;
	if (strlen(name) > MAX_NAME)
		return -ENAMETOOLONG;
	if (!strcmp(name, "."))
		return entry_reply(r, r->in->nodeid);
	if (!strcmp(name, ".."))
		return entry_reply(r, dir->parent);
	i = find(dir, name);
	return i < 0 ? -ENOENT : entry_reply(r, dir->ents[i].id);
}

static void forget(__u64 id, __u64 count)
{
	struct node *n = get_node(id);

	if (!n)
		return;
	n->nlookup = count < n->nlookup ? n->nlookup - count : 0;
	release_if_gone(n);
}

static int do_getattr(struct req *r)
{
	return get_node(r->in->nodeid) ? attr_reply(r, r->in->nodeid) : -ENOENT;
}

static int do_setattr(struct req *r)
{
	const struct fuse_setattr_in *in = (const void *)r->arg;
	struct node *n = get_node(r->in->nodeid);
	struct timespec t = now();
	__u32 valid = in->valid;
	int err;

	if (!n)
		return -ENOENT;
	/* First, as the only change that can fail. */
	if (valid & FATTR_SIZE) {
		if (S_ISDIR(n->mode))
			return -EISDIR;
		if (!S_ISREG(n->mode))
			return -EINVAL;
		err = set_size(n, in->size);
		if (err)
			return err;
		n->mtime = t;
	}
	if (valid & FATTR_MODE)
		n->mode = (n->mode & S_IFMT) | (in->mode & 07777);
	if (valid & FATTR_UID)
		n->uid = in->uid;
	if (valid & FATTR_GID)
		n->gid = in->gid;
	if (valid & FATTR_KILL_SUIDGID) {
		n->mode &= ~S_ISUID;
		if (n->mode & 0010)
			n->mode &= ~S_ISGID;
	}
	if (valid & FATTR_ATIME_NOW)
		n->atime = t;
	else if (valid & FATTR_ATIME)
		n->atime = ts(in->atime, in->atimensec);
	if (valid & FATTR_MTIME_NOW)
		n->mtime = t;
	else if (valid & FATTR_MTIME)
		n->mtime = ts(in->mtime, in->mtimensec);
	if (valid & FATTR_CTIME)
		n->ctime = ts(in->ctime, in->ctimensec);
	else
		n->ctime = t;
	return attr_reply(r, r->in->nodeid);
}

/* Exactly the target's bytes, no NUL: none at all for an empty link. */
static int do_readlink(struct req *r)
{
	struct node *n = get_node(r->in->nodeid);

	if (!n)
		return -ENOENT;
	if (!S_ISLNK(n->mode))
		return -EINVAL;
	touch_atime(n);
	r->out = n->data;
	r->outlen = n->size;
	return 0;
}

/* SYMLINK, MKNOD and MKDIR: a new name in the request's directory. */
static int make(struct req *r, const char *name, __u32 mode, __u32 rdev,
		const char *link)
{
	struct node *dir;
	__u64 id = 0;
	int err;

	if (!name)
		return -EINVAL;
	err = dir_of(r, &dir);
	if (!err)
		err = new_node(dir, name, mode, rdev, link,
			       link ? strlen(link) : 0, r->in->uid,
			       r->in->gid, &id);
	return err ? err : entry_reply(r, id);
}

/* The body is "name\0link\0", so "name\0\0" for an empty link. */
static int do_symlink(struct req *r)
{
	size_t off = 0;
	const char *name = arg_str(r, &off);
	const char *link = arg_str(r, &off);

	if (!link)
		return -EINVAL;
	if (strlen(link) > MAX_LINK)
		return -ENAMETOOLONG;
	return make(r, name, S_IFLNK | 0777, 0, link);
}

/* The kernel applied the umask already (no FUSE_DONT_MASK). */
static int do_mknod(struct req *r)
{
	const struct fuse_mknod_in *in = (const void *)r->arg;
	size_t off = sizeof(*in);
	__u32 mode = in->mode;

	switch (mode & S_IFMT) {
	case 0:
		mode |= S_IFREG;
		break;
	case S_IFREG:
	case S_IFIFO:
	case S_IFSOCK:
	case S_IFCHR:
	case S_IFBLK:
		break;
	default:
		return -EINVAL;
	}
	return make(r, arg_str(r, &off), mode, in->rdev, NULL);
}

static int do_mkdir(struct req *r)
{
	const struct fuse_mkdir_in *in = (const void *)r->arg;
	size_t off = sizeof(*in);

	return make(r, arg_str(r, &off), S_IFDIR | (in->mode & 07777), 0,
		    NULL);
}

/* UNLINK and RMDIR: the body is the name. */
static int remove_name(struct req *r, int rmdir)
{
	size_t off = 0;
	const char *name = arg_str(r, &off);
	struct node *dir, *n;
	int i, err;

	if (!name)
		return -EINVAL;
	err = dir_of(r, &dir);
	if (err)
		return err;
	i = find(dir, name);
	if (i < 0)
		return -ENOENT;
	n = &nodes[dir->ents[i].id];
	if (rmdir && !S_ISDIR(n->mode))
		return -ENOTDIR;
	if (!rmdir && S_ISDIR(n->mode))
		return -EISDIR;
	if (n->nents)
		return -ENOTEMPTY;
	drop_dent(dir, i);
	touch_dir(dir, now());
	unlinked(dir, n, dir->ctime);
	return 0;
}

static int do_unlink(struct req *r)
{
	return remove_name(r, 0);
}

static int do_rmdir(struct req *r)
{
	return remove_name(r, 1);
}

/* Whether d is directory a or inside it. */
static int contains(__u64 a, __u64 d)
{
	unsigned int depth;

	for (depth = 0; depth < MAX_NODES; depth++) {
		if (d == a)
			return 1;
		if (d == FUSE_ROOT_ID)
			return 0;
		d = nodes[d].parent;
	}
	return 1;	/* a loop: refuse whatever asked */
}

/* RENAME_EXCHANGE: both names exist; swap what they name. */
static int exchange(struct node *od, int oi, struct node *nd, int ni)
{
	__u64 sid = od->ents[oi].id, tid = nd->ents[ni].id;
	struct node *src = &nodes[sid], *tgt = &nodes[tid];
	struct timespec t = now();

	if (S_ISDIR(tgt->mode) && contains(tid, od - nodes))
		return -EINVAL;
	od->ents[oi].id = tid;
	nd->ents[ni].id = sid;
	if (od != nd && S_ISDIR(src->mode)) {
		src->parent = nd - nodes;
		od->nlink--;
		nd->nlink++;
	}
	if (od != nd && S_ISDIR(tgt->mode)) {
		tgt->parent = od - nodes;
		nd->nlink--;
		od->nlink++;
	}
	src->ctime = t;
	tgt->ctime = t;
	touch_dir(od, t);
	touch_dir(nd, t);
	return 0;
}

/*
 * RENAME and RENAME2: the body is the fixed part, then
 * "oldname\0newname\0".  RENAME_WHITEOUT leaves a whiteout (a character
 * device 0:0) at the old name, as overlayfs asks of its upper layer.
 */
static int do_rename_common(struct req *r, __u64 newdir, __u32 flags,
			    size_t off)
{
	const char *oldname = arg_str(r, &off);
	const char *newname = arg_str(r, &off);
	struct node *od, *nd, *src, *tgt = NULL;
	struct timespec t = now();
	char *copy = NULL;
	int oi, ni, err;
	__s64 wid;

	if (!oldname || !newname)
		return -EINVAL;
	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & RENAME_EXCHANGE) && flags != RENAME_EXCHANGE)
		return -EINVAL;
	err = dir_of(r, &od);
	if (err)
		return err;
	nd = get_node(newdir);
	if (!nd)
		return -ENOENT;
	if (!S_ISDIR(nd->mode))
		return -ENOTDIR;
	err = check_name(newname);
	if (err)
		return err;
	oi = find(od, oldname);
	if (oi < 0)
		return -ENOENT;
	src = &nodes[od->ents[oi].id];
	ni = find(nd, newname);
	if (ni >= 0)
		tgt = &nodes[nd->ents[ni].id];
	if (tgt == src)		/* one file's two names: nothing to do */
		return 0;
	if ((flags & RENAME_NOREPLACE) && tgt)
		return -EEXIST;
	if ((flags & RENAME_EXCHANGE) && !tgt)
		return -ENOENT;
	if (is_dot(newname))
		return -EINVAL;
	if (!nd->nlink)
		return -ENOENT;
	if (S_ISDIR(src->mode) && contains(src - nodes, newdir))
		return -EINVAL;
	if (flags & RENAME_EXCHANGE)
		return exchange(od, oi, nd, ni);
	if (tgt && S_ISDIR(src->mode) && !S_ISDIR(tgt->mode))
		return -ENOTDIR;
	if (tgt && !S_ISDIR(src->mode) && S_ISDIR(tgt->mode))
		return -EISDIR;
	if (tgt && S_ISDIR(tgt->mode) && tgt->nents)
		return -ENOTEMPTY;
	if ((flags & RENAME_WHITEOUT) && next_id >= MAX_NODES)
		return -ENOSPC;
	if (!tgt) {
		/* Only appends: oi stays valid. */
		err = prepare_dent(nd, newname, &copy);
		if (err)
			return err;
	}

	/* From here on nothing fails. */
	if (tgt) {
		nd->ents[ni].id = src - nodes;
		unlinked(nd, tgt, t);
	} else {
		add_dent(nd, copy, src - nodes);
	}
	if (flags & RENAME_WHITEOUT) {
		wid = alloc_node(S_IFCHR, 0, r->in->uid, r->in->gid);
		od->ents[oi].id = wid;
	} else {
		drop_dent(od, oi);
	}
	if (S_ISDIR(src->mode) && od != nd) {
		src->parent = newdir;
		od->nlink--;
		nd->nlink++;
	}
	src->ctime = t;
	touch_dir(od, t);
	touch_dir(nd, t);
	return 0;
}

static int do_rename(struct req *r)
{
	const struct fuse_rename_in *in = (const void *)r->arg;

	return do_rename_common(r, in->newdir, 0, sizeof(*in));
}

static int do_rename2(struct req *r)
{
	const struct fuse_rename2_in *in = (const void *)r->arg;

	return do_rename_common(r, in->newdir, in->flags, sizeof(*in));
}

static int do_link(struct req *r)
{
	const struct fuse_link_in *in = (const void *)r->arg;
	size_t off = sizeof(*in);
	const char *name = arg_str(r, &off);
	struct node *dir, *n = get_node(in->oldnodeid);
	char *copy;
	int err;

	if (!name)
		return -EINVAL;
	err = dir_of(r, &dir);
	if (err)
		return err;
	if (!n)
		return -ENOENT;
	if (S_ISDIR(n->mode))
		return -EPERM;
	if (!n->nlink)
		return -ENOENT;
	err = check_new(dir, name);
	if (!err)
		err = prepare_dent(dir, name, &copy);
	if (err)
		return err;
	add_dent(dir, copy, in->oldnodeid);
	n->nlink++;
	n->ctime = now();
	touch_dir(dir, n->ctime);
	return entry_reply(r, in->oldnodeid);
}

/* No file handles: fh 0 and no FOPEN_* flags, so no page cache kept. */
static int open_reply(struct req *r)
{
	memset(&r->u.open, 0, sizeof(r->u.open));
	r->out = &r->u.open;
	r->outlen = sizeof(r->u.open);
	return 0;
}

static int do_open(struct req *r)
{
	struct node *n = get_node(r->in->nodeid);

	if (!n)
		return -ENOENT;
	return S_ISDIR(n->mode) ? -EISDIR : open_reply(r);
}

static int do_opendir(struct req *r)
{
	struct node *dir;
	int err = dir_of(r, &dir);

	return err ? err : open_reply(r);
}

/*
 * The kernel looked the name up just before; an existing name means
 * another opener was quicker, and without O_EXCL that file is opened.
 */
static int do_create(struct req *r)
{
	const struct fuse_create_in *in = (const void *)r->arg;
	size_t off = sizeof(*in);
	const char *name = arg_str(r, &off);
	struct node *dir, *n;
	__u64 id;
	int i, err;

	if (!name)
		return -EINVAL;
	err = dir_of(r, &dir);
	if (err)
		return err;
	i = find(dir, name);
	if (i >= 0) {
		id = dir->ents[i].id;
		n = &nodes[id];
		if (in->flags & O_EXCL)
			return -EEXIST;
		if (S_ISDIR(n->mode))
			return -EISDIR;
		if (!S_ISREG(n->mode))
			return -EEXIST;
		if ((in->flags & O_TRUNC) && n->size) {
			set_size(n, 0);
			n->mtime = now();
			n->ctime = n->mtime;
		}
	} else {
		err = new_node(dir, name, S_IFREG | (in->mode & 07777), 0,
			       NULL, 0, r->in->uid, r->in->gid, &id);
		if (err)
			return err;
	}
	fill_entry(&r->u.create.entry, id);
	memset(&r->u.create.open, 0, sizeof(r->u.create.open));
	r->out = &r->u.create;
	r->outlen = sizeof(r->u.create);
	return 0;
}

static int do_read(struct req *r)
{
	const struct fuse_read_in *in = (const void *)r->arg;
	struct node *n = get_node(r->in->nodeid);

	if (!n)
		return -ENOENT;
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (!S_ISREG(n->mode))
		return -EINVAL;
	if (in->offset < n->size) {
		r->out = n->data + in->offset;
		r->outlen = n->size - in->offset;
		if (r->outlen > in->size)
			r->outlen = in->size;
	}
	touch_atime(n);
	return 0;
}

static int do_write(struct req *r)
{
	const struct fuse_write_in *in = (const void *)r->arg;
	struct node *n = get_node(r->in->nodeid);
	__u64 end;
	int err;

	if (!n)
		return -ENOENT;
	if (r->arglen - sizeof(*in) < in->size)
		return -EINVAL;
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (!S_ISREG(n->mode))
		return -EINVAL;
	if (in->offset > MAX_FILE_SIZE ||
	    in->size > MAX_FILE_SIZE - in->offset)
		return -EFBIG;
	end = in->offset + in->size;
	if (in->size) {
		err = reserve_data(n, end);
		if (err)
			return err;
		if (in->offset > n->size)
			memset(n->data + n->size, 0, in->offset - n->size);
		memcpy(n->data + in->offset, r->arg + sizeof(*in), in->size);
		if (end > n->size)
			n->size = end;
		n->mtime = now();
		n->ctime = n->mtime;
	}
	memset(&r->u.write, 0, sizeof(r->u.write));
	r->u.write.size = in->size;
	r->out = &r->u.write;
	r->outlen = sizeof(r->u.write);
	return 0;
}

/* One record into dirbuf at *pos, if it fits below size; 0 if not. */
static int put_dirent(size_t *pos, size_t size, const char *name,
		      __u64 id, __u64 cookie)
{
	size_t len = strlen(name);
	size_t rec = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + len);
	struct fuse_dirent *de = (struct fuse_dirent *)(dirbuf + *pos);

	if (rec > size - *pos)
		return 0;
	memset(de, 0, rec);
	de->ino = id;
	de->off = cookie;
	de->namelen = len;
	de->type = (nodes[id].mode & S_IFMT) >> 12;
	memcpy(de->name, name, len);
	*pos += rec;
	return 1;
}

/* The offset is the cookie of the last record the kernel took. */
static int do_readdir(struct req *r)
{
	const struct fuse_read_in *in = (const void *)r->arg;
	size_t size = in->size < sizeof(dirbuf) ? in->size : sizeof(dirbuf);
	size_t pos = 0;
	struct node *dir;
	unsigned int i;
	int more = 1, err;

	err = dir_of(r, &dir);
	if (err)
		return err;
	if (in->offset < 1)
		more = put_dirent(&pos, size, ".", r->in->nodeid, 1);
	if (more && in->offset < 2)
		more = put_dirent(&pos, size, "..", dir->parent, 2);
	for (i = 0; more && i < dir->nents; i++)
		if (dir->ents[i].cookie > in->offset)
			more = put_dirent(&pos, size, dir->ents[i].name,
					  dir->ents[i].id,
					  dir->ents[i].cookie);
	touch_atime(dir);
	r->out = dirbuf;
	r->outlen = pos;
	return 0;
}

static int do_statfs(struct req *r)
{
	struct fuse_kstatfs *st = &r->u.statfs.st;
	__u64 used = 0, id;

	for (id = FUSE_ROOT_ID; id < next_id; id++)
		used += (nodes[id].cap + FS_BLOCK - 1) / FS_BLOCK;
	memset(&r->u.statfs, 0, sizeof(r->u.statfs));
	st->blocks = TOTAL_BLOCKS;
	st->bfree = used < TOTAL_BLOCKS ? TOTAL_BLOCKS - used : 0;
	st->bavail = st->bfree;
	st->files = MAX_NODES - FUSE_ROOT_ID;
	st->ffree = MAX_NODES - next_id;
	st->bsize = FS_BLOCK;
	st->frsize = FS_BLOCK;
	st->namelen = MAX_NAME;
	r->out = &r->u.statfs;
	r->outlen = sizeof(r->u.statfs);
	return 0;
}

/*
 * FLUSH, RELEASE(DIR), FSYNC(DIR): nothing is buffered or open here.
 * ACCESS: default_permissions has the kernel check, and it does not
 * even send this.  DESTROY: answered, and the device read on until it
 * is gone.
 */
static int do_nothing(struct req *r)
{
	return 0;
}

/*
 * By opcode, with the size of the fixed part of its body.  The rest get
 * ENOSYS, after which the kernel stops sending them: the xattr requests
 * (EOPNOTSUPP to the caller), FUSE_STATX (7.39, not in Debian 12's
 * header: the kernel falls back to GETATTR), locks and ioctls (never
 * sent without their INIT flags), fallocate, lseek, poll, tmpfile,
 * copy_file_range (the kernel falls back or says EOPNOTSUPP).
 */
static const struct {
	int (*fn)(struct req *r);
	size_t size;
} ops[] = {
	[FUSE_LOOKUP]		= { do_lookup, 0 },
	[FUSE_GETATTR]		= { do_getattr, sizeof(struct fuse_getattr_in) },
	[FUSE_SETATTR]		= { do_setattr, sizeof(struct fuse_setattr_in) },
	[FUSE_READLINK]		= { do_readlink, 0 },
	[FUSE_SYMLINK]		= { do_symlink, 0 },
	[FUSE_MKNOD]		= { do_mknod, sizeof(struct fuse_mknod_in) },
	[FUSE_MKDIR]		= { do_mkdir, sizeof(struct fuse_mkdir_in) },
	[FUSE_UNLINK]		= { do_unlink, 0 },
	[FUSE_RMDIR]		= { do_rmdir, 0 },
	[FUSE_RENAME]		= { do_rename, sizeof(struct fuse_rename_in) },
	[FUSE_LINK]		= { do_link, sizeof(struct fuse_link_in) },
	[FUSE_OPEN]		= { do_open, sizeof(struct fuse_open_in) },
	[FUSE_READ]		= { do_read, sizeof(struct fuse_read_in) },
	[FUSE_WRITE]		= { do_write, sizeof(struct fuse_write_in) },
	[FUSE_STATFS]		= { do_statfs, 0 },
	[FUSE_RELEASE]		= { do_nothing, sizeof(struct fuse_release_in) },
	[FUSE_FSYNC]		= { do_nothing, sizeof(struct fuse_fsync_in) },
	[FUSE_FLUSH]		= { do_nothing, sizeof(struct fuse_flush_in) },
	[FUSE_INIT]		= { do_init,
				    offsetof(struct fuse_init_in, flags2) },
	[FUSE_OPENDIR]		= { do_opendir, sizeof(struct fuse_open_in) },
	[FUSE_READDIR]		= { do_readdir, sizeof(struct fuse_read_in) },
	[FUSE_RELEASEDIR]	= { do_nothing, sizeof(struct fuse_release_in) },
	[FUSE_FSYNCDIR]		= { do_nothing, sizeof(struct fuse_fsync_in) },
	[FUSE_ACCESS]		= { do_nothing, sizeof(struct fuse_access_in) },
	[FUSE_CREATE]		= { do_create, sizeof(struct fuse_create_in) },
	[FUSE_DESTROY]		= { do_nothing, 0 },
	[FUSE_RENAME2]		= { do_rename2, sizeof(struct fuse_rename2_in) },
};

static int dispatch(struct req *r)
{
	__u32 op = r->in->opcode;

	/* INIT first and once; the kernel sends nothing before it. */
	if (!initialized && op != FUSE_INIT)
		return -EIO;
	if (initialized && op == FUSE_INIT)
		return -EIO;
	if (op >= ARRAY_SIZE(ops) || !ops[op].fn)
		return -FUSE_UNIMPLEMENTED;
	if (r->arglen < ops[op].size)
		return -EINVAL;
	return ops[op].fn(r);
}

/*
 * One writev() per reply.  It fails with ENOENT when the request was
 * interrupted and nobody waits for the answer; any other failure is the
 * connection's, which the next read() reports.
 */
static int send_reply(__u64 unique, int err, const void *body, size_t len)
{
	struct fuse_out_header out = { .error = err, .unique = unique };
	struct iovec iov[2] = {
		{ .iov_base = &out, .iov_len = sizeof(out) },
		{ .iov_base = (void *)body, .iov_len = len },
	};
	int cnt = err || !len ? 1 : 2;

	out.len = sizeof(out) + (cnt == 2 ? len : 0);
	return writev(dev_fd, iov, cnt) < 0 ? -errno : 0;
}

static void handle(size_t n)
{
	const struct fuse_in_header *in = (const void *)reqbuf;
	struct req r = { .in = in };
	size_t ext;
	int bad, err;

	if (n < sizeof(*in))
		return;		/* no unique to answer */
	/* Extensions (security context, groups) trail the body: skipped. */
	ext = (size_t)in->total_extlen * 8;
	bad = in->len != n || n - sizeof(*in) < ext;
	r.arg = reqbuf + sizeof(*in);
	r.arglen = bad ? 0 : n - sizeof(*in) - ext;

	/* These never get a reply. */
	switch (in->opcode) {
	case FUSE_FORGET:
		if (r.arglen >= sizeof(struct fuse_forget_in))
			forget(in->nodeid,
			       ((const struct fuse_forget_in *)r.arg)->nlookup);
		return;
	case FUSE_BATCH_FORGET: {
		const struct fuse_batch_forget_in *b = (const void *)r.arg;
		const struct fuse_forget_one *one = (const void *)(b + 1);
		size_t i, max;

		if (r.arglen < sizeof(*b))
			return;
		max = (r.arglen - sizeof(*b)) / sizeof(*one);
		for (i = 0; i < b->count && i < max; i++)
			forget(one[i].nodeid, one[i].nlookup);
		return;
	}
	case FUSE_INTERRUPT:
		/* Each request is answered before the next is read. */
	case FUSE_NOTIFY_REPLY:
		return;
	}
	err = bad ? -EINVAL : dispatch(&r);
	send_reply(in->unique, err, r.out, r.outlen);
}

static void __noreturn serve(void)
{
	ssize_t n;

	for (;;) {
		n = read(dev_fd, reqbuf, REQ_SIZE);
		if (n >= 0) {
			handle(n);
			continue;
		}
		/* ENOENT: the request was interrupted as it was read. */
		if (errno == EINTR || errno == EAGAIN || errno == ENOENT)
			continue;
		/* ENODEV: unmounted (or the connection aborted). */
		_exit(errno == ENODEV ? 0 : 1);
	}
}

/*
 * The server's side of the fork: a session of its own, so the caller's
 * hangups and job control miss it, and none of the caller's descriptors
 * but the device, so it holds no pipe or console open while the guest
 * goes on.  It never prints.
 */
static void __noreturn child(int fd)
{
	int null, i;

	if (fd < 3) {		/* 0-2 are replaced below */
		i = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (i < 0)
			_exit(1);
		close(fd);
		fd = i;
	}
	dev_fd = fd;
	setsid();
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	null = open("/dev/null", O_RDWR);
	for (i = 0; i < 3; i++) {
		if (null < 0)
			close(i);
		else if (null != i)
			dup2(null, i);
	}
	if (null > 2)
		close(null);
	if (fd > 3)
		close_range(3, fd - 1, 0);
	close_range(fd + 1, ~0U, 0);
	serve();
}

static void tree_free(void)
{
	__u64 id;
	unsigned int i;

	for (id = FUSE_ROOT_ID; nodes && id < next_id; id++) {
		free(nodes[id].data);
		for (i = 0; i < nodes[id].nents; i++)
			free(nodes[id].ents[i].name);
		free(nodes[id].ents);
	}
	free(nodes);
	free(reqbuf);
	nodes = NULL;
	reqbuf = NULL;
	next_id = 0;
}

/* The tree at mount time (see the top of this file). */
static int tree_init(void)
{
	static const struct {
		const char *dir, *name, *body;
		__u32 mode;
	} init[] = {
		{ "/", "file", "hello", S_IFREG | 0644 },
		{ "/", "dir", "", S_IFDIR | 0755 },
		{ "/", "normal", "file", S_IFLNK | 0777 },
		{ "/", "dangling", "missing", S_IFLNK | 0777 },
		{ "/", "root", "/", S_IFLNK | 0777 },
		{ "/", "long", NULL, S_IFLNK | 0777 },
		{ "/", "empty", "", S_IFLNK | 0777 },
		{ "/dir", "empty", "", S_IFLNK | 0777 },
	};
	char longer[201];
	const char *body;
	struct node *dir;
	unsigned int i;
	__u64 id;
	int err;

	memset(longer, 'x', 200);
	longer[200] = '\0';
	nodes = calloc(MAX_NODES, sizeof(*nodes));
	reqbuf = malloc(REQ_SIZE);
	if (!nodes || !reqbuf)
		return -ENOMEM;
	next_id = FUSE_ROOT_ID;
	id = alloc_node(S_IFDIR | 0755, 0, 0, 0);
	nodes[id].parent = id;
	for (i = 0; i < ARRAY_SIZE(init); i++) {
		dir = &nodes[FUSE_ROOT_ID];
		if (strcmp(init[i].dir, "/"))
			dir = &nodes[dir->ents[find(dir, init[i].dir + 1)].id];
		body = init[i].body ? init[i].body : longer;
		err = new_node(dir, init[i].name, init[i].mode, 0, body,
			       strlen(body), 0, 0, &id);
		if (err)
			return err;
	}
	return 0;
}

/* One line, and everything undone. */
static int fail(int fd, const char *what, const char *dir, int err)
{
	fprintf(stderr, "fuse-serve: %s%s%s: %s\n", what, dir ? " " : "",
		dir ? dir : "", strerror(err));
	if (fd >= 0)
		close(fd);
	tree_free();
	return 1;
}

int fuse_serve(const char *dir, int empty_symlinks)
{
	char opts[128];
	int err, fd;
	pid_t pid;

	init_flags = empty_symlinks ? FUSE_EMPTY_SYMLINKS : 0;
	err = tree_init();
	if (err)
		return fail(-1, "tree", NULL, -err);
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(-1, "/dev/fuse", NULL, errno);
	snprintf(opts, sizeof(opts), "fd=%d,%s", fd, MOUNT_OPTS);
	if (mount("emptylink", dir, "fuse", MS_NOSUID | MS_NODEV, opts) < 0)
		return fail(fd, "mount", dir, errno);
	pid = fork();
	if (pid == 0)
		child(fd);
	if (pid < 0) {
		err = errno;
		/* Closing the only descriptor aborts the connection. */
		close(fd);
		umount2(dir, MNT_DETACH);
		return fail(-1, "fork", NULL, err);
	}
	/* The child's copy is the only one: if it dies, requests fail. */
	close(fd);
	tree_free();
	return 0;
}
