/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declaring a case, in the style of kselftest_harness.h: the case's name
 * and its function come from the same two tokens, so they cannot drift
 * apart, and the body follows the declaration:
 *
 *	CASE(TABLE, read, readlink, "\"\"", NEEDS_EMPTY)
 *	{
 *		char buf[64];
 *
 *		obs_link(out, readlink("e", buf, sizeof(buf)), buf);
 *	}
 *
 * defines read_readlink(c, out) and a struct tcase named "read.readlink"
 * in the section emptylink_cases.  The linker gathers the cases of every
 * file into one array between __start_emptylink_cases and
 * __stop_emptylink_cases; cases_of() picks a suite's cases out of it in
 * declaration order.  The case writes what it saw to out (OBS_LEN bytes);
 * it never decides whether that is right.
 */
#ifndef EMPTYLINK_CASES_H
#define EMPTYLINK_CASES_H

#include "compiler.h"
#include "observe.h"

enum suite_id {
	SUITE_TABLE,	/* tests/cases.c: one fresh directory per case */
	SUITE_SELFTEST,	/* a case whose want is wrong on purpose */
	SUITE_PERSIST,	/* links persist_setup() made, after a remount */
	SUITE_CRASH,	/* links crash_late() made, after log recovery */
	SUITE_CLEANUP,	/* the crash directory, removed and remounted */
	SUITE_MANIFEST,	/* run once per entry of fs-images/manifest.txt */
	SUITE_LINKS,	/* run once per PATH given on the command line */
	SUITE_ITEMS,	/* configfs: links between config items, in order */
	SUITE_WIRE,	/* knfsd: NFSv3 calls made by hand, in order */
	SUITE_KSELFTEST, /* the series' kselftest, a case per test */
};

struct record;

/* What a case runs on. */
struct ctx {
	int dfd;		/* its directory, also the cwd (or AT_FDCWD) */
	const char *path;	/* the entry or directory the suite is about */
	const char *type;	/* manifest: the entry's TYPE column */
	const struct record *rec; /* persist, crash: what setup made */
};

struct tcase {
	const char *name;	/* "group.name"; per entry "PATH:name" */
	const char *want;	/* the mission's answer; NULL: from the entry */
	enum suite_id suite;
	unsigned int needs;	/* the suite's NEEDS_* bits */
	const char *file;	/* where it is declared: the order of a suite */
	int line;
	void (*run)(const struct ctx *c, char *out);
};

/* Table: the case needs an empty link named "e" in its directory. */
#define NEEDS_EMPTY 0x1
/*
 * Manifest, links: the case is reported for every entry, whatever its
 * type, so the judge can require it of each PATH a suite names.
 */
#define EVERY_ENTRY 0x80

/*
 * aligned(): the compiler must not pad a case to a larger alignment of
 * its own, or the linker's array would have gaps between the cases.
 */
#define CASE(suite_, group, name_, want_, needs_)			\
	static void group##_##name_(const struct ctx *c, char *out);	\
	static const struct tcase group##_##name_##_case		\
	__used __section("emptylink_cases")				\
	__aligned(__alignof__(struct tcase)) = {			\
		.name = #group "." #name_,				\
		.suite = SUITE_##suite_,				\
		.want = want_,						\
		.needs = needs_,					\
		.file = __FILE__,					\
		.line = __LINE__,					\
		.run = group##_##name_,					\
	};								\
	static void group##_##name_(const struct ctx *c __maybe_unused,	\
				    char *out)

/* The linker's names for the ends of the section. */
extern const struct tcase __start_emptylink_cases[];
extern const struct tcase __stop_emptylink_cases[];

/*
 * The cases of suite in declaration order (file, then line), as a
 * malloc()ed array the caller frees; NULL when out of memory.
 */
const struct tcase **cases_of(enum suite_id suite, unsigned int *n);

/*
 * The judge's side: the case named name, not a per-entry one (manifest,
 * links), or NULL; and whether name's group (up to its first dot) is the
 * group of any case.
 */
const struct tcase *case_find(const char *name);
int case_group_known(const char *name);

/*
 * What a suite of the plan reports, the KIND of a registry "suite" line's
 * SOURCE:KIND: the cases of one suite_id, each exactly once; per entry,
 * "PATH:name" for a name of that suite's cases; or, for "observed", the
 * host's own verdicts, which declare no cases here.
 */
struct suite_kind {
	const char *name;	/* table, persist, crash, ... */
	enum suite_id suite;
	int also;		/* a second suite_id it reports whole, or -1 */
	int per_entry;		/* "PATH:name" cases */
	int declared;		/* 0: names and wants come with the results */
};

const struct suite_kind *kind_find(const char *name);
/*
 * The cases a suite of kind must report, in the order it reports them
 * (the also's first: crash.c reads the synced links before the crash's
 * own), as cases_of() does; NULL when out of memory.
 */
const struct tcase **kind_cases(const struct suite_kind *k, unsigned int *n);
/*
 * Does a suite of kind report case t?  Its suite_id's and its also's
 * cases must all be there; the self-test's case may ride on a table.
 */
int kind_has(const struct suite_kind *k, const struct tcase *t);
/*
 * For a per-entry kind: the case NAME of "PATH:NAME" if it is one of
 * its cases, else NULL.
 */
const struct tcase *kind_entry_case(const struct suite_kind *k,
				    const char *name);

/* "PATH:name" for a per-entry case: name is the part after the dot. */
void case_entry_name(char *buf, size_t size, const char *path,
		     const struct tcase *t);

#endif
