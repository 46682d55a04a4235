# Clang PGO for Linux: build, boot and judge the kernel feature in this repo.
#
#   make run            the whole PGO cycle on the embedded QEMU default
#   make bench          make run (and with LTO=thin), then what PGO costs and pays
#   make test           every test (host tests, kernel build, guest tests)
#   make coverage       the coverage kernel: llvm-cov reports of vmlinux and modules
#   make kernel         overlay + patch the base tree and build it
#   make apply KSRC=..  apply our files and patches to your own 6.12 or 7.3 tree
#   make patch          one diff of everything against the pristine base
#
# Knobs: ARCH=arm64 (kernel, boot and guest-test; default x86_64), LTO=thin (every kernel with ThinLTO), LLVM_VERSION=19, HOST_LLVM_VERSIONS='13 14 15 16 19 22', EXTRA_CONFIG=frag.config (EXTRA_CONFIG_ARM64 for make test's arm64 part), EXTRA_MODULES=dir ...
#        RUN_NOVP=1 (make run: also the PGO kernel without value profiles), RUN_INSTR=1 (make run: also the instrumented kernel measured), RUN_BOOTS=5 (make run: boots of each measured kernel), GUEST_SCRIPT=script.sh, QEMU_SMP=2 (the test guests; make run's and make bench's
#        measured boots run 1 vCPU under -icount, whose counts need one), QEMU_MEM=1G

LLVM_VERSION	?= 19
SHELL		:= /bin/bash
TOP		:= $(CURDIR)

# The kernel base (tests/kernel-versions): KVER=6.12, the long-term kernel
# users run (Debian trixie's), is the default of every target; KVER=7.3,
# mainline, is what maintainers take the series against.  Each base has
# its series in patches/<KVER>/ and keeps everything it builds apart:
# under build/ for 6.12, under build/<KVER>/ for another base.
KVER		?= 6.12
ifeq ($(shell awk -v k='$(KVER)' '$$1 == k { print "ok" }' $(TOP)/tests/kernel-versions),)
$(error KVER=$(KVER): the harness knows $(shell awk '!/^\#/ { print $$1 }' $(TOP)/tests/kernel-versions))
endif
BUILD		:= $(TOP)/build$(if $(filter-out 6.12,$(KVER)),/$(KVER))
BASE		:= $(BUILD)/base
STAGE		:= $(BUILD)/stage
SRC		:= $(BUILD)/src

# The guest's architecture.  x86_64 is what make run, bench, coverage and
# the torture use; ARCH=arm64 cross-builds with clang (no cross gcc) and
# boots qemu-system-aarch64's virt machine, in directories of its own.
ARCH		?= x86_64
ifneq ($(filter x86 x86_64,$(ARCH)),)
override ARCH	:= x86_64
ARCH_SFX	:=
KIMAGE		:= bzImage
KIMAGE_PATH	:= arch/x86/boot/bzImage
QEMU_CONFIG	:= tests/qemu/qemu.config tests/qemu/lean.config
else ifeq ($(ARCH),arm64)
ARCH_SFX	:= -arm64
KIMAGE		:= Image
KIMAGE_PATH	:= arch/arm64/boot/Image
QEMU_CONFIG	:= tests/qemu/qemu-arm64.config tests/qemu/lean.config
else
$(error ARCH=$(ARCH): the harness knows x86_64 and arm64)
endif
export GUEST_ARCH := $(ARCH)

# LTO=thin: every kernel the harness builds (make kernel, guest-test, the
# three of make run) with CONFIG_LTO_CLANG_THIN, in directories of their
# own (-thinlto).  The profile sections, objtool on vmlinux.o and
# CLANG_PGO_PROFILE then all go through the LTO link.  make test, coverage,
# torture and bench build directories of their own: they refuse it.
LTO		?=
ifeq ($(LTO),thin)
LTO_SFX		:= -thinlto
LTO_CONFIG	:= tests/qemu/lto-thin.config
else ifeq ($(LTO),)
LTO_SFX		:=
LTO_CONFIG	:=
else
$(error LTO=$(LTO): the harness knows LTO=thin)
endif
# Build directories: architecture, then LTO, then LLVM version.
DIR_SFX		:= $(ARCH_SFX)$(LTO_SFX)
ifneq ($(LTO),)
ifneq ($(filter test coverage% torture% bench% realconfig% series% matrix,$(MAKECMDGOALS)),)
$(error LTO=$(LTO): not for make $(MAKECMDGOALS), whose build directories have no LTO suffix (make bench runs make run LTO=thin itself))
endif
endif

