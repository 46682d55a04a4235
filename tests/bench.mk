# make bench: what clang PGO costs and what it pays, each figure a ratio of
# two measurements taken side by side in one run (issue 6).  Included by the
# root Makefile; uses BUILD, OBJ, RUN, ICOUNT, LLVM_VERSION, NPROC and the
# run, ext-modules targets from it.
#
#   make bench     make run, make run LTO=thin, then the bench boots and
#                  host measurements, then the table, also written to
#                  build/bench-<ver>/report.txt
#
# Pieces (tests/bench/):
#   modules/       pgo_blob (a static sysfs bin attribute), pgo_size1/2
#                  (profiles one twice the other), pgo_vp_on/off/none (the
#                  same indirect-call loop with value profiling, with
#                  counters only, not instrumented); built with M= against
#                  the instrumented tree in $(BENCH)/ext
#   guest/         the guest script of both bench boots
#   vp-host.sh     the same loop against compiler-rt, under callgrind
#   build-time.sh  compile time of kernel/ and fs/ in both trees, no ccache
#   report.sh      the table
#
# Boots of the instrumented kernel ($(OBJ)): one under -icount on 1 vCPU
# (workloads, reads, value profiling per call), one with 2 vCPUs without
# -icount (value-profiling throughput).  The plain and PGO figures are
# those of the make run this target runs first.

BENCH		:= $(BUILD)/bench-$(LLVM_VERSION)
BENCH_EXT	:= $(BENCH)/ext
BENCH_DIRS	?= kernel fs
BENCH_ROUNDS	?= 5
BENCH_VP_CALLS	?= 1000000
BENCH_SMP_CALLS	?= 4000000
# BENCH_SAVE=1 (make coverage-bench): the guest saves every profile.
BENCH_SAVE	?=
BENCH_ENV	= bench_rounds=$(BENCH_ROUNDS) vp_calls=$(BENCH_VP_CALLS) \
		  smp_calls=$(BENCH_SMP_CALLS) $(if $(BENCH_SAVE),bench_save=1)

.PHONY: bench bench-measure bench-initramfs bench-boot bench-host \
	bench-build-time bench-report

bench: deps
	+@$(MAKE) --no-print-directory run
	+@$(MAKE) --no-print-directory run LTO=thin
	+@$(MAKE) --no-print-directory bench-measure

# A failed measurement leaves its figures out of the table, not the others.
bench-measure:
	+@rm -rf $(BENCH)/instr $(BENCH)/smp $(BENCH)/vp-host.txt \
		$(BENCH)/build-time.txt $(BENCH)/report.txt; \
	rc=0; $(MAKE) --no-print-directory -k bench-boot bench-host \
		bench-build-time || rc=$$?; \
	$(MAKE) --no-print-directory bench-report && exit $$rc

# Our test modules and the bench's, against the instrumented tree, in a
# directory of their own: the guest-test initramfs does not change.
bench-initramfs:
	+@$(MAKE) --no-print-directory ext-modules EXT=$(BENCH_EXT) \
		EXTRA_MODULES=tests/bench/modules
	tests/bench/mkinitramfs.sh $(BENCH)/initramfs.cpio.gz $(OBJ) \
		$(LLVM_VERSION) $(BENCH_EXT)

bench-boot: bench-initramfs
	@start=$$(date +%s); \
	QEMU_EXTRA="$(ICOUNT)" tests/qemu/run-qemu.sh $(OBJ)/arch/x86/boot/bzImage \
		$(BENCH)/initramfs.cpio.gz $(BENCH)/instr 1 $(QEMU_MEM) "$(BENCH_ENV)" && \
	mid=$$(date +%s) && \
	tests/qemu/run-qemu.sh $(OBJ)/arch/x86/boot/bzImage \
		$(BENCH)/initramfs.cpio.gz $(BENCH)/smp 2 $(QEMU_MEM) \
		"$(BENCH_ENV) bench_mode=smp" && \
	echo "bench boots: $$((mid - start)) s -icount, $$(( $$(date +%s) - mid )) s smp wall"
	@for b in instr smp; do \
		test "$$(cat $(BENCH)/$$b/10-bench.rc 2>/dev/null)" = 0 || \
		{ echo "bench: the $$b boot's guest script failed:" >&2; \
		  tail -20 $(BENCH)/$$b/10-bench.log >&2; exit 1; }; done

bench-host: deps
	tests/bench/vp-host.sh $(BENCH)/vp-host.txt $(LLVM_VERSION) $(BENCH_VP_CALLS)

bench-build-time:
	tests/bench/build-time.sh $(BENCH)/build-time.txt \
		$(BUILD)/obj-plain-$(LLVM_VERSION) $(OBJ) $(BENCH_DIRS)

bench-report:
	@tests/bench/report.sh $(BENCH) $(RUN) $(OBJ) \
		$(BUILD)/obj-plain-$(LLVM_VERSION) $(BENCH_EXT) \
		$(BUILD)/run-thinlto-$(LLVM_VERSION) | tee $(BENCH)/report.txt
