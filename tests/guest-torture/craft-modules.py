#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Craft broken copies of pgo_test_module.ko for the torture's bad-input cases.

usage: craft-modules.py IN.ko OUTDIR

Writes OUTDIR/bad_<case>.ko for each case below and OUTDIR/crafted.txt, one
"<case> <what was done>" line each.  The edits are made on the ELF bytes
(section headers, section names, section contents, relocation addends), so
the module still links and loads: only what kernel/pgo sees of its profile
sections is broken.  None of them may be run (its `run` parameter never
written): code still increments counters and records values through the
compiler's own references, and some edits point those at nothing.
"""
import os
import struct
import sys

R_X86_64_64 = 1
R_X86_64_PC64 = 24
SHT_RELA = 4
SHF_WRITE = 1
REC_SIZE = 64           # struct llvm_prf_data, raw version 10 (LLVM 19+)
OFF_COUNTERPTR = 16
OFF_FUNCPTR = 32
OFF_VALUES = 40
OFF_NUMCOUNTERS = 48
OFF_NUMVALUESITES = 52


class Elf:
    def __init__(self, data):
        self.b = bytearray(data)
        assert self.b[:4] == b"\x7fELF" and self.b[4] == 2, "not ELF64"
        self.shoff, = struct.unpack_from("<Q", self.b, 0x28)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from("<HHH", self.b, 0x3a)

    def sh(self, i):
        o = self.shoff + i * self.shentsize
        name, typ, flags, addr, off, size, link, info, align, entsize = \
            struct.unpack_from("<IIQQQQIIQQ", self.b, o)
        return dict(i=i, hdr=o, name_off=name, type=typ, flags=flags,
                    offset=off, size=size, link=link, info=info, entsize=entsize)

    def strtab(self):
        return self.sh(self.shstrndx)

    def name(self, s):
        st = self.strtab()
        p = st["offset"] + s["name_off"]
        return bytes(self.b[p:self.b.index(b"\0", p)]).decode()

    def sections(self):
        return [self.sh(i) for i in range(self.shnum)]

    def find(self, name):
        found = [s for s in self.sections() if self.name(s) == name]
        assert len(found) == 1, f"{name}: {len(found)} sections"
        return found[0]

    def set_size(self, s, size):
        struct.pack_into("<Q", self.b, s["hdr"] + 32, size)

    def set_flags(self, s, flags):
        struct.pack_into("<Q", self.b, s["hdr"] + 8, flags)

    def set_name_off(self, s, name_off):
        struct.pack_into("<I", self.b, s["hdr"], name_off)

    def rename(self, s, new):
        """Rename in place (same length); the string may be shared only by
        sections whose names end the same way (.rela<name>)."""
        old = self.name(s)
        assert len(new) == len(old)
        st = self.strtab()
        p = st["offset"] + s["name_off"]
        for o in self.sections():
            q = st["offset"] + o["name_off"]
            end = self.b.index(b"\0", q)
            assert not (q < p + len(old) and end > p) or end == p + len(old), \
                f"{old}: name shared with {self.name(o)}"
        self.b[p:p + len(old)] = new.encode()

    def relocs_for(self, s):
        """(addr of r_addend, r_offset, type) of every RELA entry for s."""
        out = []
        for r in self.sections():
            if r["type"] != SHT_RELA or r["info"] != s["i"]:
                continue
            for k in range(r["size"] // 24):
                o = r["offset"] + 24 * k
                off, info, _ = struct.unpack_from("<QQq", self.b, o)
                out.append((o + 16, off, info & 0xffffffff))
        return out

    def add_addend(self, s, r_offset, rtype, delta):
        for addr, off, typ in self.relocs_for(s):
            if off == r_offset and typ == rtype:
                a, = struct.unpack_from("<q", self.b, addr)
                struct.pack_into("<q", self.b, addr, a + delta)
                return
        raise AssertionError(f"no relocation type {rtype} at {r_offset:#x}")


def value_relocs(e, data):
    """(addr of r_addend, r_info) of each record's Values relocation."""
    return [(addr, struct.unpack_from("<Q", e.b, addr - 8)[0])
            for addr, off, typ in e.relocs_for(data)
            if typ == R_X86_64_64 and off % REC_SIZE == OFF_VALUES]


def first_record_with_values(e, data):
    for addr, off, typ in e.relocs_for(data):
        if typ == R_X86_64_64 and off % REC_SIZE == OFF_VALUES:
            return off - OFF_VALUES
    raise AssertionError("no record with value sites")


