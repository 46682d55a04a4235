# make series: the product as a git format-patch series against the pristine
# 6.12 base (issue 8), cut as tests/series/recipe says, and checked: git am on
# a fresh base, tree equal to $(SRC), checkpatch --strict.  make series-check
# also builds the kernel after each patch (incrementally, one O= directory
# under $(BUILD)/series/).  Included by the root Makefile; uses TOP, BUILD,
# BASE, SRC, OVERLAY_FILES, PATCHES, CONFIGS, LLVM_VERSION and NPROC from it.
# The series is written to $(BUILD)/series/out/; see tests/series/mkseries.sh.

SERIES_BUILD	?=
SERIES_ENV = KVER='$(KVER)' PATCH_DIR='$(PATCH_DIR)' TOP='$(TOP)' OVERLAY_DIRS='$(OVERLAY_DIRS)' BUILD='$(BUILD)' BASE='$(BASE)' SRC='$(SRC)' \
	OVERLAY_FILES='$(OVERLAY_FILES)' PATCHES='$(PATCHES)' \
	CONFIGS='$(CONFIGS)' LLVM_VERSION='$(LLVM_VERSION)' NPROC='$(NPROC)'

.PHONY: series series-check
series: $(SRC)/.stamp
	+@$(SERIES_ENV) SERIES_BUILD=$(SERIES_BUILD) $(TOP)/tests/series/mkseries.sh

series-check: $(SRC)/.stamp
	+@$(SERIES_ENV) SERIES_BUILD=1 $(TOP)/tests/series/mkseries.sh
