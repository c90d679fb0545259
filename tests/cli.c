// SPDX-License-Identifier: GPL-2.0
/* Parsing "emptylink COMMAND ARGS... OPTIONS...". */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compiler.h"

static const struct {
	unsigned int bit;
	struct option opt;
} options[] = {
	{ O_FS, { "fs", required_argument, NULL, 0 } },
	{ O_SOURCE, { "source", required_argument, NULL, 0 } },
	{ O_INDEX, { "index", required_argument, NULL, 0 } },
	{ O_BROKEN, { "broken", required_argument, NULL, 0 } },
	{ O_FROM, { "from", required_argument, NULL, 0 } },
	{ O_FSCRYPT, { "fscrypt", no_argument, NULL, 0 } },
	{ O_SELFTEST, { "selftest-fail", no_argument, NULL, 0 } },
	{ O_EXPECT, { "expect", required_argument, NULL, 0 } },
	{ O_REGISTRY, { "registry", required_argument, NULL, 0 } },
	{ O_PLAN, { "plan", required_argument, NULL, 0 } },
	{ O_STRICT, { "strict-rules", no_argument, NULL, 0 } },
};

#define NR_OPTIONS ((int)ARRAY_SIZE(options))

static const char *opt_name(unsigned int bit)
{
	int i;

	for (i = 0; i < NR_OPTIONS; i++)
		if (options[i].bit & bit)
			return options[i].opt.name;
	return "?";
}

static void usage_list(FILE *f, const struct command *cmds, int ncmds)
{
	int i;

	fprintf(f, "usage:\n");
	for (i = 0; i < ncmds; i++)
		fprintf(f, "  emptylink %s %s\n", cmds[i].name,
			cmds[i].synopsis);
}

static __noreturn __printf(2, 3) void fail(const struct command *cmd,
					   const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "emptylink%s%s: ", cmd ? " " : "",
		cmd ? cmd->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "\nusage: emptylink %s %s\n", cmd->name,
			cmd->synopsis);
	else
		fputc('\n', stderr);
	exit(2);
}

static int parse_index(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > INT_MAX)
		return -1;
	return v;
}

/* Store the value of the option with bit in cl. */
static void set_option(const struct command *cmd, struct cmdline *cl,
		       unsigned int bit, const char *arg)
{
	if (arg && (!*arg || !strncmp(arg, "--", 2)))
		fail(cmd, "--%s wants a value, not '%s'", opt_name(bit), arg);
	if (bit == O_FS)
		cl->s.fs = arg;
	else if (bit == O_SOURCE)
		cl->s.source = arg;
	else if (bit == O_BROKEN)
		cl->s.broken = arg;
	else if (bit == O_FROM)
		cl->from = arg;
	else if (bit == O_EXPECT)
		cl->expect = arg;
	else if (bit == O_REGISTRY)
		cl->registry = arg;
	else if (bit == O_PLAN)
		cl->plan = arg;
	else if (bit == O_FSCRYPT)
		cl->fscrypt = 1;
	else if (bit == O_SELFTEST)
		cl->selftest_fail = 1;
	else if (bit == O_STRICT)
		cl->strict_rules = 1;
	else if (bit == O_INDEX)
		cl->s.index = parse_index(arg);
	if (bit == O_INDEX && cl->s.index < 1)
		fail(cmd, "--index wants a number >= 1, not '%s'", arg);
}

static const struct command *find(const char *name,
				  const struct command *cmds, int ncmds)
{
	int i;

	for (i = 0; i < ncmds; i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

const struct command *cli_parse(int argc, char **argv,
				const struct command *cmds, int ncmds,
				struct cmdline *cl)
{
	struct option longopts[NR_OPTIONS + 1];
	const struct command *cmd;
	unsigned int seen = 0, missing;
	int c, i, idx;

	memset(cl, 0, sizeof(*cl));
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage_list(argc < 2 ? stderr : stdout, cmds, ncmds);
		exit(argc < 2 ? 2 : 0);
	}
	cmd = find(argv[1], cmds, ncmds);
	if (!cmd) {
		fprintf(stderr, "emptylink: unknown command '%s'\n", argv[1]);
		usage_list(stderr, cmds, ncmds);
		exit(2);
	}
	for (i = 0; i < NR_OPTIONS; i++)
		longopts[i] = options[i].opt;
	memset(&longopts[NR_OPTIONS], 0, sizeof(longopts[0]));
	opterr = 0;
	optind = 1;
	/*
	 * getopt sees the command as its argv[0].  After an unknown option
	 * or a missing value, optind is past it: argv[optind] is the word.
	 */
	while ((c = getopt_long(argc - 1, argv + 1, ":", longopts, &idx)) !=
	       -1) {
		if (c == '?')
			fail(cmd, "unknown option '%s'", argv[optind]);
		if (c == ':')
			fail(cmd, "option '%s' wants a value", argv[optind]);
		if (!(cmd->opts & options[idx].bit))
			fail(cmd, "--%s is not an option of %s",
			     options[idx].opt.name, cmd->name);
		if (seen & options[idx].bit)
			fail(cmd, "--%s given twice", options[idx].opt.name);
		seen |= options[idx].bit;
		set_option(cmd, cl, options[idx].bit, optarg);
	}
	missing = cmd->required & ~seen;
	if (missing)
		fail(cmd, "--%s is required", opt_name(missing));
	if (!cl->s.source)
		cl->s.source = cl->from ? cmd->source_from : cmd->source;
	if ((cmd->opts & O_SOURCE) && !cl->s.source)
		fail(cmd, "--source is required");
	cl->args = argv + 1 + optind;
	cl->nargs = argc - 1 - optind;
	if (cl->nargs < cmd->min_args)
		fail(cmd, "too few arguments");
	if (cmd->max_args >= 0 && cl->nargs > cmd->max_args)
		fail(cmd, "unexpected argument '%s'",
		     cl->args[cmd->max_args]);
	return cmd;
}