def craft(src):
    cases = []

    def case(name, what, fn):
        e = Elf(src)
        fn(e)
        cases.append((name, what, bytes(e.b)))

    def truncate_data(e):
        d = e.find("__llvm_prf_data")
        e.set_size(d, d["size"] - 8)

    def counters_after(e):
        d = e.find("__llvm_prf_data")
        e.add_addend(d, OFF_COUNTERPTR, R_X86_64_PC64, 1 << 20)

    def counters_before(e):
        d = e.find("__llvm_prf_data")
        e.add_addend(d, OFF_COUNTERPTR, R_X86_64_PC64, -(1 << 16))

    def numcounters_huge(e):
        d = e.find("__llvm_prf_data")
        struct.pack_into("<I", e.b, d["offset"] + OFF_NUMCOUNTERS, 0x10000000)

    def numcounters_zero(e):
        d = e.find("__llvm_prf_data")
        struct.pack_into("<I", e.b, d["offset"] + OFF_NUMCOUNTERS, 0)

    def values_outside(e):
        d = e.find("__llvm_prf_data")
        rec = first_record_with_values(e, d)
        e.add_addend(d, rec + OFF_VALUES, R_X86_64_64, 1 << 16)

    def values_overlap(e):
        # A record without value sites gets one, at the first value site
        # of the record that has some: its FunctionPointer relocation is
        # turned into a Values relocation like that record's.
        d = e.find("__llvm_prf_data")
        a0, info = value_relocs(e, d)[0]
        rec_a = first_record_with_values(e, d)
        rec_b, entry = next((off - OFF_FUNCPTR, addr - 16)
                            for addr, off, typ in e.relocs_for(d)
                            if typ == R_X86_64_64 and off % REC_SIZE == OFF_FUNCPTR
                            and off - OFF_FUNCPTR != rec_a)
        struct.pack_into("<QQq", e.b, entry, rec_b + OFF_VALUES, info,
                         struct.unpack_from("<q", e.b, a0)[0])
        struct.pack_into("<H", e.b, d["offset"] + rec_b + OFF_NUMVALUESITES, 1)

    def values_prefilled(e):
        v = e.find("__llvm_prf_vals")
        struct.pack_into("<Q", e.b, v["offset"], 0x4141414141414140)

    def data_readonly(e):
        d = e.find("__llvm_prf_data")
        e.set_flags(d, d["flags"] & ~SHF_WRITE)

    def missing(sect, new):
        return lambda e: e.rename(e.find(sect), new)

    def duplicate(e):
        # Empty, so that /sys/module/<name>/sections/ (non-empty allocated
        # sections only) does not see the name twice and fail the load.
        v = e.find("__llvm_prf_vnds")
        e.set_name_off(v, e.find("__llvm_prf_cnts")["name_off"])
        e.set_size(v, 0)

    case("data_truncated", "__llvm_prf_data 8 bytes short of whole records", truncate_data)
    case("counters_after", "first record's CounterPtr moved 1 MiB past its counters", counters_after)
    case("counters_before", "first record's CounterPtr moved 64 KiB before its counters", counters_before)
    case("numcounters_huge", "first record's NumCounters set to 0x10000000", numcounters_huge)
    case("numcounters_zero", "first record's NumCounters set to 0 (llvm-profdata rejects that)",
         numcounters_zero)
    case("values_outside", "a record's Values pointer moved 64 KiB past __llvm_prf_vals", values_outside)
    case("values_overlap", "a record without value sites given the first value site of one with some",
         values_overlap)
    case("values_prefilled", "__llvm_prf_vals' first list head set to 0x4141414141414140",
         values_prefilled)
    case("data_readonly", "__llvm_prf_data without SHF_WRITE (loaded read-only)", data_readonly)
    case("no_counters", "__llvm_prf_cnts renamed __llvm_PRF_cnts (no counters section)",
         missing("__llvm_prf_cnts", "__llvm_PRF_cnts"))
    case("no_names", "__llvm_prf_names renamed __llvm_PRF_names (no names section)",
         missing("__llvm_prf_names", "__llvm_PRF_names"))
    case("no_values", "__llvm_prf_vals renamed __llvm_PRF_vals (no value sites section)",
         missing("__llvm_prf_vals", "__llvm_PRF_vals"))
    case("no_data", "__llvm_prf_data renamed __llvm_PRF_data (no records)",
         missing("__llvm_prf_data", "__llvm_PRF_data"))
    # The loader takes the first section of a name, as for any other
    # section it looks up: the module is profiled, without a node pool.
    case("duplicate", "__llvm_prf_vnds renamed __llvm_prf_cnts and emptied (a second counters "
         "section, after the first): not profiled, with a log line naming both", duplicate)
    case("unknown", "__llvm_prf_vnds renamed __llvm_prf_vndz (a section kernel/pgo does not know, "
         "no value node pool): profiled, values dropped",
         missing("__llvm_prf_vnds", "__llvm_prf_vndz"))
    case("bitmap", "__llvm_prf_vnds renamed __llvm_prf_bits (MC/DC bitmap bytes no record uses, "
         "no value node pool): profiled, values dropped", missing("__llvm_prf_vnds", "__llvm_prf_bits"))
    return cases


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src = open(sys.argv[1], "rb").read()
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "crafted.txt"), "w") as f:
        for name, what, data in craft(src):
            open(os.path.join(out, f"bad_{name}.ko"), "wb").write(data)
            f.write(f"{name} {what}\n")
    print(f"crafted: {len(craft(src))} broken copies of {os.path.basename(sys.argv[1])} in {out}")


if __name__ == "__main__":
    main()
