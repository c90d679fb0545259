# The whole flow: packages -> kernel trees -> kernels -> guest -> boot each
# kernel (main boot, recovery boot) -> fsck on the host -> judge -> matrix.
# `make run` is the main job, `make check` the tests.  Every filesystem
# is an entry of harness/filesystems.txt; FS=... and KERNEL=... select a
# subset: make run FS="tmpfs xfs" KERNEL=patched
SHELL := /bin/sh
B := build
SRC := $(B)/src
REG := harness/registry.sh
ALL_FS := $(shell $(REG) names)
FS ?= $(ALL_FS)
KERNEL ?= vanilla patched
RESULTS := results/$(shell date +%Y%m%d-%H%M%S)
BZIMAGE = $(SRC)/$(1)/arch/x86/boot/bzImage
TEST_SRCS := $(wildcard tests/*.c tests/*.h)
# One clock for this make and the one `build` starts (it inherits T0).
ifndef EMPTYLINK_T0
export EMPTYLINK_T0 := $(shell date +%s)
endif
# The stage clock: a recipe line that starts with $(STAGE) NAME records
# NAME's wall time and status in one file per make invocation; the end
# of make run and of make check prints the table (harness/stage.sh).
export EMPTYLINK_STAGES := $(CURDIR)/$(B)/stages/$(EMPTYLINK_T0).txt
STAGE := harness/stage.sh
KEEP ?= 5

.PHONY: run check deps trees build kernels progs boots images selftest judge-test lint \
	checkpatch mail mail-test manpages-test columns-test progs-test progs-check fstests \
	bisect-check rejudge series clean \
	clean-results debug-kernel
.DEFAULT_GOAL := run
# The flow runs in the order its rules list (so that check fails fast);
# two steps run their parts side by side, each in a sub-make of its own:
# build (the kernels beside the fsck tools) and boots (make run beside
# the self-tests).
ifndef SIDE_BY_SIDE
.NOTPARALLEL:
endif

IMAGES := $(patsubst fs-images/%.img.zst,$(B)/images/%.img,$(wildcard fs-images/*.img.zst))

# The distributions' fsck tools, patched to keep empty links: one build
# per Debian source package the registry names (harness/progs.sh).
PROGS := $(patsubst %,$(B)/progs/%.built,$(shell $(REG) progs $(ALL_FS)))

# Its stages (boots, fsck, judging) and the table: harness/run-matrix.sh.
# Of the disks it keeps only those of failed cells (KEEP_DISKS=1: all).
run: deps build $(B)/initramfs.cpio $(B)/accel $(IMAGES)
	ACCEL=$$(cat $(B)/accel) harness/run-matrix.sh $(RESULTS) $(B)/initramfs.cpio \
		$(B)/images $(B)/emptylink "$(FS)" $(KERNEL)

# What needs no kernel comes first, so that a red run is red in minutes.
check: judge-test lint checkpatch mail-test manpages-test columns-test boots progs-test \
	bisect-check
	@$(STAGE) --table $(RESULTS)

# Once per make check: the sub-makes of build and boots inherit it.
deps:
ifndef SIDE_BY_SIDE
	@$(STAGE) packages harness/deps.sh
endif

# The trees live in $(SRC); the series is re-applied when patches/ changes.
trees: $(SRC)/patched.stamp
$(SRC)/patched.stamp: $(wildcard patches/[0-9]*.patch) harness/kernel-tree.sh | deps
	$(STAGE) series harness/kernel-tree.sh $(SRC)
	touch $@

# The kernels and the fsck tools build side by side: a kernel build
# leaves a core idle while it links and compresses, a tool's configure
# script is one process.  Measured in docs/measurements.md.  (In the
# sub-make of boots, BUILT: the parent has built them.)
build: deps
ifndef BUILT
	@$(MAKE) -j2 --no-print-directory SIDE_BY_SIDE=1 kernels progs
endif

progs: $(PROGS)

# Kbuild tracks its own dependencies, so both kernels are always "made".
kernels: trees
	$(STAGE) kernel/vanilla harness/kernel-build.sh $(SRC)/vanilla \
		$(B)/logs/kernel-vanilla.log
	$(STAGE) kernel/patched harness/kernel-build.sh $(SRC)/patched \
		$(B)/logs/kernel-patched.log

# The test program: the guest's observer and the host's judge.
$(B)/emptylink: $(TEST_SRCS) | deps
	@mkdir -p $(@D)
	$(STAGE) testbin gcc -static -O2 -Wall -Wextra -Wno-unused-parameter -Werror \
		-o $@ $(filter %.c,$^)

# The series' kselftest, from the patched tree (tools/testing/selftests/
# filesystems/empty_symlink), static for the guest, with the host's uapi
# headers: the guest runs it on every column with a scratch directory.
KSFT_DIR := $(SRC)/patched/tools/testing/selftests
$(B)/empty_symlink_test: $(SRC)/patched.stamp
	$(STAGE) kselftest-bin gcc -static -O2 -Wall -Werror -I$(KSFT_DIR) -o $@ \
		$(KSFT_DIR)/filesystems/empty_symlink/empty_symlink_test.c

$(B)/initramfs.cpio: $(B)/emptylink $(B)/empty_symlink_test harness/filesystems.txt harness/registry.sh fs-images/manifest.txt $(PROGS) harness/guest-init.sh harness/guest-suites.sh harness/initramfs.sh harness/cpio-empty-links.sh | build
	$(STAGE) initramfs harness/initramfs.sh $(SRC)/vanilla/usr/gen_init_cpio \
		$(B)/emptylink $(B)/progs/bin $@ $(B)/empty_symlink_test

# The prebuilt images, decompressed; each boot works on its own copy.
$(B)/images/%.img: fs-images/%.img.zst
	@mkdir -p $(@D)
	zstd -q -d -f $< -o $@

# Regenerate fs-images/*.img.zst from the filesystems' own tools, or
# where they cannot make a link, in the patched kernel (ONLY="ext2 ...").
images: $(B)/btrfs-empty-link $(B)/empty-link-shim.so $(B)/initramfs.cpio $(B)/accel | deps
	KERNEL=$(call BZIMAGE,patched) INITRD=$(B)/initramfs.cpio \
	ACCEL=$$(cat $(B)/accel) SHIM=$(CURDIR)/$(B)/empty-link-shim.so \
		fs-images/make-images.sh fs-images $(B)/btrfs-empty-link $(ONLY)

.SECONDEXPANSION:
$(B)/progs/%.built: $$(wildcard patches/$$*/*.patch) harness/progs.sh | deps
	$(STAGE) progs/$* harness/progs.sh $* $(B)/progs
	touch $@

