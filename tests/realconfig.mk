# make realconfig: the feature on a real configuration (issue 12), the way
# README.md's "Using it on your own kernel" takes it: x86_64 defconfig +
# PGO_CLANG, with a dozen drivers and filesystems as modules
# (tests/realconfig/real.config), built with the default LLVM, booted under
# QEMU, each module driven by a real workload, every profile judged.
# Included by the root Makefile; uses BUILD, TOP, KMAKE, LLVM_VERSION,
# QEMU_SMP and its $(SRC)/.stamp, kernel and ext-modules rules.
#
#   make realconfig          build, boot, check (tests/realconfig/check.sh)
#   make realconfig-plain    the same configuration without PGO_CLANG (no boot)
#   make realconfig-compare  objtool warnings and build times of both
#   make realconfig-cov      one real module (brd) built for correlated
#                            coverage on the same configuration: boot,
#                            merge with the .ko, llvm-cov report (issue 30;
#                            tests/realconfig/check-cov.sh)
#
# Everything has its own directories, so that it never disturbs the
# tinyconfig builds (which rsync build/src) nor is disturbed by them:
#
#   $(REAL_SRC)        build/src-real               patched source copy
#   $(REAL_OBJ)        build/obj-real-<ver>         instrumented kernel
#   $(REAL_EXT)        build/ext-real-<ver>         test modules (M=)
#   $(REAL_OUT)        build/out-real-<ver>         initramfs, images, guest results
#   $(REAL_PLAIN_OBJ)  build/obj-realplain-<ver>    plain kernel
#   $(REAL_COV_OBJ)    build/obj-realcov-<ver>      coverage kernel (and
#                      ext-, out-realcov-<ver>)
#
# An instrumented defconfig takes about an hour on 2 cores with a cold
# ccache.  Build times are recorded (build-time.txt in each OBJ) only for a
# build from scratch; CCACHE_DISABLE=1 on the command line times the
# compiler rather than the cache.

REAL_SRC	:= $(BUILD)/src-real
REAL_STAGE	:= $(BUILD)/stage-real
REAL_OBJ	:= $(BUILD)/obj-real-$(LLVM_VERSION)
REAL_EXT	:= $(BUILD)/ext-real-$(LLVM_VERSION)
REAL_OUT	:= $(BUILD)/out-real-$(LLVM_VERSION)
REAL_PLAIN_OBJ	:= $(BUILD)/obj-realplain-$(LLVM_VERSION)
REAL_PLAIN_EXT	:= $(BUILD)/ext-realplain-$(LLVM_VERSION)
REAL_COV_OBJ	:= $(BUILD)/obj-realcov-$(LLVM_VERSION)
REAL_COV_EXT	:= $(BUILD)/ext-realcov-$(LLVM_VERSION)
REAL_COV_OUT	:= $(BUILD)/out-realcov-$(LLVM_VERSION)
REAL_MEM	?= 2G
REAL_SMP	?= $(QEMU_SMP)
# Room for the whole boot log (KUnit's report is read from it) and the
# workloads' messages: defconfig's ring buffer is 256 KiB.
REAL_APPEND	?= log_buf_len=4M
REAL_CONFIGS	:= tests/realconfig/real.config tests/realconfig/pgo.config
REAL_PLAIN_CONFIGS := tests/realconfig/real.config
REAL_COV_CONFIGS := tests/realconfig/real.config tests/realconfig/cov.config
# What realconfig-cov instruments: PGO_PROFILE_<stem>.o=y on make's command
# line for each stem (every object of that name; brd.o is the only one),
# and the module check-cov.sh judges.  The rest of the kernel builds as
# fast as without coverage.
REAL_COV_FILES	?= brd
REAL_COV_MODULE	?= brd
# Host tools for the guest's filesystem images (mkimages.sh).
REAL_PKGS	:= squashfs-tools genisoimage exfatprogs udftools util-linux

