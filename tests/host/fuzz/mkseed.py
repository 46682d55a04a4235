#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seed inputs of the kernel/pgo fuzz target (tests/host/fuzz/fuzz.c).

  mkseed.py crafted LAYOUT OUTDIR
      the cases of tests/host/crafted/crafted.c, and a few more, as inputs
      for raw version LAYOUT (7, 8 or 10)
  mkseed.py elf LAYOUT ELF OUT [bytecov] [fe]
      the __llvm_prf_* sections of a linked, instrumented executable,
      pointers turned into the input's (section, index) words; bytecov:
      single-byte counters, fe: front-end instrumentation (no IR flag)

The input format is described at the top of fuzz.c.
"""
import os
import random
import struct
import sys

# Record layouts of InstrProfData.inc, per raw version.
LAYOUTS = {
    7: dict(rs=48, cp=16, bp=None, fp=24, vals=32, nc=40, nvs=44, kinds=2, nbb=None),
    8: dict(rs=48, cp=16, bp=None, fp=24, vals=32, nc=40, nvs=44, kinds=2, nbb=None),
    9: dict(rs=64, cp=16, bp=24, fp=32, vals=40, nc=48, nvs=52, kinds=2, nbb=56),
    10: dict(rs=64, cp=16, bp=24, fp=32, vals=40, nc=48, nvs=52, kinds=3, nbb=60),
    # UniformCounterPtr at 24 and OffloadDeviceWaveSize at 66 stay zero.
    11: dict(rs=72, cp=16, bp=32, fp=40, vals=48, nc=56, nvs=60, kinds=3, nbb=68),
}
NODE = 24
DATA, CNTS, BITS, NAMES, VALS, VNDS = range(6)

# fuzz.c's flags.
UNUSED, BYTECOV, VMLINUX, BUILD_ID, TEXT, RETAIN, RESET_ALL, SHORT_BUF = (1 << i for i in range(8))
IR, INIT_TEXT, CSIR, DISCARD = (1 << i for i in range(4))
SAVED, STALE, NOT_ID, THIRD, OTHER, TRIM, SMALL_KB, ADD_FAILS = (1 << i for i in range(8))
# Operations of the code (fz_run()).
CALL, MEMOP, COUNTER, BITMAP = range(4)
CORRELATE = 0x8000                      # seed: CONFIG_PGO_CLANG_CORRELATE

TEXT_START = 0x401000


def P(sect, idx, mis=0):
    """A pointer word: element idx of section sect, plus mis bytes."""
    return (sect + 1) | ((mis & 0xff) << 8) | ((idx & 0xffffffff) << 32)


def u64(v):
    return struct.pack('<Q', v & 0xffffffffffffffff)


class Seed:
    def __init__(self, layout):
        self.L = LAYOUTS[layout]
        self.layout = layout
        self.flags = UNUSED | BUILD_ID | TEXT
        self.flags2 = IR
        self.used = 0
        self.id_len = 20
        self.text, self.text_size, self.init_size = TEXT_START, 0x4000, 0x1000
        self.absent = 0
        self.chunk = 40
        self.seed = 0x1234
        self.retain = 0
        self.split = 128
        self.sect = [bytearray() for _ in range(6)]
        self.size = [None] * 6      # None: the bytes' length
        self.skip = [0] * 6
        self.trim = [0] * 6
        self.ops = bytearray()

    def record(self, nameref, funchash, counters, ncounters, sites, fp=0,
               values=0, bitmap=0, nbitmap=0):
        L = self.L
        r = bytearray(L['rs'])
        struct.pack_into('<QQQ', r, 0, nameref, funchash, counters)
        if L['bp'] is not None:
            struct.pack_into('<Q', r, L['bp'], bitmap)
        struct.pack_into('<QQ', r, L['fp'], fp, values)
        struct.pack_into('<I', r, L['nc'], ncounters)
        sites = (list(sites) + [0, 0, 0])[:L['kinds']]
        struct.pack_into('<%dH' % L['kinds'], r, L['nvs'], *sites)
        if L['nbb'] is not None:
            struct.pack_into('<I', r, L['nbb'], nbitmap)
        self.sect[DATA] += r

    def node(self, value, count, nxt=0):
        self.sect[VNDS] += u64(value) + u64(count) + u64(nxt)

    def op(self, kind=CALL, rec=0, site=0, value=0, rep=1, distinct=False):
        self.ops += bytes([(rep - 1) << 3 | (4 if distinct else 0) | kind,
                           rec, site, value])

    def bytes(self):
        hdr = struct.pack('<BBBBIHHBBHBB', self.flags, self.flags2, self.used,
                          self.id_len, self.text, self.text_size,
                          self.init_size, self.absent, self.chunk, self.seed,
                          self.retain, self.split)
        body = b''
        for s in range(6):
            size = len(self.sect[s]) if self.size[s] is None else self.size[s]
            hdr += struct.pack('<HBB', size, self.skip[s], self.trim[s])
            if not self.absent & (1 << s):
                body += bytes(self.sect[s][:size]).ljust(size, b'\0')
        assert len(hdr) == 42
        return hdr + body + bytes(self.ops)


NR, SITES, POOL = 3, 2, 4


def crafted_new(layout, cs=8):
    """crafted.c's crafted_new(): 3 records, 2 counters, 2 sites, 4 nodes."""
    s = Seed(layout)
    for i in range(NR):
        s.record(0x1000 + i, 0x2000 + i, P(CNTS, 2 * i), 2, [1, 1],
                 fp=TEXT_START + 0x100 * i, values=P(VALS, SITES * i))
    cnts = bytearray(NR * 2 * cs)
    for i in range(NR):
        cnts[2 * i * cs] = 10 + i if cs == 8 else 0
    s.sect[CNTS] = cnts
    if cs == 1:
        s.flags |= BYTECOV
    s.sect[NAMES] = bytearray(b'names')
    s.sect[VALS] = bytearray(NR * SITES * 8)
    for _ in range(POOL):
        s.node(0, 0)
    return s