OBJ		:= $(BUILD)/obj$(DIR_SFX)-$(LLVM_VERSION)
OUT		:= $(BUILD)/out$(DIR_SFX)-$(LLVM_VERSION)
NPROC		:= $(shell nproc)
QEMU_SMP	?= 2
QEMU_MEM	?= 1G
EXTRA_CONFIG	?=
# make test's arm64 part takes this one, not EXTRA_CONFIG (x86_64's).
EXTRA_CONFIG_ARM64 ?=
EXTRA_MODULES	?=
GUEST_SCRIPT	?=

# The pieces of a kernel tree we add, at their kernel paths.
OVERLAY_DIRS	:= kernel/pgo include/linux Documentation/ABI/testing \
		   Documentation/dev-tools scripts/pgo tools/testing/selftests/pgo
OVERLAY_FILES	:= $(shell cd $(TOP) && find $(OVERLAY_DIRS) -type f 2>/dev/null)
PATCH_DIR	:= patches/$(KVER)
PATCHES		:= $(addprefix $(PATCH_DIR)/,$(shell cat $(TOP)/$(PATCH_DIR)/series))

export CCACHE_DIR ?= $(HOME)/.cache/ccache
# A miss compiles once: ccache hashes the includes that the compiler's
# -MMD lists instead of running the preprocessor first (a fifth of a cold
# kernel's CPU time).  Entries made either way serve both.
export CCACHE_DEPEND ?= 1
# ccache keys instrumented compilations by their directory: the kernel
# builds see $(BUILD) through one fixed path, whatever the clone's
# (tests/ccache-cc), so that CI's clone finds this one's objects.
export CCACHE_BASEDIR ?= $(BUILD)
export PGO_BUILD := $(BUILD)
export PGO_CCACHE_ALIAS ?= $(HOME)/.cache/pgo-linux-build
KMAKE		= $(MAKE) -C $(SRC) O=$(OBJ) ARCH=$(ARCH) LLVM=-$(LLVM_VERSION) \
		  CC="$(TOP)/tests/ccache-cc clang-$(LLVM_VERSION)" -j$(NPROC) $(KMAKE_EXTRA)
KMAKE_EXTRA	?=

# The clangs the host's Debian suite packages (tests/llvm-versions): 13,
# 14, 15, 16, 19, 22 on bookworm, 17, 18, 19, 22 on trixie.
HOST_SUITE	:= $(shell $(TOP)/tests/host-suite.sh)
HOST_SUITE_LLVM	:= $(shell awk -v s='$(HOST_SUITE)' '!/^\#/ { for (i = 3; i <= NF; i++) \
			if ($$i == s) print $$1 }' $(TOP)/tests/llvm-versions)
# The suite's gcc, whose arm64 cross libgcc the arm64 guest's programs link.
HOST_GCC	:= $(if $(filter bookworm,$(HOST_SUITE)),12,14)
# host-llvm-other-raw N: those of them whose raw version is not clang N's.
host-llvm-other-raw = $(shell awk -v s='$(HOST_SUITE)' -v n='$(1)' \
	'!/^\#/ { raw[$$1] = $$2; for (i = 3; i <= NF; i++) if ($$i == s) ok[$$1] = 1 } \
	END { for (c = 1; c < 100; c++) if (ok[c] && raw[c] != raw[n]) print c }' \
	$(TOP)/tests/llvm-versions)

DEB_PKGS	= clang-$(LLVM_VERSION) lld-$(LLVM_VERSION) llvm-$(LLVM_VERSION) \
		  qemu-system-x86 busybox-static $(if $(filter 6.12,$(KVER)),linux-source-6.12) ccache \
		  bc flex bison libelf-dev libssl-dev cpio kmod rsync \
		  python3 gcc libc6-dev make xz-utils udev mount patch perl \
		  sparse shellcheck python3-sphinx python3-yaml valgrind \
		  $(if $(ARCH_SFX),qemu-system-arm libc6-dev-arm64-cross \
		  libgcc-$(HOST_GCC)-dev-arm64-cross,clang-$(XVER_LLVM))

.PHONY: all deps run run-report test kernel tree apply patch clean host-test guest-test docs \
	check-vmlinux initramfs boot ext-modules build-test run-train run-instr matrix

all: kernel

# ---------------------------------------------------------------- deps
# apt-install-missing PKGS: install those of PKGS that are not installed.
apt-install-missing = \
	missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

deps: $(BUILD)/.deps$(ARCH_SFX)-$(LLVM_VERSION)
$(BUILD)/.deps$(ARCH_SFX)-$(LLVM_VERSION):
	@mkdir -p $(BUILD)
	@$(call apt-install-missing,$(DEB_PKGS))
	@$(if $(ARCH_SFX),$(MAKE) --no-print-directory $(BUILD)/arm64/bin/busybox)
	@touch $@

