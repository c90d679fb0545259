// SPDX-License-Identifier: GPL-2.0
/*
 * One IORING_OP_SYMLINKAT through raw io_uring system calls, so the guest
 * needs no liburing: set up a ring, queue one SQE, wait for its CQE.
 */
#include <errno.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uring.h"

struct ring {
	int fd;
	struct io_uring_params p;
	void *sq, *cq;
	size_t sq_len, cq_len, sqes_len;
	struct io_uring_sqe *sqes;
};

static int ring_map(struct ring *r)
{
	struct io_uring_params *p = &r->p;

	r->sq_len = p->sq_off.array + p->sq_entries * sizeof(__u32);
	r->cq_len = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	r->sqes_len = p->sq_entries * sizeof(struct io_uring_sqe);
	r->sq = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	return 0;
}

static void ring_unmap(struct ring *r)
{
	if (r->sq && r->sq != MAP_FAILED)
		munmap(r->sq, r->sq_len);
	if (r->cq && r->cq != MAP_FAILED)
		munmap(r->cq, r->cq_len);
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, r->sqes_len);
	close(r->fd);
}

#define RING_U32(base, off) ((__u32 *)((char *)(base) + (off)))

long uring_symlinkat(const char *target, int newdfd, const char *linkpath)
{
	struct ring r;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	__u32 tail, idx, head;
	long ret;

	memset(&r, 0, sizeof(r));
	r.fd = syscall(__NR_io_uring_setup, 1, &r.p);
	if (r.fd < 0)
		return -1;
	if (ring_map(&r) < 0) {
		ring_unmap(&r);
		return -1;
	}

	tail = *RING_U32(r.sq, r.p.sq_off.tail);
	idx = tail & *RING_U32(r.sq, r.p.sq_off.ring_mask);
	sqe = &r.sqes[idx];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_SYMLINKAT;
	sqe->fd = newdfd;
	sqe->addr = (uintptr_t)target;
	sqe->addr2 = (uintptr_t)linkpath;
	RING_U32(r.sq, r.p.sq_off.array)[idx] = idx;
	__atomic_store_n(RING_U32(r.sq, r.p.sq_off.tail), tail + 1,
			 __ATOMIC_RELEASE);

	ret = syscall(__NR_io_uring_enter, r.fd, 1, 1, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	if (ret < 0) {
		ring_unmap(&r);
		return -1;
	}
	head = __atomic_load_n(RING_U32(r.cq, r.p.cq_off.head), __ATOMIC_ACQUIRE);
	cqe = (struct io_uring_cqe *)((char *)r.cq + r.p.cq_off.cqes) +
	      (head & *RING_U32(r.cq, r.p.cq_off.ring_mask));
	ret = cqe->res;
	__atomic_store_n(RING_U32(r.cq, r.p.cq_off.head), head + 1,
			 __ATOMIC_RELEASE);
	ring_unmap(&r);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}
