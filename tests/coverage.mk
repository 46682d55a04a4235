# make coverage: clang source-based coverage and MC/DC of vmlinux and of
# every module, through the same sysfs files as PGO (issue 14).  Included
# by the root Makefile; uses BUILD, LLVM_VERSION and its boot target.
#
#   make coverage       build the coverage kernel (the embedded default with
#                       CONFIG_PGO_CLANG_COVERAGE and _MCDC, covering what
#                       the checks read; COV_ALL=y: everything), boot it, run
#                       KUnit, the kselftest and the test modules, collect
#                       with pgo-collect, and write under build/coverage/
#                       the llvm-cov summary (summary.txt, report-<obj>.txt),
#                       export (<obj>.json) and HTML (html/<obj>/) of
#                       vmlinux and each module, checking what the test
#                       modules are known to cover
#   make coverage-test  the same checks without HTML (part of make test)

# x86_64 only: its checks name x86's syscall functions, and its directories
# have no architecture in their names.
ifneq ($(ARCH),x86_64)
ifneq ($(filter coverage coverage-test coverage-boot coverage-bench,$(MAKECMDGOALS)),)
$(error make $(MAKECMDGOALS): coverage is x86_64's (ARCH=$(ARCH)): its checks know x86's syscall names)
endif
endif

# The kernel covers only what the checks read, with
# CONFIG_PGO_CLANG_PROFILE_ALL=n and PGO_PROFILE_<file>.o=y on make's
# command line (which applies to every file of that name): kernel/sys.c
# (the system calls of check 4) and kernel/pgo/ but its runtime and
# vmlinux.o (check 6).  The test modules are profiled by their own
# Makefile's PGO_PROFILE := y.  Coverage makes an object's compile 1.4
# to 1.7 times as long: this saves about 40 % of the kernel's build (1,015
# CPU seconds against 1,751 cold).  COV_ALL=y covers the whole kernel, in
# directories of its own.
COV_ALL		?=
# COV_CORR=y: records and names left in the binaries
# (CONFIG_PGO_CLANG_CORRELATE, which excludes MC/DC), in directories of
# their own; check.sh then merges every profile with its binary.
COV_CORR	?=
COV_SFX		:= $(if $(filter y,$(COV_ALL)),-all)$(if $(filter y,$(COV_CORR)),-corr)
COV_FILES	:= $(if $(filter y,$(COV_ALL)),,sys format objects sysfs root module retain pgo_test)
COV_OBJ		:= $(BUILD)/obj-cov$(COV_SFX)-$(LLVM_VERSION)
COV_EXT		:= $(BUILD)/ext-cov$(COV_SFX)-$(LLVM_VERSION)
COV_OUT		:= $(BUILD)/out-cov$(COV_SFX)-$(LLVM_VERSION)
COV_VARS	= OBJ=$(COV_OBJ) EXT=$(COV_EXT) OUT=$(COV_OUT) GUEST_DIR=tests/coverage/guest \
		  PGO_CONFIG="tests/qemu/pgo.config tests/coverage/coverage.config tests/qemu/no-acpi.config \
			$(if $(COV_FILES),tests/coverage/partial.config) \
			$(if $(filter y,$(COV_CORR)),tests/coverage/correlate.config)" \
		  $(if $(COV_FILES),KMAKE_EXTRA="$(foreach f,$(COV_FILES),PGO_PROFILE_$(f).o=y)") \
		  UDEV_CONFIG=
# The checks, then COV_DIR [html] (tests/coverage/check.sh).
COV_CHECK	= COV_FILES='$(COV_FILES)' tests/coverage/check.sh $(LLVM_VERSION) \
		  $(COV_OBJ) $(COV_EXT) $(COV_OUT)/guest

.PHONY: coverage coverage-test coverage-boot

coverage-boot: deps
	+@$(MAKE) --no-print-directory boot $(COV_VARS)

coverage: coverage-boot
	$(COV_CHECK) $(BUILD)/coverage$(COV_SFX) html

coverage-test: coverage-boot
	$(COV_CHECK) $(BUILD)/coverage$(COV_SFX)-test

