// SPDX-License-Identifier: GPL-2.0
/*
 * knfsd on the wire: NFSv3 SYMLINK calls made by hand over TCP to the
 * server in this guest, so that what knfsd answers is seen without the
 * Linux client in between (which refuses "" itself on a kernel without
 * empty targets, and reports a server's INVAL for "" as ENOENT).  Each
 * call goes to the root of the export the column's knfsd serves
 * (AUTH_UNIX as root; the export is insecure and not root-squashed),
 * and each is followed by an lstat() of the name on the exported
 * filesystem itself, to see what the server really made.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nfs.h>
#include <linux/nfs3.h>
#include <linux/types.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "suites.h"

#define NFS_PROGRAM		100003
#define NFS3PROC_SYMLINK	10
#define AUTH_UNIX		1
#define LAST_FRAGMENT		0x80000000u

static struct nfs3_fh export_fh;

struct xdr {
	__be32 w[256];
	unsigned int n;
};

static void put(struct xdr *x, __u32 v)
{
	x->w[x->n++] = htonl(v);
}

/* A counted string or opaque, padded to four bytes. */
static void put_opaque(struct xdr *x, const void *p, unsigned int len)
{
	put(x, len);
	memset(&x->w[x->n], 0, (len + 3) & ~3u);
	memcpy(&x->w[x->n], p, len);
	x->n += (len + 3) / 4;
}

/*
 * SYMLINK3 of target (tlen bytes, NULs allowed) as name in the export's
 * root; out gets "ok", "NFS3ERR_<number or name>" or "rpc:<what>".
 */
static void symlink3(const char *name, const char *target, unsigned int tlen,
		     char *out)
{
	static const struct { __u32 code; const char *name; } errs[] = {
		{ NFSERR_NOENT, "NOENT" }, { NFSERR_IO, "IO" },
		{ NFSERR_ACCES, "ACCES" }, { NFSERR_EXIST, "EXIST" },
		{ NFSERR_INVAL, "INVAL" }, { NFSERR_NOTSUPP, "NOTSUPP" },
		{ NFSERR_SERVERFAULT, "SERVERFAULT" },
	};
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(2049),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct xdr x = { .n = 1 };
	__be32 r[64];
	__u32 len, status;
	unsigned int i, v;
	int fd;

	put(&x, 0x454c0000 | tlen);	/* xid */
	put(&x, 0);			/* CALL */
	put(&x, 2);
	put(&x, NFS_PROGRAM);
	put(&x, 3);
	put(&x, NFS3PROC_SYMLINK);
	put(&x, AUTH_UNIX);		/* stamp, machine "", uid, gid, gids */
	put(&x, 20);
	for (i = 0; i < 5; i++)
		put(&x, 0);
	put(&x, 0);			/* verifier: AUTH_NONE */
	put(&x, 0);
	put_opaque(&x, export_fh.data, export_fh.size);
	put_opaque(&x, name, strlen(name));
	for (i = 0; i < 6; i++)		/* sattr3: set nothing */
		put(&x, 0);
	put_opaque(&x, target, tlen);
	x.w[0] = htonl(LAST_FRAGMENT | ((x.n - 1) * 4));

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		snprintf(out, OBS_LEN, "rpc:connect:%s", errno_name(errno));
		goto out;
	}
	if (write(fd, x.w, x.n * 4) != (ssize_t)(x.n * 4) ||
	    read_full(fd, r, 4) < 0) {
		snprintf(out, OBS_LEN, "rpc:io");
		goto out;
	}
	len = ntohl(r[0]) & ~LAST_FRAGMENT;
	/* xid, REPLY, MSG_ACCEPTED, verifier (flavor, length 0), SUCCESS, status */
	if (len < 28 || len > sizeof(r) || read_full(fd, r, len) < 0 ||
	    ntohl(r[1]) != 1 || ntohl(r[2]) != 0 || ntohl(r[4]) != 0 ||
	    ntohl(r[5]) != 0) {
		snprintf(out, OBS_LEN, "rpc:rejected");
		goto out;
	}
	status = ntohl(r[6]);
	if (!status) {
		snprintf(out, OBS_LEN, "ok");
		goto out;
	}
	snprintf(out, OBS_LEN, "NFS3ERR_%u", status);
	for (v = 0; v < ARRAY_SIZE(errs); v++)
		if (errs[v].code == status)
			snprintf(out, OBS_LEN, "NFS3ERR_%s", errs[v].name);
out:
	if (fd >= 0)
		close(fd);
}

static void made(const struct ctx *c, const char *name, char *out)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", c->path, name);
	obs_lstat(path, out);
}

CASE(WIRE, wire, symlink_empty, "ok", 0)
{
	symlink3("wire-empty", "", 0, out);
}

CASE(WIRE, wire, empty_made, "lnk:0", 0)
{
	made(c, "wire-empty", out);
}

/* NFSv3 refuses a NUL in the target (svc_fill_symlink_pathname()). */
CASE(WIRE, wire, symlink_nul, "NFS3ERR_INVAL", 0)
{
	symlink3("wire-nul", "\0abc", 4, out);
}

CASE(WIRE, wire, nul_made, "ENOENT", 0)
{
	made(c, "wire-nul", out);
}

int run_wire(struct suite *s, const char *export)
{
	struct ctx c = { .dfd = AT_FDCWD, .path = export };
	static const char *const names[] = { "wire-empty", "wire-nul" };
	char path[4096];
	unsigned int i;
	int ret;

	if (!s->broken && nfs_root_handle(export, &export_fh) < 0)
		s->broken = "filehandle";
	ret = run_in_order(s, SUITE_WIRE, &c);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", export, names[i]);
		unlink(path);
	}
	return ret;
}