# The root Makefile, run on the real tree.  -o: the .config made below is
# taken as is (the root's own $(OBJ)/.config rule starts from tinyconfig).
# $(call real-make,OBJ,EXT,targets...[,OUT])
real-make	= $(MAKE) --no-print-directory SRC=$(REAL_SRC) STAGE=$(REAL_STAGE) \
		  OBJ=$(1) EXT=$(2) OUT=$(or $(4),$(REAL_OUT)) -o $(1)/.config $(3)

# defconfig + fragments in OBJ, in a sub-make whose SRC and OBJ are the real
# ones: the root's $(SRC)/.stamp rule then brings $(REAL_SRC) up to date
# first.  As the root's $(OBJ)/.config rule, every CONFIG line must stick.
$(OBJ)/.real-config: $(SRC)/.stamp $(REAL_FRAGS)
	@test -n "$(REAL_FRAGS)" || { echo "realconfig: no REAL_FRAGS" >&2; exit 1; }
	mkdir -p $(OBJ)
	$(KMAKE) defconfig >/dev/null
	cd $(SRC) && scripts/kconfig/merge_config.sh -m -O $(OBJ) \
		$(OBJ)/.config $(call abs-paths,$(REAL_FRAGS)) >/dev/null
	$(KMAKE) olddefconfig >/dev/null
	@for f in $(call abs-paths,$(REAL_FRAGS)); do grep -h '^CONFIG_' $$f; done | \
	while read -r opt; do grep -qx "$$opt" $(OBJ)/.config || \
		{ echo "config: $$opt did not stick" >&2; exit 1; }; done
	@echo "config: $(OBJ)/.config: defconfig + $(REAL_FRAGS), every line stuck"
	@touch $@

# $(call real-config,OBJ,FRAGMENTS) in a recipe: OBJ's .config.
real-config	= $(MAKE) --no-print-directory SRC=$(REAL_SRC) STAGE=$(REAL_STAGE) \
		  OBJ=$(1) REAL_FRAGS="$(2)" $(1)/.real-config

# Around a build, timed: a build from scratch (none started in OBJ before)
# keeps its time and its log (build-full.log: the objtool warnings of every
# object, which an incremental build.log does not have).  Separate recipe
# lines, so that make -n runs none of them.
define real-timer-start
mkdir -p $(1) && rm -f $(1)/.real-fresh && \
	{ test -e $(1)/.real-started || touch $(1)/.real-fresh; } && \
	touch $(1)/.real-started && date +%s > $(1)/.real-start-time
endef
define real-timer-stop
t=$$(( $$(date +%s) - $$(cat $(1)/.real-start-time) )); \
	if [ -e $(1)/.real-fresh ]; then \
		echo "$$t s, CCACHE_DISABLE=$${CCACHE_DISABLE:-}" > $(1)/build-time.txt; \
		cp $(1)/build.log $(1)/build-full.log; rm $(1)/.real-fresh; \
		echo "realconfig: $(notdir $(1)) built from scratch in $$t s"; \
	else echo "realconfig: $(notdir $(1)) built (incremental) in $$t s"; fi
endef

.PHONY: realconfig realconfig-deps realconfig-config realconfig-kernel \
	realconfig-initramfs realconfig-boot realconfig-check realconfig-plain \
	realconfig-compare realconfig-cov realconfig-cov-kernel realconfig-cov-check

realconfig-deps: deps
	@$(call apt-install-missing,$(REAL_PKGS))

# The .config alone (cheap): shows what defconfig + the fragments give.
realconfig-config: deps
	+@$(call real-config,$(REAL_OBJ),$(REAL_CONFIGS))

realconfig-kernel: deps
	+@$(call real-config,$(REAL_OBJ),$(REAL_CONFIGS))
	@$(call real-timer-start,$(REAL_OBJ))
	+@$(call real-make,$(REAL_OBJ),$(REAL_EXT),kernel ext-modules)
	@$(call real-timer-stop,$(REAL_OBJ))

