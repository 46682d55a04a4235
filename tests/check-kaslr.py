#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Profiles must not reveal where the kernel or a module is loaded.

usage: check-kaslr.py KALLSYMS PROFILE:BASE...

KALLSYMS is /proc/kallsyms read as root in the guest, while the profiles
were taken.  For each raw PROFILE:
  - no aligned 64-bit word of the file equals a runtime address of
    KALLSYMS (records' function pointers, indirect-call targets, anything);
  - if BASE is given (a symbol of KALLSYMS such as _text, or a hex address
    such as a module's .text), each record's FunctionPointer is an offset
    from PGO_TEXT_BASE (0x1000): FunctionPointer - 0x1000 + BASE must be
    the runtime address of a symbol, for all records but those of code
    that is gone (a module's init text): at most one or MAX_UNMAPPED.
Exit status 0 iff every profile passes.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "host", "diff"))
from rawcmp import Profile  # noqa: E402

PGO_TEXT_BASE = 0x1000
# Where kernel space starts on x86_64 and arm64 (48-bit and larger VAs).
KERNEL_SPACE = 0xffff000000000000
# Unmapped: functions kallsyms no longer lists (a module's freed init
# text), or lists under another address (aliases); one, or 5%.
MAX_UNMAPPED = 0.05


def main():
    addrs, syms = {}, {}
    with open(sys.argv[1]) as f:
        for line in f:
            w = line.split()
            # Kernel addresses only: per-CPU symbols are listed at their
            # offsets (0x26130 nmi_cr2), which a counter may equal.
            if len(w) >= 3 and int(w[0], 16) >= KERNEL_SPACE:
                addrs.setdefault(int(w[0], 16), w[2])
                syms.setdefault(w[2], int(w[0], 16))
    if len(addrs) < 1000:
        print(f"kallsyms: only {len(addrs)} non-zero addresses (not read as root?)")
        return 1
    bad = 0
    for arg in sys.argv[2:]:
        path, _, base = arg.rpartition(":")
        p = Profile(path)
        raw = p.raw
        words = struct.unpack_from(f"<{len(raw) // 8}Q", raw)
        hits = [w for w in words if w in addrs]
        name = os.path.basename(path)
        msg = f"{name}: {len(words)} words, {len(hits)} runtime addresses"
        if hits:
            bad += 1
            msg += " (" + ", ".join(f"{h:#x} {addrs[h]}" for h in hits[:5]) + ")"
        if base and base != "-":
            if base.startswith("0x"):
                b = int(base, 16)
            else:
                b = syms.get(base)
                if b is None:
                    print(f"{name}: no symbol {base} in kallsyms")
                    return 1
            # clang records the address of address-taken and global
            # functions only; the others have 0.
            fps = [r["FunctionPointer"] for r in p.records
                   if r["FunctionPointer"]]
            mapped = sum(1 for fp in fps
                         if fp and fp - PGO_TEXT_BASE + b in addrs)
            msg += (f"; {mapped}/{len(fps)} function addresses (of "
                    f"{len(p.records)} records) at {base}+offset")
            if not fps or len(fps) - mapped > max(1, MAX_UNMAPPED * len(fps)):
                bad += 1
                msg += " (too few)"
        print(msg)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
