/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands and their options (see the comment atop emptylink.c). */
#ifndef EMPTYLINK_CLI_H
#define EMPTYLINK_CLI_H

#include "ktap.h"

/* Options; a command lists those it takes, and those it requires. */
#define O_FS		0x001
#define O_SOURCE	0x002
#define O_INDEX		0x004
#define O_BROKEN	0x008
#define O_FROM		0x010
#define O_FSCRYPT	0x020
#define O_SELFTEST	0x040
#define O_EXPECT	0x080
#define O_REGISTRY	0x100
#define O_PLAN		0x200
#define O_STRICT	0x400
/* What every KTAP-printing command takes. */
#define O_SUITE		(O_FS | O_SOURCE | O_INDEX | O_BROKEN)

struct cmdline {
	struct suite s;		/* --fs, --source, --index, --broken */
	const char *from, *expect, *registry, *plan;
	int fscrypt, selftest_fail, strict_rules;
	char **args;		/* the positional arguments */
	int nargs;
};

struct command {
	const char *name;
	const char *synopsis;	/* what follows the name in a usage line */
	int min_args, max_args;	/* positional arguments; max -1: no limit */
	unsigned int opts;	/* the options it takes */
	unsigned int required;	/* of which these must be given */
	const char *source;	/* the default --source, NULL: none */
	const char *source_from; /* the default with --from */
	int (*run)(struct cmdline *cl);
};

/*
 * Parse argv (argv[1] is the command) against cmds.  On a usage error
 * it says what is wrong on stderr and exits with status 2.
 */
const struct command *cli_parse(int argc, char **argv,
				const struct command *cmds, int ncmds,
				struct cmdline *cl);

#endif
