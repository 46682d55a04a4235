# make check: the static checks of what we add to the kernel (issue 8).
# Included by the root Makefile; uses only TOP, BUILD, BASE, SRC, OBJ, KMAKE,
# LLVM_VERSION, OVERLAY_FILES and PATCHES from it.
#
#   checkpatch --strict  on our new files (-f) and on patches/ (as patches),
#                        minus what tests/checkpatch-justified.txt justifies
#   sparse, W=1          on kernel/pgo/, built in $(OBJ) from $(SRC)
#   kernel-doc -Wall     on kernel/pgo/ and include/linux/pgo.h
#   get_abi.pl validate  on our Documentation/ABI files, alone and with 6.12's
#   docs                 Documentation/ references exist, new .rst in a toctree,
#                        and the kernel's Sphinx build (htmldocs SPHINXDIRS=) of
#                        their directories without a warning from our files
#   shellcheck           on our shell scripts (when installed)
#
# Logs go to $(BUILD)/check/.  $(OBJ)/.config brings $(SRC) up to date with
# the repo first, as `make kernel` would.

.PHONY: check
check: $(OBJ)/.config
	+@TOP='$(TOP)' BUILD='$(BUILD)' BASE='$(BASE)' SRC='$(SRC)' OBJ='$(OBJ)' \
	  KMAKE='$(KMAKE)' LLVM_VERSION='$(LLVM_VERSION)' ARCH_SFX='$(ARCH_SFX)' \
	  OVERLAY_FILES='$(OVERLAY_FILES)' PATCHES='$(PATCHES)' \
	  $(TOP)/tests/check.sh