# arm64's static busybox, from Debian's arm64 package (multiarch), for the
# initramfs; not installed, as it would replace the host's.
$(BUILD)/arm64/bin/busybox:
	dpkg --print-foreign-architectures | grep -qx arm64 || \
		{ dpkg --add-architecture arm64 && apt-get update -qq; }
	rm -rf $(BUILD)/arm64 && mkdir -p $(BUILD)/arm64/deb
	cd $(BUILD)/arm64/deb && apt-get download -qq busybox-static:arm64 2>/dev/null
	dpkg-deb -x $(BUILD)/arm64/deb/busybox-static_*.deb $(BUILD)/arm64
	@# In /bin up to bookworm, in /usr/bin from trixie on (merged /usr).
	[ -e $@ ] || { mkdir -p $(@D) && cp $(BUILD)/arm64/usr/bin/busybox $@; }
	test -x $@

# ---------------------------------------------------------------- tree
# The pristine base: whatever $(KVER).y Debian serves (tests/fetch-source.sh).
$(BASE)/.stamp: | deps
	rm -rf $(BASE)
	tests/fetch-source.sh $(KVER) $(BASE)
	touch $@

# apply: our files and the series onto $(KSRC).  Exported so a user can
# run it on their own tree: the series is the one of the tree's version
# (patches/<VERSION.PATCHLEVEL>/), whatever KVER says.
ksrc-version = $(shell awk '/^VERSION =/ { v = $$3 } /^PATCHLEVEL =/ { p = $$3 } \
	END { if (v != "") print v "." p }' $(KSRC)/Makefile 2>/dev/null)
apply:
	@v='$(ksrc-version)'; \
	if [ -z "$$v" ]; then echo "usage: make apply KSRC=/path/to/linux (a kernel tree)" >&2; exit 1; fi; \
	if [ ! -f $(TOP)/patches/$$v/series ]; then \
		echo "apply: $(KSRC) is Linux $$v; this repo has series for $$(ls $(TOP)/patches | tr '\n' ' ')(patches/)" >&2; \
		exit 1; fi; \
	TOP='$(TOP)' OVERLAY_FILES='$(OVERLAY_FILES)' \
	PATCHES="$$(sed "s,^,patches/$$v/," $(TOP)/patches/$$v/series | tr '\n' ' ')" \
		$(TOP)/tests/apply.sh "$(KSRC)"

# The build tree gets only files whose content changed, so that
# incremental builds stay incremental.
$(SRC)/.stamp: $(BASE)/.stamp $(OVERLAY_FILES) $(PATCHES) $(PATCH_DIR)/series
	rm -rf $(STAGE) && cp -al $(BASE) $(STAGE)
	$(MAKE) --no-print-directory apply KSRC=$(STAGE)
	mkdir -p $(SRC) && rsync -rl --checksum --delete $(STAGE)/ $(SRC)/
	rm -rf $(STAGE)
	touch $@

patch: $(BASE)/.stamp
	rm -rf $(STAGE) && cp -al $(BASE) $(STAGE)
	$(MAKE) --no-print-directory apply KSRC=$(STAGE)
	@# git's diff keeps file modes (the scripts' exec bits); git apply and
	@# GNU patch both take it.
	cd $(BUILD) && (git diff --no-index --no-prefix base stage; true) \
		| sed -e 's,^diff --git base/\([^ ]*\) stage/,diff --git a/\1 b/,' \
		      -e 's,^--- base/,--- a/,' -e 's,^+++ stage/,+++ b/,' \
		> $(BUILD)/clang-pgo.patch
	rm -rf $(STAGE)
	@echo "wrote $(BUILD)/clang-pgo.patch"

# ---------------------------------------------------------------- docs
# make docs: Documentation/dev-tools/ (pgo.rst with it) as HTML, by the
# kernel's own Sphinx build; make check runs the same build and fails on a
# warning from our files.
# 6.12's htmldocs writes pages into the source tree, which its cleandocs
# removes (with its output: the HTML is copied out first).
docs: deps tree
	+tests/build/htmldocs.sh $(SRC) $(BUILD)/docs.tmp $(BUILD)/docs.log dev-tools $(BUILD)/docs || \
		{ tail -n 20 $(BUILD)/docs.log; exit 1; }
	@echo "docs: $(BUILD)/docs/dev-tools/pgo.html (log: $(BUILD)/docs.log)"

# ---------------------------------------------------------------- kernel
PGO_CONFIG	?= tests/qemu/pgo.config
# What systemd-udevd needs (NET, UNIX, ...), for the retention suite; the
# coverage kernel, whose guest runs no udevd, goes without.
UDEV_CONFIG	?= tests/qemu/udev.config
CONFIGS		:= $(QEMU_CONFIG) $(UDEV_CONFIG) $(PGO_CONFIG) \
		   $(LTO_CONFIG) $(EXTRA_CONFIG)