$(B)/btrfs-empty-link: fs-images/btrfs-empty-link.c | deps
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $<

$(B)/empty-link-shim.so: fs-images/empty-link-shim.c | deps
	@mkdir -p $(@D)
	gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o $@ $< -ldl

$(B)/accel: | build
	$(STAGE) accel harness/accel.sh $(call BZIMAGE,vanilla) >$@

selftest: build $(B)/initramfs.cpio $(B)/accel $(IMAGES)
	$(STAGE) selftest ACCEL=$$(cat $(B)/accel) harness/selftest.sh \
		$(call BZIMAGE,patched) $(B)/initramfs.cpio $(B)/emptylink $(RESULTS)-selftest

# make run and the self-tests side by side: the self-tests boot one QEMU
# at a time, and make run leaves a core idle while one kernel's disks
# are checked on the host.  Same RESULTS for both, as in one make.
boots: build
	@$(MAKE) -j2 --no-print-directory SIDE_BY_SIDE=1 BUILT=1 \
		RESULTS=$(RESULTS) run selftest

# Unoptimised, gcc warns of other things: the test program builds both ways.
$(B)/emptylink-O0: $(TEST_SRCS) | deps
	@mkdir -p $(@D)
	$(STAGE) testbin-O0 gcc -static -O0 -Wall -Wextra -Wno-unused-parameter \
		-Werror -o $@ $(filter %.c,$^)

# The judge's and dmesg-check's own fixtures: no kernel, no boot.
judge-test: $(B)/emptylink $(B)/emptylink-O0
	$(STAGE) judge-test harness/judge-test.sh $(B)/emptylink

# shellcheck on every script; kernel style on the test program.
lint: trees
	$(STAGE) lint harness/lint.sh $(SRC)/vanilla