def set_head(s, i, word):
    s.sect[VALS][8 * i:8 * i + 8] = u64(word)


def set_node(s, i, value, count, nxt=0):
    s.sect[VNDS][NODE * i:NODE * i + NODE] = u64(value) + u64(count) + u64(nxt)


def set_rec(s, i, off, fmt, v):
    struct.pack_into(fmt, s.sect[DATA], s.L['rs'] * i + off, v)


def calls(s, n=24, rnd=None):
    """What code does: calls, counter increments, bitmap bits, mixed."""
    rnd = rnd or random.Random(1)
    for _ in range(n):
        s.op(kind=rnd.choice([CALL, CALL, MEMOP, COUNTER, COUNTER, BITMAP]),
             rec=rnd.randrange(256), site=rnd.randrange(256),
             value=rnd.randrange(256), rep=rnd.choice([1, 1, 2, 5, 30]),
             distinct=rnd.random() < 0.3)


def crafted(layout, out):
    seeds = {}

    s = crafted_new(layout)             # case_valid, a module coming
    calls(s)
    seeds['valid'] = s

    s = crafted_new(layout)             # case_valid, lists that ran
    s.flags &= ~UNUSED
    s.used = 3
    set_head(s, 0, P(VNDS, 0))
    set_node(s, 0, 0x100, 1, P(VNDS, 1))
    set_node(s, 1, 0x101, 2)
    set_head(s, 5, P(VNDS, 2))
    set_node(s, 2, 0x102, 3)
    seeds['valid-ran'] = s

    s = crafted_new(layout)             # case_overlap
    set_rec(s, 1, s.L['vals'], '<Q', P(VALS, 1))
    seeds['overlap'] = s

    for name, word in (('heads-misaligned', P(VALS, 4, 1)),
                       ('heads-past', P(VALS, 5)),
                       ('heads-before', P(VALS, -2)),
                       ('heads-none', 0)):
        s = crafted_new(layout)         # case_heads
        set_rec(s, 2, s.L['vals'], '<Q', word)
        s.flags &= ~UNUSED
        seeds[name] = s

    s = crafted_new(layout)             # pre-filled lists in a coming module
    set_head(s, 3, P(VNDS, 1))
    seeds['prefilled'] = s

    s = crafted_new(layout)             # counters past the end
    set_rec(s, 2, s.L['cp'], '<Q', P(CNTS, 5))
    seeds['counters-past'] = s

    s = crafted_new(layout)             # a misaligned counters section
    s.skip[CNTS] = 1
    seeds['counters-misaligned'] = s

    s = crafted_new(layout)             # a misaligned pool
    s.skip[VNDS] = 4
    seeds['pool-misaligned'] = s

    s = crafted_new(layout)             # case_cycles
    s.flags &= ~UNUSED
    s.used = 2
    set_head(s, 0, P(VNDS, 0))
    set_node(s, 0, 0x100, 1, P(VNDS, 1))
    set_node(s, 1, 0x101, 2, P(VNDS, 0))
    seeds['cycle'] = s

    s = crafted_new(layout)             # case_cycles: past the limit, itself
    s.flags &= ~UNUSED
    s.flags |= RETAIN                   # merged: more values than nodes
    s.used = 1
    set_head(s, 0, P(VNDS, 0))
    set_node(s, 0, 0x100, 1, P(VNDS, 2))
    set_node(s, 2, 0x102, 1, P(VNDS, 3))
    set_node(s, 3, 0x103, 1, P(VNDS, 2))
    set_head(s, 2, P(VNDS, 1))
    set_node(s, 1, 0x101, 1, P(VNDS, 1))
    seeds['cycle-past'] = s

    s = crafted_new(layout)             # case_outside
    s.flags &= ~UNUSED
    s.used = 4
    set_head(s, 0, P(BITS, 0))          # another allocation
    set_head(s, 1, P(VNDS, 1, 8))       # inside a node
    set_head(s, 2, P(VNDS, POOL))       # one past the pool
    set_head(s, 3, P(VNDS, 3))
    set_node(s, 3, 0x103, 4, P(VNDS, -1))
    s.sect[BITS] = bytearray(16)
    seeds['outside'] = s

    s = crafted_new(layout)             # case_small
    s.flags &= ~UNUSED
    s.flags |= SHORT_BUF
    s.used = 4
    set_head(s, 0, P(VNDS, 0))
    set_node(s, 0, 0x100, 1, P(VNDS, 1))
    set_node(s, 1, 0x101, 1)
    set_head(s, 2, P(VNDS, 2))
    set_node(s, 2, 0x102, 1)
    set_head(s, 5, P(VNDS, 3))
    set_node(s, 3, 0x103, 1)
    seeds['small'] = s

    s = crafted_new(layout)             # case_pieces: 1-byte reads
    s.chunk = 0
    seeds['pieces'] = s

    s = crafted_new(layout)             # case_no_pool
    s.flags &= ~UNUSED
    s.absent = 1 << VNDS
    set_head(s, 0, 0x40)
    seeds['no-pool'] = s

    s = crafted_new(layout)             # case_runtime: the pool runs out
    s.op(CALL, rec=1, site=0, value=0x50, rep=10, distinct=True)
    seeds['runtime'] = s

    s = crafted_new(layout)             # more values than a site keeps
    for _ in range(60):
        s.node(0, 0)
    s.op(CALL, rec=0, site=0, value=0x10, rep=24, distinct=True)
    s.op(CALL, rec=0, site=0, value=0x10, rep=24, distinct=True)
    s.op(CALL, rec=0, site=0, value=0x30, rep=3, distinct=True)
    s.op(CALL, rec=0, site=0, value=0x10, rep=30, distinct=True)
    s.op(CALL, rec=0, site=0, value=0x10, rep=5)
    s.op(MEMOP, rec=2, site=0, value=0xc0, rep=32, distinct=True)
    s.op(MEMOP, rec=2, site=0, value=0x05, rep=32, distinct=True)
    s.split = 200
    seeds['evict'] = s

    if layout >= 9:                     # case_bitmap
        for name, at, n in (('bitmap', 1, 2), ('bitmap-past', 1, 3),
                            ('bitmap-before', -1, 1)):
            s = crafted_new(layout)
            s.sect[BITS] = bytearray(b'\0\x5a\xa5')
            set_rec(s, 1, s.L['bp'], '<Q', P(BITS, at))
            set_rec(s, 1, s.L['nbb'], '<I', n)
            s.flags |= RETAIN
            calls(s, 8)
            seeds[name] = s

    if layout >= 8:                     # single-byte counters
        s = crafted_new(layout, cs=1)
        s.flags |= RETAIN
        calls(s, 8)
        seeds['bytecov'] = s

    s = crafted_new(layout)             # vmlinux, code relative to _text
    s.flags = VMLINUX | BUILD_ID | TEXT | RESET_ALL
    calls(s, 32, random.Random(2))
    seeds['vmlinux'] = s

    s = crafted_new(layout)             # a module unloaded twice
    s.flags |= RETAIN | RESET_ALL
    s.flags2 |= INIT_TEXT
    calls(s, 32, random.Random(3))
    seeds['retain'] = s

    s = crafted_new(layout)             # three times, saved: discarded
    s.flags |= RETAIN
    s.flags2 |= DISCARD
    s.retain = THIRD | SAVED
    calls(s, 16, random.Random(4))
    seeds['retain-saved'] = s

    s = crafted_new(layout)             # an earlier copy's id (its line): ESTALE, kept
    s.flags |= RETAIN
    s.flags2 |= DISCARD
    s.retain = THIRD | SAVED | STALE
    calls(s, 16, random.Random(9))
    seeds['retain-stale'] = s

    s = crafted_new(layout)             # "saved" given no number: kept
    s.flags |= RETAIN
    s.flags2 |= DISCARD
    s.retain = SAVED | NOT_ID
    s.seed = 0x1234                     # fuzz.c's fz_saved_forms[12]
    calls(s, 16, random.Random(10))
    seeds['retain-not-id'] = s

    s = crafted_new(layout)             # another binary, the dropped one's id
                                        # (no line of the copy: success, kept),
                                        # trimmed
    s.flags |= RETAIN
    s.flags2 |= DISCARD
    s.retain = THIRD | OTHER | TRIM | SAVED | STALE
    calls(s, 16, random.Random(6))
    seeds['retain-other'] = s

    s = crafted_new(layout)             # past pgo.retain_kb
    s.flags |= RETAIN
    s.retain = SMALL_KB
    s.sect[NAMES] = bytearray(b'n' * 1500)
    calls(s, 8, random.Random(5))
    seeds['retain-small'] = s

    s = crafted_new(layout)             # three loads, pgo.retain_kb=1
    s.flags |= RETAIN
    s.retain = SMALL_KB | THIRD
    s.seed = 0x1000
    calls(s, 8, random.Random(7))
    seeds['retain-small-3'] = s

    s = crafted_new(layout)             # sysfs fails
    s.flags |= RETAIN
    s.retain = ADD_FAILS | THIRD
    calls(s, 8, random.Random(8))
    seeds['retain-no-sysfs'] = s

    s = crafted_new(layout)             # the copy's profraw and reset fail
    s.flags |= RETAIN
    s.retain = ADD_FAILS | THIRD
    s.seed = 0x1236                     # bit 1: pgo_files_add() fails
    calls(s, 8, random.Random(11))
    seeds['retain-no-files'] = s

    s = crafted_new(layout)             # no records: header and names only
    s.sect[DATA] = bytearray()
    s.sect[CNTS] = bytearray()
    seeds['empty'] = s

    # Correlated (raw version 9 on): a module with counters and bitmaps,
    # its records, names and value sections left in the .ko file; then
    # ones with names or value sections in memory, which the check
    # refuses.
    s = crafted_new(layout)
    s.flags2 &= ~IR
    s.flags |= RETAIN
    s.retain = THIRD
    s.absent = 1 << DATA | 1 << NAMES | 1 << VALS | 1 << VNDS
    s.seed |= CORRELATE
    s.sect[BITS] = bytearray(16)
    rnd = random.Random(30)
    for _ in range(24):
        s.op(kind=rnd.choice([COUNTER, COUNTER, BITMAP]), rec=rnd.randrange(256),
             site=rnd.randrange(256), value=rnd.randrange(256),
             rep=rnd.choice([1, 2, 5]))
    seeds['correlated'] = s
    s = crafted_new(layout)
    s.absent = 1 << DATA | 1 << VALS | 1 << VNDS
    s.seed |= CORRELATE
    seeds['correlated-names'] = s
    s = crafted_new(layout)
    s.absent = 1 << DATA | 1 << NAMES
    s.seed |= CORRELATE
    seeds['correlated-values'] = s
    s = crafted_new(layout)             # a correlated vmlinux
    s.flags = (s.flags | VMLINUX) & ~UNUSED
    s.flags2 &= ~IR
    s.seed |= CORRELATE
    s.size[DATA] = s.size[NAMES] = s.size[VALS] = s.size[VNDS] = 0
    calls(s, 16, random.Random(31))
    seeds['correlated-vmlinux'] = s

    os.makedirs(out, exist_ok=True)
    for name, s in seeds.items():
        with open(os.path.join(out, 'crafted-%s' % name), 'wb') as f:
            f.write(s.bytes())