# abs-paths FILES: relative ones taken from the repository's top.
abs-paths	= $(foreach f,$(1),$(if $(filter /%,$(f)),$(f),$(TOP)/$(f)))

$(OBJ)/.config: $(SRC)/.stamp $(CONFIGS)
	mkdir -p $(OBJ)
	$(KMAKE) tinyconfig >/dev/null
	cd $(SRC) && scripts/kconfig/merge_config.sh -m -O $(OBJ) \
		$(OBJ)/.config $(call abs-paths,$(CONFIGS)) >/dev/null
	$(KMAKE) olddefconfig >/dev/null
	@# What the fragments ask for (y, m, or not set), the last one of each
	@# option winning.
	@# An option the base does not have (the fragments serve 6.12 and
	@# 7.3: 7.3 renamed PROC_SYSCTL to SYSCTL) is named and skipped.
	@for f in $(call abs-paths,$(CONFIGS)); do grep -hE '^CONFIG_|^# CONFIG_.* is not set' $$f; done | \
	sed -E 's/^# (CONFIG_[A-Za-z0-9_]*) is not set/\1=n/' | \
	awk -F= '{ v[$$1] = $$0; o[$$1] = NR } END { for (k in v) print o[k], v[k] }' | \
	sort -n | cut -d' ' -f2- | grep -E '=[ymn]$$' | \
	while read -r opt; do case $$opt in \
		*=n) grep -qE "^$${opt%=n}=[ym]$$" $@ || continue ;; \
		*) grep -qx "$$opt" $@ && continue ;; esac; \
		sym=$${opt%%=*}; sym=$${sym#CONFIG_}; \
		if ! grep -rqE "^[[:space:]]*(menu)?config[[:space:]]+$$sym\b" --include='Kconfig*' $(SRC); then \
			echo "config: $$opt: not an option of Linux $(KVER), skipped"; continue; fi; \
		echo "config: $$opt did not stick" >&2; exit 1; done

tree: $(SRC)/.stamp

# The log of a build that compiled something is also kept as
# build-compiled.log, which a build that compiled nothing (re-measuring a
# kernel) leaves alone: run-report counts the profile warnings in it.  A
# build that compiled some objects only (a source edited since the last
# training) replaces it with its own; make run retrains, and a new profile
# rebuilds every object that uses it.
keep-compiled-log = if grep -q '^  CC ' $(1); then cp $(1) $(1:.log=-compiled.log) || exit 1; fi

# While it builds, a line a minute: how many objects so far, and the log.
kernel: $(OBJ)/.config
	@echo "building Linux $$(cd $(SRC) && $(MAKE) -s kernelversion) with clang-$(LLVM_VERSION) in $(OBJ) (log: $(OBJ)/build.log)"
	@start=$$(date +%s); \
	{ while sleep 60 >/dev/null 2>&1; do echo "  $$(( $$(date +%s) - start )) s: $$(grep -c '^  CC ' $(OBJ)/build.log) objects compiled so far ($(OBJ)/build.log)"; done & }; \
	prog=$$!; \
	$(KMAKE) $(KIMAGE) modules > $(OBJ)/build.log 2>&1; rc=$$?; \
	kill $$prog 2>/dev/null; \
	if [ $$rc != 0 ]; then grep -E 'error|Error' $(OBJ)/build.log | head -40; \
		tail -30 $(OBJ)/build.log; exit 1; fi; \
	$(call keep-compiled-log,$(OBJ)/build.log); \
	echo "kernel built in $$(( $$(date +%s) - start )) s: $$(tests/build/warnings.sh $(OBJ)/build.log)"

# ---------------------------------------------------------------- guest
# Out-of-tree modules (ours and EXTRA_MODULES), built with M= against the
# instrumented tree, in a copy under build/ so the sources stay clean.
TEST_MODULES	:= tools/testing/selftests/pgo/test_modules
# Modules of the harness only: a non-GPL stand-in for vendor modules, a
# module notifier that runs a going module's code.
HARNESS_MODULES	:= tests/modules/nongpl tests/modules/going
EXT		:= $(BUILD)/ext$(DIR_SFX)-$(LLVM_VERSION)

# On x86_64, the test module is also built as pgo_test_bfd, linked by GNU
# ld (the host's binutils) instead of ld.lld: its profile must hold every
# function all the same; and as pgo_test_xver, by another clang whose raw
# version differs from the kernel's: modpost must refuse it (xver/refused.log),
# and, built anyway with KBUILD_MODPOST_WARN=1, it must load unprofiled, with
# a log line naming both versions (tests/check-modules.sh).
# Both for IR kernels only (the coverage kernel's flags are not clang 16's),
# pgo_test_bfd not for an LTO kernel: its modules' objects are LLVM bitcode
# that only ld.lld links (HAS_LTO_CLANG depends on LD_IS_LLD), and its
# KBUILD_LDFLAGS hold -mllvm options, which GNU ld reads as -m llvm.
# The other clang's warnings are not errors (CONFIG_WERROR, as in
# defconfig): clang 16 warns of unused variables in 7.3's guard() (in
# sched.h and file_ref.h) where the kernel's clang does not, and this
# module tests loading, not the older compiler's warnings.
BFD_EXT		:= $(if $(filter x86_64,$(ARCH)),$(EXT)/bfd)
XVER_LLVM	?= $(lastword $(call host-llvm-other-raw,$(LLVM_VERSION)))
XVER_EXT	= $(if $(filter x86_64,$(ARCH)),$(if $(XVER_LLVM),$(EXT)/xver))
IR_KERNEL	= grep -qx CONFIG_PGO_CLANG_IR=y $(OBJ)/.config
LTO_KERNEL	= grep -qx CONFIG_LTO_CLANG=y $(OBJ)/.config
ext-modules: kernel
	@for d in $(TEST_MODULES) $(HARNESS_MODULES) $(EXTRA_MODULES); do \
		o=$(EXT)/$$(basename $$d); mkdir -p $$o; cp -a $$d/. $$o/; \
		$(KMAKE) M=$$o modules > $$o/build.log 2>&1 || \
			{ tail -20 $$o/build.log; exit 1; }; \
		$(call keep-compiled-log,$$o/build.log); \
		echo "module: built $$(cd $$o && ls *.ko)"; \
	done
	@$(if $(BFD_EXT),$(IR_KERNEL) || exit 0; \
		! $(LTO_KERNEL) || { rm -rf $(BFD_EXT); echo "module: pgo_test_bfd not built:" \
			"an LTO kernel's modules only ld.lld links"; exit 0; }; \
		o=$(BFD_EXT); mkdir -p $$o; \
		cp $(TEST_MODULES)/pgo_test_module.c $$o/; \
		printf 'obj-m += pgo_test_bfd.o\npgo_test_bfd-y := pgo_test_module.o\n' > $$o/Makefile; \
		$(KMAKE) M=$$o LD=ld.bfd modules > $$o/build.log 2>&1 || \
			{ tail -20 $$o/build.log; exit 1; }; \
		echo "module: built pgo_test_bfd.ko with $$(ld.bfd --version | head -1)")
	@$(if $(XVER_EXT),$(IR_KERNEL) || exit 0; o=$(XVER_EXT); mkdir -p $$o; \
		cp $(TEST_MODULES)/pgo_test_module.c $$o/; \
		printf 'obj-m += pgo_test_xver.o\npgo_test_xver-y := pgo_test_module.o\n' > $$o/Makefile; \
		! $(MAKE) -C $(SRC) O=$(OBJ) ARCH=$(ARCH) LLVM=-$(LLVM_VERSION) \
			CC=clang-$(XVER_LLVM) CFLAGS_MODULE=-Wno-error \
			M=$$o modules > $$o/refused.log 2>&1 || \
			{ echo "module: modpost did not refuse pgo_test_xver (clang-$(XVER_LLVM))"; exit 1; }; \
		$(MAKE) -C $(SRC) O=$(OBJ) ARCH=$(ARCH) LLVM=-$(LLVM_VERSION) \
			CC=clang-$(XVER_LLVM) CFLAGS_MODULE=-Wno-error \
			KBUILD_MODPOST_WARN=1 M=$$o modules > $$o/build.log 2>&1 || \
			{ tail -20 $$o/build.log; exit 1; }; \
		echo "module: built pgo_test_xver.ko with clang-$(XVER_LLVM)")
	@$(if $(XVER_LLVM),,$(IR_KERNEL) && [ $(ARCH) = x86_64 ] && \
		echo "module: pgo_test_xver not built: $(HOST_SUITE) has no clang of another raw version (XVER_LLVM=)" || true)

GUEST_DIR	?= tests/guest

initramfs: ext-modules
	GUEST_DIR=$(GUEST_DIR) tests/qemu/mkinitramfs.sh $(OUT)/initramfs.cpio.gz $(OBJ) \
		$(LLVM_VERSION) "$(GUEST_SCRIPT)" $(EXT)

# BOOT_APPEND: more kernel parameters.
BOOT_APPEND	?=
boot: initramfs
	tests/qemu/run-qemu.sh $(OBJ)/$(KIMAGE_PATH) \
		$(OUT)/initramfs.cpio.gz $(OUT)/guest $(QEMU_SMP) $(QEMU_MEM) \
		"$(BOOT_APPEND)"

# ---------------------------------------------------------------- tests
# The serializer and runtime, built in userspace, against compiler-rt and
# llvm-profdata/llvm-cov of every LLVM version we support.
HOST_LLVM_VERSIONS ?= $(HOST_SUITE_LLVM)

# 22@18, 22@23: clang 22 builds for clang 18's and 23's raw layouts
# (versions 9 and 11), from Debian's libclang-common-N-dev header.
# The fuzzer runs HOST_FUZZ_SECONDS on the newest of HOST_LLVM_VERSIONS for
# each raw version they write, then on 22@18 and 22@23: on bookworm 13, 16,
# 22, 22@18 and 22@23 (raw 7, 8, 10, 9, 11), 150 s in all.
# tests/check-versions.py checks that every raw version is there.
HOST_FUZZ_SECONDS ?= 30
HOST_FUZZ_VERSIONS = $(shell awk -v want='$(HOST_LLVM_VERSIONS)' \
	'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 } \
	!/^\#/ && ok[$$1] { last[$$2] = $$1 } \
	END { for (r = 1; r < 100; r++) if (r in last) print last[r] }' \
	$(TOP)/tests/llvm-versions) 22@18 22@23

.PHONY: host-fuzz-versions
host-fuzz-versions:
	@echo $(HOST_FUZZ_VERSIONS)

host-test: deps
	tests/check-versions.py
	tests/host/run.sh $(HOST_LLVM_VERSIONS)
	tests/host/crafted/run.sh $(HOST_LLVM_VERSIONS) 22@18 22@23
	tests/host/fuzz/run.sh --seconds $(HOST_FUZZ_SECONDS) $(HOST_FUZZ_VERSIONS)
	tests/host/scripts.sh

# The host tests with every clang Debian packages (tests/llvm-versions),
# those of other suites in minimal roots of them (tests/host/matrix.sh).
.PHONY: host-matrix
host-matrix:
	tests/host/matrix.sh $(HOST_MATRIX_VERSIONS)

# libFuzzer on the check, runtime, writer, reset and retention
# (tests/host/fuzz/run.sh), FUZZ_SECONDS per clang version, every raw
# version as make host-test (HOST_FUZZ_VERSIONS).
FUZZ_SECONDS ?= 600
FUZZ_VERSIONS ?= $(HOST_FUZZ_VERSIONS)

.PHONY: fuzz
fuzz:
	tests/host/fuzz/run.sh --seconds $(FUZZ_SECONDS) $(FUZZ_VERSIONS)

# Checks of the build itself (e.g. an unknown LLVM raw version stops it).
# make test runs them beside the guest suites once the kernel is built
# (BUILD_TEST_KERNEL=): they must not run kbuild in its directory again.
BUILD_TEST_KERNEL ?= kernel
build-test: $(BUILD_TEST_KERNEL)
	tests/build/future-llvm.sh $(SRC) $(OBJ) $(LLVM_VERSION)
	tests/build/sections-negative.sh $(LLVM_VERSION)
	tests/build/clean.sh $(SRC) $(LLVM_VERSION) $(call abs-paths,$(CONFIGS))
	TOP='$(TOP)' OVERLAY_FILES='$(OVERLAY_FILES)' PATCHES='$(PATCHES)' \
		tests/build/apply.sh $(BASE)

guest-test: boot
	tests/check-guest.sh $(LLVM_VERSION) $(OBJ) $(OUT)/guest
	tests/build/pgo-use.sh $(SRC) $(OBJ) $(LLVM_VERSION) $(OUT)/guest \
		$(TEST_MODULES) $(BUILD)/pgo-use$(DIR_SFX)-$(LLVM_VERSION)

ifeq ($(ARCH),x86_64)
# make test: tests/make-test.sh runs the stages below in three lanes and
# prints a table of their times.  One x86_64 kernel, the instrumented one
# with the torture's debug options (tests/torture.mk), serves the build
# checks, the static checks, the guest suites and the torture.
test:
	@MAKE='$(MAKE)' BUILD='$(BUILD)' LLVM_VERSION='$(LLVM_VERSION)' tests/make-test.sh

.PHONY: test-deps test-host test-series test-kernel test-build test-check \
	test-guest test-torture test-coverage-kernel test-coverage \
	test-arm64-kernel test-arm64
test-deps: deps tree
	+@$(MAKE) --no-print-directory deps ARCH=arm64
test-host: host-test
test-series: series
test-kernel:
	+@$(MAKE) --no-print-directory $(TORTURE_VARS) kernel ext-modules
test-build:
	+@nice -n 10 $(MAKE) --no-print-directory $(TORTURE_VARS) BUILD_TEST_KERNEL= build-test
test-check:
	+@$(MAKE) --no-print-directory $(TORTURE_VARS) check
test-guest:
	+@$(MAKE) --no-print-directory $(TORTURE_KVARS) \
		BOOT_APPEND="$(TORTURE_APPEND)" guest-test
test-torture: torture-ci
test-coverage-kernel:
	+@$(MAKE) --no-print-directory $(COV_VARS) ext-modules
test-coverage: coverage-test
test-arm64-kernel:
	+@$(MAKE) --no-print-directory ARCH=arm64 EXTRA_CONFIG=$(EXTRA_CONFIG_ARM64) kernel ext-modules
test-arm64:
	+@$(MAKE) --no-print-directory test ARCH=arm64 EXTRA_CONFIG=$(EXTRA_CONFIG_ARM64)
else
# make test ARCH=arm64, also the last part of make test: what depends on
# the architecture: the static checks of kernel/pgo built for it (including
# the section check of vmlinux.o and the modules, the noinstr check), the
# guest suites (retention with busybox's uevent listener for udevd) and
# the PGO-use cycle of the test module.  The host tests, the series,
# coverage and the torture are x86_64's.
test: deps
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory guest-test && \
	$(MAKE) --no-print-directory check && \
	echo "make test ARCH=$(ARCH): all passed in $$(( $$(date +%s) - start )) s"
endif

# ---------------------------------------------------------------- run
# The whole PGO cycle: instrumented kernel -> training boot -> merged
# profile -> plain and PGO kernels -> both measured under QEMU -icount on
# the training and a held-out workload (with RUN_INSTR=1 and RUN_NOVP=1,
# the instrumented kernel and a PGO kernel without value profiles too).
RUN		:= $(BUILD)/run$(DIR_SFX)-$(LLVM_VERSION)
RUN_PROFILE	= $(shell cat $(RUN)/profile.path 2>/dev/null)
ICOUNT		:= -icount shift=0,sleep=off
# The training boot's initramfs (the instrumented kernel's), also RUN_INSTR's.
RUN_TRAIN_OUT	:= $(BUILD)/out-train$(DIR_SFX)-$(LLVM_VERSION)
# Every measured kernel boots RUN_BOOTS times; every workload runs
# 5 times a boot (tests/run/guest/10-cycle.sh, which prints the median of
# the 5) and the report takes, per workload, the median over the boots
# (tests/run/median.sh).
RUN_BOOTS	?= 5
run-train:
	$(MAKE) --no-print-directory initramfs GUEST_DIR=tests/run/guest \
		OUT=$(RUN_TRAIN_OUT)
	tests/qemu/run-qemu.sh $(OBJ)/$(KIMAGE_PATH) \
		$(RUN_TRAIN_OUT)/initramfs.cpio.gz $(RUN)/train 1 $(QEMU_MEM)
	@# A profile per object (CLANG_PGO_PROFILE=dir): each module is built
	@# with its own; every object depends on its profile, so a new one
	@# rebuilds exactly the objects that use it.
	rm -rf $(RUN)/profile $(RUN)/profile-novp $(RUN)/pgonovp* && mkdir -p $(RUN)/profile
	for f in $(RUN)/train/train/*.profraw; do \
		llvm-profdata-$(LLVM_VERSION) merge -o \
			$(RUN)/profile/$$(basename $$f .profraw).profdata $$f || exit 1; \
	done
	@echo $(RUN)/profile > $(RUN)/profile.path && \
	echo "profile: $(RUN)/profile/, $$(ls $(RUN)/profile | tr '\n' ' ')"

# RUN_NOVP=1: a third kernel, built from the same profiles without their
# value profiles, as a correlated IR profile has none (and with
# -mllvm -disable-vp, as pgo.rst says to build from one without clang's
# warnings): what value profiling pays in the PGO build (indirect-call
# promotion, memcpy sizes).
RUN_NOVP	?=
.PHONY: run-novp-profile
run-pgonovp-kernel: run-novp-profile
# A profile replaces the last one only if it differs: every object depends
# on its profile's file, so a new one would rebuild the whole kernel.
run-novp-profile:
	rm -rf $(RUN)/profile-novp.new && mkdir -p $(RUN)/profile-novp.new $(RUN)/profile-novp
	for f in $(RUN_PROFILE)/*.profdata; do \
		tests/run/strip-vp.sh $(LLVM_VERSION) $$f \
			$(RUN)/profile-novp.new/$$(basename $$f) || exit 1; \
	done
	rsync -r --checksum --delete $(RUN)/profile-novp.new/ $(RUN)/profile-novp/
	rm -rf $(RUN)/profile-novp.new

run-%-kernel:
	$(MAKE) --no-print-directory initramfs PGO_CONFIG= \
		OBJ=$(BUILD)/obj-$*$(DIR_SFX)-$(LLVM_VERSION) EXT=$(BUILD)/ext-$*$(DIR_SFX)-$(LLVM_VERSION) \
		OUT=$(BUILD)/out-$*$(DIR_SFX)-$(LLVM_VERSION) GUEST_DIR=tests/run/guest \
		$(if $(filter pgo,$*),KMAKE_EXTRA=CLANG_PGO_PROFILE=$(RUN_PROFILE)) \
		$(if $(filter pgonovp,$*),KMAKE_EXTRA="CLANG_PGO_PROFILE=$(RUN)/profile-novp \
			KCFLAGS=-mllvm\ -disable-vp")
	$(call run_boots,$*,$(BUILD)/obj-$*$(DIR_SFX)-$(LLVM_VERSION),$(BUILD)/out-$*$(DIR_SFX)-$(LLVM_VERSION))

# RUN_INSTR=1: the instrumented kernel, with the training boot's
# initramfs (made again: it may predate the guest script), measured as the
# plain and PGO kernels are, with run_measure=1 on the kernel command line
# (tests/run/guest/10-cycle.sh): what the instrumentation costs on the same
# workloads, the median of as many boots.
RUN_INSTR	?=
run-instr:
	$(MAKE) --no-print-directory initramfs GUEST_DIR=tests/run/guest \
		OUT=$(RUN_TRAIN_OUT)
	$(call run_boots,instr,$(OBJ),$(RUN_TRAIN_OUT),run_measure=1)

# $(call run_boots,NAME,OBJ_DIR,OUT_DIR[,APPEND]): RUN_BOOTS boots of the
# kernel of OBJ_DIR with OUT_DIR's initramfs under -icount on one vCPU,
# APPEND on the kernel command line; the median of each workload goes to
# $(RUN)/NAME (tests/run/median.sh).
define run_boots
@rm -rf $(RUN)/$(1) $(RUN)/$(1).wall $(RUN)/boots/$(1).*
@start=$$(date +%s); boots=; \
for i in $$(seq $(RUN_BOOTS)); do \
	QEMU_EXTRA="$(ICOUNT)" tests/qemu/run-qemu.sh $(2)/$(KIMAGE_PATH) \
		$(3)/initramfs.cpio.gz $(RUN)/boots/$(1).$$i 1 $(QEMU_MEM) "$(4)" || exit 1; \
	boots="$$boots $(RUN)/boots/$(1).$$i"; \
done; \
tests/run/median.sh $(RUN)/$(1) $$boots && \
echo "$(1) boot: $(RUN_BOOTS) boots, $$(( $$(date +%s) - start )) s wall" | tee $(RUN)/$(1).wall
endef

run:
	@MAKE='$(MAKE)' RUN='$(RUN)' RUN_NOVP='$(RUN_NOVP)' RUN_INSTR='$(RUN_INSTR)' \
		tests/run/make-run.sh

# The profile warnings of the last build of each PGO kernel and of its
# modules that compiled something (build-compiled.log, kept by the kernel
# and ext-modules recipes): re-measuring a kernel compiles nothing.  Every
# module directory with a build.log must have one.
RUN_WLOGS = $(BUILD)/obj-$(1)$(DIR_SFX)-$(LLVM_VERSION)/build-compiled.log \
	$(patsubst %/build.log,%/build-compiled.log, \
		$(wildcard $(BUILD)/ext-$(1)$(DIR_SFX)-$(LLVM_VERSION)/*/build.log))
