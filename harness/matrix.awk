# matrix.awk: read the judged KTAP document of one run (the output of
# `emptylink judge`: subtests named KERNEL.FS.SOURCE) and write
#   - the matrix to stdout: a row per source and case, a column per
#     filesystem and kernel, each cell the observed outcome, marked "!"
#     where it is unexpected and "~" where it is a known gap (XFAIL);
#     "skip" where the case does not apply (SKIP, with its reason); the
#     observed value marked "^" where the case never ran, as expected
#     (SKIP precondition: a set-up step failed);
#   - a JUnit XML file to the path in the variable junit.
# Exit status 1 if any case or suite was unexpected.  It only renders:
# every verdict was made by the judge.

function xml(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s)
	gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
	return s
}

function add(list, item) {
	if (!((list SUBSEP item) in seen)) {
		seen[list SUBSEP item] = 1
		order[list, ++count[list]] = item
	}
}

/^    # Subtest: / {
	split($3, p, ".")
	kernel = p[1]; fs = p[2]; src = p[3]
	add("fs", fs); add("kernel", kernel)
	next
}

/^    # [^ ]+: observed=/ {
	name = $2; sub(/:$/, "", name)
	line = $0
	sub(/^    # [^ ]+: observed=/, "", line)
	key = kernel SUBSEP fs SUBSEP src SUBSEP name
	obs[key] = substr(line, 1, index(line, " expected=") - 1)
	line = substr(line, index(line, " expected=") + 10)
	e = index(line, " -- ")
	exp_[key] = e ? substr(line, 1, e - 1) : line
	add("row", src SUBSEP name)
	next
}

# A suite that failed as a whole (it could not run, or has no result).
/^not ok [0-9]+ [^ ]+ # / {
	bad_suites = bad_suites "  " $0 "\n"
	nbad_suites++
	next
}

/^    (not )?ok [0-9]+ / {
	name = ($1 == "not") ? $4 : $3
	key = kernel SUBSEP fs SUBSEP src SUBSEP name
	if ($1 == "not")
		state[key] = "fail"
	else if (/ # XFAIL/)
		state[key] = "xfail"
	else if (/ # SKIP precondition: /) {
		state[key] = "pre"
		why[key] = $0
		sub(/.* # SKIP ?/, "", why[key])
	} else if (/ # SKIP/) {
		state[key] = "skip"
		why[key] = $0
		sub(/.* # SKIP ?/, "", why[key])
	} else
		state[key] = "pass"
	next
}

END {
	nf = count["fs"]; nk = count["kernel"]; nr = count["row"]
	printf "%-46s", "source / case"
	for (i = 1; i <= nf; i++)
		for (j = 1; j <= nk; j++) {
			h = order["fs", i] "/" order["kernel", j]
			w[i, j] = length(h) > 14 ? length(h) : 14
			printf " %-" w[i, j] "s", h
		}
	printf "\n"
	bad = 0; npass = 0; nxfail = 0; nskip = 0; npre = 0
	for (r = 1; r <= nr; r++) {
		split(order["row", r], rk, SUBSEP)
		printf "%-46s", rk[1] " " rk[2]
		for (i = 1; i <= nf; i++) {
			for (j = 1; j <= nk; j++) {
				key = order["kernel", j] SUBSEP order["fs", i] SUBSEP rk[1] SUBSEP rk[2]
				st = state[key]
				if (!(key in obs))
					cell = "."
				else if (st == "skip")
					cell = "skip"
				else if (st == "pre")
					cell = obs[key] "^"
				else
					cell = obs[key] (st == "pass" ? "" : (st == "xfail" ? "~" : "!"))
				if (st == "fail" || ((key in obs) && st == "")) {
					bad++
					diffs = diffs sprintf("  %s/%s %s %s: observed %s, expected %s\n",
						order["fs", i], order["kernel", j], rk[1], rk[2], obs[key], exp_[key])
				} else if (st == "xfail") {
					nxfail++
				} else if (st == "pre") {
					npre++
				} else if (st == "skip") {
					nskip++
				} else if (st == "pass") {
					npass++
				}
				printf " %-" w[i, j] "s", cell
			}
		}
		printf "\n"
	}
	printf "\n(. not run here, ! unexpected, ~ known gap, ^ never ran: its set-up failed as expected,\n skip: does not apply; see tests/expected.txt)\n"
	if (diffs != "")
		printf "\nUnexpected results:\n%s", diffs
	if (bad_suites != "")
		printf "\nSuites that failed as a whole:\n%s", bad_suites
	bad += nbad_suites
	if (npass + nxfail + nskip + npre + bad == 0) {
		printf "\nNo case ran at all.\n"
		bad = 1
	}
	printf "\n%d cases as expected, %d known gaps, %d never ran (precondition), %d skipped (does not apply), %d unexpected\n",
		npass, nxfail, npre, nskip, bad
	printf "matrix: %d passed, %d failed, %d skipped\n", npass, bad, nxfail + npre + nskip

	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"emptylink\">\n" > junit
	for (j = 1; j <= nk; j++) for (i = 1; i <= nf; i++) {
		k = order["kernel", j]; f = order["fs", i]
		printf "  <testsuite name=\"%s.%s\">\n", k, f > junit
		for (r = 1; r <= nr; r++) {
			split(order["row", r], rk, SUBSEP)
			key = k SUBSEP f SUBSEP rk[1] SUBSEP rk[2]
			if (!(key in obs))
				continue
			printf "    <testcase classname=\"%s.%s.%s\" name=\"%s\">", k, f, rk[1], xml(rk[2]) > junit
			if (state[key] == "fail" || state[key] == "")
				printf "<failure message=\"observed %s, expected %s\"/>", xml(obs[key]), xml(exp_[key]) > junit
			else if (state[key] == "xfail")
				printf "<skipped message=\"known gap: observed %s\"/>", xml(obs[key]) > junit
			else if (state[key] == "skip" || state[key] == "pre")
				printf "<skipped message=\"%s\"/>", xml(why[key]) > junit
			printf "</testcase>\n" > junit
		}
		printf "  </testsuite>\n" > junit
	}
	printf "</testsuites>\n" > junit
	exit bad ? 1 : 0
}