# make coverage-bench: the cost of each counter kind, one run (issue 14):
# the make bench boots (tests/bench/guest/10-bench.sh: the make run
# workloads under -icount, the reads, the counters-only loop on 1 and 2
# vCPUs) on the plain, the IR-PGO, the coverage+MC/DC, the coverage
# without MC/DC, the correlated coverage and the single-byte coverage
# kernel of the embedded default, then tests/coverage/bench-report.sh,
# which also compares the correlated kernel's profiles, merged with their
# binaries, to the uncorrelated ones without MC/DC (issue 30;
# tests/coverage/correlate.config has no MC/DC, which needs LLVM 23).
# Six kernels: the five without covn took about 80 minutes with a cold
# ccache, covn is one more whole-coverage kernel; not part of make test.
# COVB_MODES picks some (without plain, the reference, the table has no
# ratios).
COVB		:= $(BUILD)/coverage-bench-$(LLVM_VERSION)
covb_all	:= plain ir cov covn corr byte
COVB_MODES	?= $(covb_all)
ifneq ($(filter-out $(covb_all),$(COVB_MODES)),)
$(error COVB_MODES: $(filter-out $(covb_all),$(COVB_MODES)): not one of $(covb_all))
endif
covb_obj_plain	:= $(BUILD)/obj-plain-$(LLVM_VERSION)
covb_obj_ir	:= $(BUILD)/obj-$(LLVM_VERSION)
covb_obj_cov	:= $(BUILD)/obj-covbench-$(LLVM_VERSION)
covb_obj_covn	:= $(BUILD)/obj-covnomcdc-$(LLVM_VERSION)
covb_obj_corr	:= $(BUILD)/obj-covcorr-$(LLVM_VERSION)
covb_obj_byte	:= $(BUILD)/obj-covbyte-$(LLVM_VERSION)
covb_cfg_plain	:=
covb_cfg_ir	:= tests/qemu/pgo.config
covb_cfg_cov	:= tests/qemu/pgo.config tests/coverage/coverage.config
covb_cfg_covn	:= tests/qemu/pgo.config tests/coverage/coverage.config \
		   tests/coverage/no-mcdc.config
covb_cfg_corr	:= tests/qemu/pgo.config tests/coverage/coverage.config \
		   tests/coverage/correlate.config
covb_cfg_byte	:= tests/qemu/pgo.config tests/coverage/single-byte.config

.PHONY: coverage-bench coverage-bench-kernels

# The kernels and test modules only, e.g. while the machine is busy: the
# 2-vCPU boots of coverage-bench need it idle.
coverage-bench-kernels: deps
	+@$(foreach m,$(COVB_MODES),$(MAKE) --no-print-directory bench-initramfs \
		OBJ=$(covb_obj_$(m)) PGO_CONFIG="$(covb_cfg_$(m))" BENCH=$(COVB)/$(m) &&) true

# No figure of an earlier run survives a failed build; BENCH_SAVE: the
# guest saves every profile at the end (tests/bench/guest/10-bench.sh).
coverage-bench: deps
	+@mkdir -p $(COVB); rc=0; $(foreach m,$(COVB_MODES), \
		echo "coverage-bench: $(m) kernel in $(covb_obj_$(m))"; \
		rm -rf $(COVB)/$(m)/instr $(COVB)/$(m)/smp; \
		$(MAKE) --no-print-directory bench-boot OBJ=$(covb_obj_$(m)) BENCH_SAVE=1 \
			PGO_CONFIG="$(covb_cfg_$(m))" BENCH=$(COVB)/$(m) > $(COVB)-$(m).log 2>&1 || \
			{ echo "coverage-bench: $(m) failed, see $(COVB)-$(m).log"; rc=1; };) \
	tests/coverage/bench-report.sh $(COVB) $(LLVM_VERSION) \
		$(foreach m,$(COVB_MODES),$(m)=$(covb_obj_$(m))) | tee $(COVB)/report.txt; \
	exit $$(( rc | $${PIPESTATUS[0]} ))
