# make torture: the PGO torture test on a debug kernel (issue 7).
# Included by the root Makefile; uses BUILD, LLVM_VERSION, QEMU_SMP,
# EXTRA_CONFIG and the kernel/ext-modules targets from it.
#
#   make torture        TORTURE_ITERS (200) iterations of every worker
#   make torture-ci     the bounded form for `make test`: TORTURE_CI_ITERS (8)
#
# The debug kernel is the instrumented one plus tests/qemu/debug.config
# (KASAN, lockdep, PROVE_RCU, UBSAN, kmemleak, ...), built in its own
# O= directory, with its own out-of-tree modules, results and staging
# tree, so that it never disturbs the normal build:
#
#   $(TORTURE_OBJ)  build/obj-debug-<ver>   kernel
#   $(TORTURE_EXT)  build/ext-debug-<ver>   test modules (pgo_test_module, pgo_hammer)
#   $(TORTURE_OUT)  build/out-debug-<ver>   initramfs, crafted modules, guest results
#
# It boots twice: the torture itself (tests/guest-torture/, QEMU_SMP vCPUs,
# TORTURE_MEM), then a short boot with lockdown=confidentiality.  The host
# side judges both: tests/check-torture.sh.

TORTURE_OBJ	:= $(BUILD)/obj-debug-$(LLVM_VERSION)
TORTURE_EXT	:= $(BUILD)/ext-debug-$(LLVM_VERSION)
TORTURE_OUT	:= $(BUILD)/out-debug-$(LLVM_VERSION)
TORTURE_STAGE	:= $(BUILD)/stage-debug-$(LLVM_VERSION)
TORTURE_ITERS	?= 200
TORTURE_CI_ITERS ?= 8
# vmlinux reads kept for llvm-profdata (all are checked in the guest).
TORTURE_KEEP	?= 20
TORTURE_MEM	?= 2G
# The torture boot's limit (run-qemu.sh's QEMU_TIMEOUT): 200 iterations
# take 1,400 to 1,800 s of guest on 2 busy cores under TCG.
TORTURE_TIMEOUT	?= $(if $(filter $(TORTURE_RUN_ITERS),$(TORTURE_CI_ITERS)),1800,5400)
# Appended to the debug kernel's command line (it has no ACPI:
# tests/qemu/no-acpi.config).
TORTURE_APPEND	?=
# The debug kernel's variables; make test's guest suites boot it too, with
# their own OUT.
TORTURE_KVARS	= OBJ=$(TORTURE_OBJ) EXT=$(TORTURE_EXT) STAGE=$(TORTURE_STAGE) \
		  EXTRA_CONFIG="tests/qemu/debug.config tests/qemu/no-acpi.config $(EXTRA_CONFIG)"
TORTURE_VARS	= $(TORTURE_KVARS) OUT=$(TORTURE_OUT)

.PHONY: torture torture-ci torture-kernel torture-initramfs torture-run

torture:
	+@$(MAKE) --no-print-directory torture-run TORTURE_RUN_ITERS=$(TORTURE_ITERS)

torture-ci:
	+@$(MAKE) --no-print-directory torture-run TORTURE_RUN_ITERS=$(TORTURE_CI_ITERS)

# The debug kernel and the test modules, through the root Makefile's own
# rules (its $(OBJ)/.config rule checks that every fragment line sticks).
torture-kernel:
	+@start=$$(date +%s); \
	$(MAKE) --no-print-directory $(TORTURE_VARS) kernel ext-modules && \
	echo "torture: debug kernel and modules ready in $$(( $$(date +%s) - start )) s"

torture-initramfs: torture-kernel
	python3 tests/guest-torture/craft-modules.py \
		$(TORTURE_EXT)/test_modules/pgo_test_module.ko $(TORTURE_OUT)/crafted
	GUEST_DIR=tests/guest-torture tests/qemu/mkinitramfs.sh \
		$(TORTURE_OUT)/initramfs.cpio.gz $(TORTURE_OBJ) $(LLVM_VERSION) "" \
		$(TORTURE_EXT) $(TORTURE_OUT)/crafted

TORTURE_LOCKDOWN_BOOT ?= 1

torture-run: torture-initramfs
	@start=$$(date +%s); \
	rm -rf $(TORTURE_OUT)/guest-lockdown; \
	QEMU_TIMEOUT=$(TORTURE_TIMEOUT) tests/qemu/run-qemu.sh $(TORTURE_OBJ)/arch/x86/boot/bzImage \
		$(TORTURE_OUT)/initramfs.cpio.gz $(TORTURE_OUT)/guest $(QEMU_SMP) \
		$(TORTURE_MEM) "$(TORTURE_APPEND) torture_iters=$(TORTURE_RUN_ITERS) torture_keep=$(TORTURE_KEEP)" && \
	mid=$$(date +%s) && \
	if [ "$(TORTURE_LOCKDOWN_BOOT)" = 1 ]; then \
		tests/qemu/run-qemu.sh $(TORTURE_OBJ)/arch/x86/boot/bzImage \
			$(TORTURE_OUT)/initramfs.cpio.gz $(TORTURE_OUT)/guest-lockdown $(QEMU_SMP) \
			$(TORTURE_MEM) "$(TORTURE_APPEND) lockdown=confidentiality torture_mode=lockdown"; \
	fi && \
	end=$$(date +%s) && \
	echo "torture: guest run $$((mid - start)) s, lockdown boot $$((end - mid)) s" | \
		tee $(TORTURE_OUT)/guest/host-times.txt
	tests/check-torture.sh $(LLVM_VERSION) $(TORTURE_OBJ) $(TORTURE_OUT)