# $(call real-initramfs,OBJ,EXT,OUT): the initramfs of the root's
# mkinitramfs.sh (every .ko of the tree and of the test modules, our guest
# script), then a second archive, appended (the kernel unpacks concatenated
# archives): filesystem images, test data and the modules' load order
# (mkimages.sh).
define real-initramfs
GUEST_DIR=tests/realconfig/guest tests/qemu/mkinitramfs.sh \
	$(3)/initramfs.cpio.gz $(1) $(LLVM_VERSION) "" $(2)
tests/realconfig/mkimages.sh $(3)/images.cpio.gz $(1) $(2)
cat $(3)/images.cpio.gz >> $(3)/initramfs.cpio.gz
endef

# $(call real-boot,OBJ,OUT)
define real-boot
@start=$$(date +%s); \
tests/qemu/run-qemu.sh $(1)/arch/x86/boot/bzImage \
	$(2)/initramfs.cpio.gz $(2)/guest $(REAL_SMP) $(REAL_MEM) \
	"$(REAL_APPEND)" && \
echo "realconfig: guest run $$(( $$(date +%s) - start )) s"
endef

realconfig-initramfs: realconfig-deps realconfig-kernel
	$(call real-initramfs,$(REAL_OBJ),$(REAL_EXT),$(REAL_OUT))

realconfig-boot: realconfig-initramfs
	$(call real-boot,$(REAL_OBJ),$(REAL_OUT))

# The judgement alone, on the results of the last boot.
realconfig-check:
	tests/realconfig/check.sh $(LLVM_VERSION) $(REAL_OBJ) $(REAL_OUT)/guest

realconfig: realconfig-boot
	tests/realconfig/check.sh $(LLVM_VERSION) $(REAL_OBJ) $(REAL_OUT)/guest

realconfig-plain: deps
	+@$(call real-config,$(REAL_PLAIN_OBJ),$(REAL_PLAIN_CONFIGS))
	@$(call real-timer-start,$(REAL_PLAIN_OBJ))
	+@$(call real-make,$(REAL_PLAIN_OBJ),$(REAL_PLAIN_EXT),kernel ext-modules)
	@$(call real-timer-stop,$(REAL_PLAIN_OBJ))

realconfig-compare:
	tests/realconfig/compare.sh $(REAL_OBJ) $(REAL_PLAIN_OBJ)

# make realconfig-cov: brd (REAL_COV_FILES) built for correlated coverage,
# booted with the same guest, judged by check-cov.sh, whose reports go to
# $(BUILD)/coverage-realcov-<ver>/.
REAL_COV_DIR	:= $(BUILD)/coverage-realcov-$(LLVM_VERSION)
realconfig-cov-kernel: deps
	+@$(call real-config,$(REAL_COV_OBJ),$(REAL_COV_CONFIGS))
	@$(call real-timer-start,$(REAL_COV_OBJ))
	+@$(call real-make,$(REAL_COV_OBJ),$(REAL_COV_EXT),kernel ext-modules,$(REAL_COV_OUT)) \
		KMAKE_EXTRA="$(foreach f,$(REAL_COV_FILES),PGO_PROFILE_$(f).o=y)"
	@$(call real-timer-stop,$(REAL_COV_OBJ))

realconfig-cov: realconfig-deps realconfig-cov-kernel
	$(call real-initramfs,$(REAL_COV_OBJ),$(REAL_COV_EXT),$(REAL_COV_OUT))
	$(call real-boot,$(REAL_COV_OBJ),$(REAL_COV_OUT))
	+@$(MAKE) --no-print-directory realconfig-cov-check

# The judgement alone, on the results of the last boot.
realconfig-cov-check:
	tests/realconfig/check-cov.sh $(LLVM_VERSION) $(REAL_COV_OBJ) $(REAL_COV_EXT) \
		$(REAL_COV_OUT)/guest $(REAL_COV_DIR) $(REAL_COV_MODULE)
