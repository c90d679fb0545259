/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EMPTYLINK_URING_H
#define EMPTYLINK_URING_H

/* symlinkat(2) issued as IORING_OP_SYMLINKAT: 0, or -1 with errno set. */
long uring_symlinkat(const char *target, int newdfd, const char *linkpath);

#endif