def elf_sections(path):
    d = open(path, 'rb').read()
    assert d[:4] == b'\x7fELF' and d[4] == 2, 'not a 64-bit ELF file'
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
            for i in range(shnum)]
    strtab = hdrs[shstrndx]
    names = d[strtab[4]:strtab[4] + strtab[5]]
    sects = {}
    for h in hdrs:
        name = names[h[0]:names.index(b'\0', h[0])].decode()
        data = bytes(h[5]) if h[1] == 8 else d[h[4]:h[4] + h[5]]
        sects[name] = (h[3], data)
    return sects


def elf(layout, path, out, bytecov=False, fe=False):
    """An executable's profile sections as an input."""
    s = Seed(layout)
    if fe:
        s.flags2 &= ~IR
    L = s.L
    cs = 1 if bytecov else 8
    if bytecov:
        s.flags |= BYTECOV
    es = elf_sections(path)
    names = ['__llvm_prf_data', '__llvm_prf_cnts', '__llvm_prf_bits',
             '__llvm_prf_names', '__llvm_prf_vals', '__llvm_prf_vnds']
    addr = [es[n][0] if n in es else None for n in names]
    for i, n in enumerate(names):
        if n in es:
            s.sect[i] = bytearray(es[n][1])
        else:
            s.absent |= 1 << i
    text_addr, text = es['.text']
    s.text, s.text_size = text_addr, min(len(text), 0xffff)

    def enc(target, sect, elem):
        base = addr[sect]
        if base is None or not base <= target <= base + len(s.sect[sect]):
            return target
        return P(sect, (target - base) // elem, (target - base) % elem)

    data = s.sect[DATA]
    for i in range(len(data) // L['rs']):
        o = i * L['rs']
        rec = addr[DATA] + o
        cp, = struct.unpack_from('<Q', data, o + L['cp'])
        target = cp if layout == 7 else (rec + cp) & (2**64 - 1)
        struct.pack_into('<Q', data, o + L['cp'], enc(target, CNTS, cs))
        if L['bp'] is not None:
            bp, = struct.unpack_from('<Q', data, o + L['bp'])
            nbb, = struct.unpack_from('<I', data, o + L['nbb'])
            word = enc((rec + bp) & (2**64 - 1), BITS, 1) if nbb else bp
            struct.pack_into('<Q', data, o + L['bp'], word)
        v, = struct.unpack_from('<Q', data, o + L['vals'])
        struct.pack_into('<Q', data, o + L['vals'], enc(v, VALS, 8) if v else 0)
    s.flags |= RETAIN
    s.retain = THIRD
    calls(s, 64, random.Random(len(data)))
    with open(out, 'wb') as f:
        f.write(s.bytes())


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'crafted':
        crafted(int(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) >= 5 and sys.argv[1] == 'elf':
        elf(int(sys.argv[2]), sys.argv[3], sys.argv[4],
            'bytecov' in sys.argv[5:], 'fe' in sys.argv[5:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