run-report:
	@echo; echo "== clang PGO cycle, $(ARCH), LLVM $(LLVM_VERSION), QEMU -icount (1 ns = 1 instruction)"
	@set -o pipefail; tests/run/pgo-warnings.sh $(call RUN_WLOGS,pgo) | tee $(RUN)/pgo-warnings.txt
	$(if $(RUN_NOVP),@set -o pipefail; printf 'without value profiles: '; \
		tests/run/pgo-warnings.sh $(call RUN_WLOGS,pgonovp) | \
		tee $(RUN)/pgonovp-warnings.txt)
	@tests/run/report.sh $(RUN) $(if $(RUN_NOVP),pgonovp) $(if $(RUN_INSTR),instr)
	@cat $(RUN)/plain.wall $(RUN)/pgo.wall $(if $(RUN_NOVP),$(RUN)/pgonovp.wall) \
		$(if $(RUN_INSTR),$(RUN)/instr.wall)

# The kernel suite with every supported LLVM, and a table of what each gave.
MATRIX_VERSIONS ?= 13 14 15 16 19 22
matrix:
	@for v in $(MATRIX_VERSIONS); do \
		$(MAKE) --no-print-directory deps guest-test LLVM_VERSION=$$v \
			> $(BUILD)/matrix-$$v.log 2>&1; echo $$? > $(BUILD)/matrix-$$v.rc; \
	done; tests/matrix-report.sh $(BUILD) $(MATRIX_VERSIONS)

clean:
	rm -rf $(BUILD)
include tests/check.mk
include tests/torture.mk
include tests/bench.mk
include tests/series.mk
include tests/realconfig.mk
include tests/coverage.mk