checkpatch: trees
	$(STAGE) checkpatch harness/checkpatch.sh $(SRC)/vanilla patches
	$(STAGE) checkpatch-test harness/checkpatch-test.sh $(SRC)/vanilla

# The series as mail, for git send-email (it sends nothing): To: and Cc:
# from the tree's get_maintainer.pl.  mail-test checks it in make check.
mail: trees
	harness/mail.sh $(SRC)/patched patches $(B)/outgoing
mail-test: trees
	$(STAGE) mail-test harness/mail-test.sh $(SRC)/patched

# patches/manpages on Debian's manpages: rendered without warnings, the
# project's own lint, and the text the series needs.
manpages-test: deps
	$(STAGE) manpages-test harness/manpages.sh $(B)/manpages

# Which columns the bisect check boots for a patch: no build, no boot.
columns-test: trees
	$(STAGE) columns-test harness/columns-test.sh $(SRC)

# The patched fsck tools on files on the host, no kernel: xfsprogs'
# options, and the tests the patches add to e2fsprogs' and btrfs-progs'
# suites, which must fail on the stock build and pass on the patched one.
progs-test: progs
	$(STAGE) progs-test harness/xfsprogs-test.sh $(B)/progs
	$(STAGE) e2fsprogs-suite-new harness/progs-suite.sh e2fsprogs $(B)/progs $(RESULTS)-progs new
	$(STAGE) btrfs-progs-suite-new harness/progs-suite.sh btrfs-progs $(B)/progs $(RESULTS)-progs new

# The whole suites, stock and patched, on the host; their tests that
# mount or use loop devices in a boot of the patched kernel (not in make
# check: the cost is in docs/measurements.md); totals in
# results/TIME-progs/suites.txt.
SUITE_GUEST = GUEST_KERNEL=$(call BZIMAGE,patched) GUEST_INITRD=$(B)/initramfs.cpio \
	ACCEL=$$(cat $(B)/accel)
progs-check: build $(B)/initramfs.cpio $(B)/accel
	$(STAGE) e2fsprogs-suite $(SUITE_GUEST) harness/progs-suite.sh e2fsprogs \
		$(B)/progs $(RESULTS)-progs
	$(STAGE) btrfs-progs-suite $(SUITE_GUEST) harness/progs-suite.sh btrfs-progs \
		$(B)/progs $(RESULTS)-progs

# The series' fstests test (patches/fstests/: a new generic/ test) on
# ext4, xfs and btrfs, in one boot of each kernel, with fstests' own
# ./check.  fstests is no Debian package: FSTESTS=/path/to/fstests.
# Not part of make check (docs/measurements.md has its cost).
fstests: build $(B)/initramfs.cpio $(B)/accel
	$(STAGE) fstests ACCEL=$$(cat $(B)/accel) harness/fstests.sh "$(FSTESTS)" \
		$(RESULTS)-fstests vanilla=$(call BZIMAGE,vanilla) patched=$(call BZIMAGE,patched)

# Every prefix of the series must build and boot (bisectability).
bisect-check: trees $(B)/initramfs.cpio $(B)/accel $(IMAGES)
	$(STAGE) bisect-check ACCEL=$$(cat $(B)/accel) harness/bisect-check.sh $(SRC) \
		$(B)/logs/bisect.log $(B)/initramfs.cpio $(B)/images $(RESULTS)-bisect

# Judge an archived run again, with today's tests/expected.txt: no boot.
rejudge: $(B)/emptylink trees
	harness/report.sh $(if $(filter command line,$(origin RESULTS)),$(RESULTS),results/latest) $(B)/emptylink

# The patched kernel with KASAN, lockdep, UBSAN and the filesystems'
# debugging options (harness/kernel-debug.config), in $(SRC)/debug; not
# part of make check yet (its cost: docs/measurements.md).
debug-kernel: trees
	$(STAGE) kernel/debug harness/debug-kernel.sh $(SRC) $(B)/logs/kernel-debug.log

# After changing commits in $(SRC)/patched: write them back to patches/.
series:
	harness/export-series.sh $(SRC)/patched

# Delete all runs but the newest KEEP (default 5) and results/latest's.
clean-results:
	@harness/clean-results.sh runs results $(KEEP)

clean:
	rm -rf $(B) results
