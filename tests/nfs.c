// SPDX-License-Identifier: GPL-2.0
/*
 * NFSv3 in the guest without nfs-utils (docs/decisions.md, "NFS: knfsd
 * and the client in the guest").
 *
 * rpcbind_stub(): knfsd registers NFSv3, and lockd NLM, with the local
 * rpcbind (svc_register(); unlike NFSv4's, a failed registration stops
 * them from starting).  The kernel's rpcbind client tries the abstract
 * AF_LOCAL socket "\0/run/rpcbind.sock" first, with a NULL call; this
 * stub listens there and answers every call with success, and every
 * procedure but NULL (SET, UNSET) with TRUE.  Nothing ever asks it for a
 * port: the client is told 2049.
 *
 * nfs3_mount(): the client mounted with the binary mount data (struct
 * nfs_mount_data version 6) that carries the export's root file handle,
 * so that the kernel asks no MOUNT server (there is no rpc.mountd) for
 * it; knfsd gives the handle through /proc/fs/nfsd/filehandle.  nolock:
 * the client needs no lockd.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nfs.h>
#include <linux/nfs2.h>
#include <linux/nfs3.h>
#include <linux/nfs_mount.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suites.h"

#define RPCBIND_ABSTRACT "/run/rpcbind.sock"
#define LAST_FRAGMENT 0x80000000u

int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * One connection: record-marked calls (RFC 5531, section 11), each
 * answered by an accepted reply with an AUTH_NONE verifier.
 */
static void rpcbind_serve(int fd)
{
	__u32 mark, call[6], reply[8];
	char skip[4096];
	size_t len, rest, n;

	for (;;) {
		if (read_full(fd, &mark, 4) < 0)
			return;
		len = ntohl(mark) & ~LAST_FRAGMENT;
		/* xid, CALL, rpcvers, prog, vers, proc: then cred, verf, args */
		if (len < sizeof(call) || read_full(fd, call, sizeof(call)) < 0)
			return;
		for (rest = len - sizeof(call); rest; rest -= n) {
			n = rest < sizeof(skip) ? rest : sizeof(skip);
			if (read_full(fd, skip, n) < 0)
				return;
		}
		reply[1] = call[0];		/* xid */
		reply[2] = htonl(1);		/* REPLY */
		reply[3] = htonl(0);		/* MSG_ACCEPTED */
		reply[4] = htonl(0);		/* AUTH_NONE */
		reply[5] = htonl(0);		/* verifier length */
		reply[6] = htonl(0);		/* SUCCESS */
		reply[7] = htonl(1);		/* TRUE */
		n = call[5] ? 7 : 6;		/* NULL returns nothing */
		reply[0] = htonl(LAST_FRAGMENT | (n * 4));
		if (write(fd, reply, (n + 1) * 4) != (ssize_t)((n + 1) * 4))
			return;
	}
}

int rpcbind_stub(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t alen;
	pid_t pid;
	int s, c;

	/* sun_path[0] = '\0': the abstract name that follows it. */
	memcpy(a.sun_path + 1, RPCBIND_ABSTRACT, strlen(RPCBIND_ABSTRACT));
	alen = offsetof(struct sockaddr_un, sun_path) + 1 +
	       strlen(RPCBIND_ABSTRACT);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, alen) < 0 ||
	    listen(s, 8) < 0) {
		perror("emptylink rpcbind-stub");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("emptylink rpcbind-stub: fork");
		return 1;
	}
	if (pid > 0)
		return 0;
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		c = accept(s, NULL, NULL);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (fork() == 0) {
			close(s);
			rpcbind_serve(c);
			_exit(0);
		}
		close(c);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
}

/* knfsd's answer: "\x" and the handle in hex, for domain "local". */
int nfs_root_handle(const char *export, struct nfs3_fh *fh)
{
	char buf[2 * NFS3_FHSIZE + 64];
	unsigned int i, byte;
	ssize_t n;
	int fd;

	fd = open("/proc/fs/nfsd/filehandle", O_RDWR);
	if (fd < 0) {
		perror("/proc/fs/nfsd/filehandle");
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "local %s %d\n", export, NFS3_FHSIZE);
	if (write(fd, buf, n) != n) {
		fprintf(stderr, "knfsd has no handle for %s: %s\n", export,
			strerror(errno));
		close(fd);
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 3 || strncmp(buf, "\\x", 2)) {
		fprintf(stderr, "knfsd's handle for %s unreadable\n", export);
		return -1;
	}
	buf[n] = '\0';
	fh->size = 0;
	i = 2;
	while (fh->size < NFS3_FHSIZE && sscanf(buf + i, "%2x", &byte) == 1) {
		fh->data[fh->size++] = byte;
		i += 2;
	}
	return fh->size ? 0 : -1;
}

/* source HOST:/PATH, export the directory knfsd exports as it. */
int nfs3_mount(const char *source, const char *export, const char *dir)
{
	struct nfs_mount_data d;
	const char *colon = strchr(source, ':');

	memset(&d, 0, sizeof(d));
	if (!colon || colon - source >= (long)sizeof(d.hostname)) {
		fprintf(stderr, "emptylink nfs3-mount: no HOST:/PATH in '%s'\n",
			source);
		return 2;
	}
	if (nfs_root_handle(export, &d.root) < 0)
		return 1;
	d.version = 6;
	d.flags = NFS_MOUNT_VER3 | NFS_MOUNT_TCP | NFS_MOUNT_NONLM;
	d.timeo = 600;
	d.retrans = 2;
	d.addr.sin_family = AF_INET;
	d.addr.sin_port = htons(2049);
	memcpy(d.hostname, source, colon - source);
	if (inet_pton(AF_INET, d.hostname, &d.addr.sin_addr) != 1) {
		fprintf(stderr, "emptylink nfs3-mount: '%s' is no IPv4 address\n",
			d.hostname);
		return 2;
	}
	if (mount(source, dir, "nfs", 0, &d) < 0) {
		fprintf(stderr, "emptylink nfs3-mount %s: %s\n", source,
			strerror(errno));
		return 1;
	}
	return 0;
}
