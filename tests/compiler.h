/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's names for the compiler attributes and helpers used here,
 * which the kernel keeps in compiler_attributes.h, bits.h and friends,
 * and user space does not have.
 */
#ifndef EMPTYLINK_COMPILER_H
#define EMPTYLINK_COMPILER_H

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BIT_ULL(n)		(1ULL << (n))

#define __el_attr(...)		__attribute__((__VA_ARGS__))
#define __printf(a, b)		__el_attr(format(printf, a, b))
#define __noreturn		__el_attr(noreturn)
#define __maybe_unused		__el_attr(unused)
#define __used			__el_attr(used)
#define __section(s)		__el_attr(section(s))
#define __aligned(x)		__el_attr(aligned(x))
#define __packed		__el_attr(packed)

#endif
