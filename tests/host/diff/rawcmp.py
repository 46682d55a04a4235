#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two LLVM raw profiles (.profraw) byte for byte, modulo the fields
that legitimately differ between compiler-rt's writer and kernel/pgo/format.c.

    rawcmp.py [--no-values] [--allow-padding] A.profraw B.profraw
    rawcmp.py --corrupt {counter,wake,value,masked} IN OUT

Exit status: 0 identical apart from the masked fields, 1 different,
2 a file could not be parsed.

--no-values compares everything but the value blocks (which must still
parse): for runs whose value node pools differ in size.

--allow-padding lets the sizes of the padding parts differ (their header
fields are then masked too; their bytes must be zero): compiler-rt 14-16
writes no padding after single-byte counters, format.c pads to 8 bytes.

--corrupt writes a damaged copy of IN, for the negative tests of run.sh:
  counter  flip the low bit of the first counter byte
  wake     set the first counter of the first never-run function to 1
  value    add one to the count of the first recorded value
  masked   change only masked fields (must still compare identical)

Masked (and why):
  header  CountersDelta  compiler-rt: start of __llvm_prf_cnts in memory
                         (v7: absolute; v8+: minus start of __llvm_prf_data);
                         format.c: the same in file offsets.
  header  BitmapDelta    (v9+) likewise for the bitmap.
  header  NamesDelta     compiler-rt: address of __llvm_prf_names; format.c: 0.
                         No reader uses it.
  record  CounterPtr     compiler-rt: the in-memory pointer (v7 absolute, v8+
                         relative to the record); format.c: the same for the
                         counters' place in the file.
  record  BitmapPtr      (v9+) likewise.
  record  Values         compiler-rt: address of the record's value-site
                         array; format.c: 0.  No reader uses it.

The masked counter fields are not simply ignored: each record's counters are
resolved through CounterPtr and CountersDelta the way the reader does it, in
both files, and must be the same.  Everything else -- the rest of the header,
binary ids, every other record byte (incl. padding), counters, padding, the
bitmap, names, vtables and value blocks -- must be identical.  The value
blocks are also walked, to check that their sizes tile the end of the file.
"""

import struct
import sys

MAGIC = 0xFF6C70726F667281  # INSTR_PROF_RAW_MAGIC_64
BYTE_COVERAGE = 1 << 60     # VARIANT_MASK_BYTE_COVERAGE (raw v8+)

HEADER_FIELDS = {
    7: ["Magic", "Version", "BinaryIdsSize", "DataSize",
        "PaddingBytesBeforeCounters", "CountersSize",
        "PaddingBytesAfterCounters", "NamesSize", "CountersDelta",
        "NamesDelta", "ValueKindLast"],
    10: ["Magic", "Version", "BinaryIdsSize", "NumData",
         "PaddingBytesBeforeCounters", "NumCounters",
         "PaddingBytesAfterCounters", "NumBitmapBytes",
         "PaddingBytesAfterBitmapBytes", "NamesSize", "CountersDelta",
         "BitmapDelta", "NamesDelta", "NumVTables", "VNamesSize",
         "ValueKindLast"],
}
HEADER_FIELDS[8] = HEADER_FIELDS[7]
# 9 (LLVM 18): 10 without the vtable fields.
HEADER_FIELDS[9] = [f for f in HEADER_FIELDS[10]
                    if f not in ("NumVTables", "VNamesSize")]
# 11 (LLVM 23): GPU offload's uniform counters after the bitmap.
HEADER_FIELDS[11] = (HEADER_FIELDS[10][:9] +
                     ["NumUniformCounters", "PaddingBytesAfterUniformCounters",
                      "UniformCountersDelta"] + HEADER_FIELDS[10][9:])
MASKED_HEADER = {"CountersDelta", "BitmapDelta", "NamesDelta"}
# UniformCountersDelta (v11) is 0 in both: CPU code has no uniform counters.
MASKED_RECORD = {"CounterPtr", "BitmapPtr", "Values"}
VTABLE_RECORD_SIZE = 24  # VTableNameHash, VTablePointer, VTableSize (+pad)


class ParseError(Exception):
    pass


def align8(n):
    return (n + 7) & ~7


class Profile:
    """A raw profile split into its parts, following the reader's layout."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.raw = f.read()
        raw = self.raw
        if len(raw) < 16:
            raise ParseError(f"{path}: too short for a header")
        magic, version = struct.unpack_from("<QQ", raw, 0)
        if magic != MAGIC:
            raise ParseError(f"{path}: bad magic {magic:#x}")
        self.version = version & 0xFFFFFFFF
        self.flags = version & ~0xFFFFFFFF
        if self.version not in HEADER_FIELDS:
            raise ParseError(f"{path}: raw version {self.version} not known")
        names = HEADER_FIELDS[self.version]
        self.header_size = 8 * len(names)
        if len(raw) < self.header_size:
            raise ParseError(f"{path}: truncated header")
        vals = struct.unpack_from(f"<{len(names)}Q", raw, 0)
        self.h = dict(zip(names, vals))
        self.header_names = names
        h = self.h
        self.nr_data = h.get("NumData", h.get("DataSize"))
        self.nr_counters = h.get("NumCounters", h.get("CountersSize"))
        self.nr_kinds = h["ValueKindLast"] + 1
        if self.nr_kinds > 8:
            raise ParseError(f"{path}: ValueKindLast {h['ValueKindLast']}")
        self.counter_size = 1 if (self.version >= 8 and
                                  version & BYTE_COVERAGE) else 8

        # Record layout, as InstrProfData.inc declares it.
        fields = [("NameRef", "Q"), ("FuncHash", "Q"), ("CounterPtr", "Q")]
        if self.version >= 11:
            fields.append(("UniformCounterPtr", "Q"))
        if self.version >= 9:
            fields.append(("BitmapPtr", "Q"))
        fields += [("FunctionPointer", "Q"), ("Values", "Q"),
                   ("NumCounters", "I")]
        fields += [(f"NumValueSites[{k}]", "H") for k in range(self.nr_kinds)]
        if self.version >= 11:
            fields.append(("OffloadDeviceWaveSize", "H"))
        if self.version >= 9:
            fields.append(("NumBitmapBytes", "I"))
        self.rec_fields = []  # (name, offset, size, fmt)
        off = 0
        for name, fmt in fields:
            size = struct.calcsize("<" + fmt)
            off = (off + size - 1) & ~(size - 1)
            self.rec_fields.append((name, off, size, fmt))
            off += size
        self.rec_size = align8(off)

        # File layout, in the reader's order.
        parts = []
        pos = self.header_size

        def part(name, size):
            nonlocal pos
            if size < 0 or pos + size > len(raw):
                raise ParseError(f"{path}: {name} runs past the end "
                                 f"({pos}+{size} > {len(raw)})")
            parts.append((name, pos, size))
            pos += size

        part("binary ids", h["BinaryIdsSize"])
        part("data", self.nr_data * self.rec_size)
        part("padding before counters", h["PaddingBytesBeforeCounters"])
        part("counters", self.nr_counters * self.counter_size)
        part("padding after counters", h["PaddingBytesAfterCounters"])
        if self.version >= 9:
            part("bitmap", h["NumBitmapBytes"])
            part("padding after bitmap", h["PaddingBytesAfterBitmapBytes"])
        if self.version >= 11:
            part("uniform counters", h["NumUniformCounters"] * 8)
            part("padding after uniform counters",
                 h["PaddingBytesAfterUniformCounters"])
        part("names", h["NamesSize"])
        part("padding after names", align8(h["NamesSize"]) - h["NamesSize"])
        if self.version >= 10:
            part("vtables", h["NumVTables"] * VTABLE_RECORD_SIZE)
            part("vtable names", h["VNamesSize"])
            part("padding after vtable names",
                 align8(h["VNamesSize"]) - h["VNamesSize"])
        part("value blocks", len(raw) - pos)
        self.parts = parts
        self.offsets = {name: (o, s) for name, o, s in parts}

        self.records = []
        data_off = self.offsets["data"][0]
        for i in range(self.nr_data):
            base = data_off + i * self.rec_size
            rec = {}
            for name, off, size, fmt in self.rec_fields:
                rec[name] = struct.unpack_from("<" + fmt, raw, base + off)[0]
            rec["_offset"] = base
            self.records.append(rec)
        self.value_blocks = self._walk_values()

    def sites(self, rec):
        return sum(rec[f"NumValueSites[{k}]"] for k in range(self.nr_kinds))

    def _walk_values(self):
        """Walk the value blocks like the reader: one per record with sites."""
        off, size = self.offsets["value blocks"]
        end = off + size
        blocks = 0
        values = 0
        for i, rec in enumerate(self.records):
            if not self.sites(rec):
                continue
            if off + 8 > end:
                raise ParseError(f"{self.path}: value block of record {i} "
                                 "missing (truncated)")
            total, nkinds = struct.unpack_from("<II", self.raw, off)
            if total % 8 or off + total > end or total < 8:
                raise ParseError(f"{self.path}: value block of record {i} "
                                 f"has bad TotalSize {total}")
            p = off + 8
            for _ in range(nkinds):
                kind, nsites = struct.unpack_from("<II", self.raw, p)
                if kind >= self.nr_kinds or \
                        nsites != rec[f"NumValueSites[{kind}]"]:
                    raise ParseError(f"{self.path}: value block of record {i}"
                                     f": kind {kind} with {nsites} sites")
                counts = self.raw[p + 8:p + 8 + nsites]
                p += align8(8 + nsites) + 16 * sum(counts)
                values += sum(counts)
            if p != off + total:
                raise ParseError(f"{self.path}: value block of record {i}: "
                                 f"TotalSize {total} but contents {p - off}")
            off += total
            blocks += 1
        if off != end:
            raise ParseError(f"{self.path}: {end - off} bytes after the last "
                             "value block")
        return blocks, values

    def counters_of(self, i):
        """Counters of record i, found through CounterPtr as readers do."""
        rec = self.records[i]
        rel = cnts_offset(self, i)
        cnt_off, cnt_size = self.offsets["counters"]
        n = rec["NumCounters"] * self.counter_size
        if rel % self.counter_size or rel + n > cnt_size:
            raise ParseError(f"{self.path}: record {i}: CounterPtr points "
                             f"outside the counters (offset {rel:#x})")
        return self.raw[cnt_off + rel:cnt_off + rel + n]

    def bitmap_of(self, i):
        """MC/DC bitmap bytes of record i, found through BitmapPtr as
        readers do (v9+; none before)."""
        rec = self.records[i]
        n = rec.get("NumBitmapBytes", 0)
        if not n:
            return b""
        rel = bits_offset(self, i)
        off, size = self.offsets["bitmap"]
        if rel + n > size:
            raise ParseError(f"{self.path}: record {i}: BitmapPtr points "
                             f"outside the bitmap (offset {rel:#x})")
        return self.raw[off + rel:off + rel + n]

    def masked_bytes(self):
        """Byte offsets of the masked fields."""
        masked = set()
        for j, name in enumerate(self.header_names):
            if name in MASKED_HEADER:
                masked.update(range(8 * j, 8 * j + 8))
        for rec in self.records:
            for name, off, size, _ in self.rec_fields:
                if name in MASKED_RECORD:
                    start = rec["_offset"] + off
                    masked.update(range(start, start + size))
        return masked

    def where(self, pos):
        """Name the part and field a byte offset falls in."""
        if pos < self.header_size:
            return f"header.{self.header_names[pos // 8]}"
        for name, off, size in self.parts:
            if off <= pos < off + size:
                if name == "data":
                    i, r = divmod(pos - off, self.rec_size)
                    for fname, foff, fsize, _ in self.rec_fields:
                        if foff <= r < foff + fsize:
                            return f"record {i}.{fname}"
                    return f"record {i}.(padding at {r})"
                return f"{name} +{pos - off}"
        return "past the end"


PADDING_FIELDS = {
    "padding before counters": "PaddingBytesBeforeCounters",
    "padding after counters": "PaddingBytesAfterCounters",
    "padding after bitmap": "PaddingBytesAfterBitmapBytes",
}


def compare(a, b, values=True, padding=False):
    """Compare part by part.  Returns (problems, notes)."""
    problems = []
    notes = []
    if a.version != b.version or a.flags != b.flags:
        problems.append(f"version word differs: {a.h['Version']:#x} vs "
                        f"{b.h['Version']:#x}")
    if [p[0] for p in a.parts] != [p[0] for p in b.parts]:
        problems.append("the files have different parts")
    if problems:
        return problems, notes

    # Padding whose size may differ (--allow-padding): its header field is
    # masked too, and its bytes must be zero in both files.
    loose = set()
    masked_a, masked_b = a.masked_bytes(), b.masked_bytes()
    for (name, oa, sa), (_, ob, sb) in zip(a.parts, b.parts):
        if sa == sb or not name.startswith("padding"):
            continue
        if not padding:
            continue  # reported below
        notes.append(f"{name}: {sa} vs {sb} bytes (allowed)")
        loose.add(name)
        field = PADDING_FIELDS.get(name)
        if field:
            j = a.header_names.index(field)
            masked_a |= set(range(8 * j, 8 * j + 8))
            masked_b |= set(range(8 * j, 8 * j + 8))

    fields = []
    for (name, oa, sa), (_, ob, sb) in zip(a.parts, b.parts):
        if name == "value blocks" and not values:
            continue
        if name in loose:
            if any(a.raw[oa:oa + sa]) or any(b.raw[ob:ob + sb]):
                fields.append(f"{name}: not zero")
            continue
        if sa != sb:
            fields.append(f"{name}: {sa} vs {sb} bytes")
            continue
        for i in range(sa):
            if a.raw[oa + i] != b.raw[ob + i] and oa + i not in masked_a \
                    and ob + i not in masked_b:
                w = a.where(oa + i)
                if w not in fields:
                    fields.append(w)
    # The header lies before every part.
    for i in range(a.header_size):
        if a.raw[i] != b.raw[i] and i not in masked_a and i not in masked_b:
            w = a.where(i)
            if w not in fields:
                fields.append(w)
    for w in fields[:8]:
        problems.append(f"differs: {w}")
    if len(fields) > 8:
        problems.append(f"... and {len(fields) - 8} more fields")

    bad = []
    for i in range(len(a.records)):
        try:
            ca, cb = a.counters_of(i), b.counters_of(i)
            ba, bb = a.bitmap_of(i), b.bitmap_of(i)
        except ParseError as e:
            problems.append(str(e))
            continue
        if ca != cb or ba != bb:
            bad.append(str(i))
    if bad:
        problems.append(f"counters (or bitmaps) found through CounterPtr "
                        f"(BitmapPtr) differ for "
                        f"{len(bad)} records: {' '.join(bad[:12])}"
                        f"{' ...' if len(bad) > 12 else ''}")
    return problems, notes


def corrupt(mode, src, dst):
    p = Profile(src)
    raw = bytearray(p.raw)
    cnt_off, cnt_size = p.offsets["counters"]
    if mode == "counter":
        raw[cnt_off] ^= 1
    elif mode == "wake":
        for i in range(len(p.records)):
            cnts = p.counters_of(i)
            if cnts and not any(cnts):
                pos = cnt_off + cnts_offset(p, i)
                raw[pos] = 1
                break
        else:
            raise ParseError(f"{src}: no function with zero counters")
    elif mode == "value":
        off, size = p.offsets["value blocks"]
        # Walk to the first value of the first kind with one.
        end = off + size
        while off < end:
            total, nkinds = struct.unpack_from("<II", raw, off)
            q = off + 8
            for _ in range(nkinds):
                _, nsites = struct.unpack_from("<II", raw, q)
                nvals = sum(raw[q + 8:q + 8 + nsites])
                q += align8(8 + nsites)
                if nvals:
                    # {u64 value; u64 count}: bump the count
                    struct.pack_into("<Q", raw, q + 8,
                                     struct.unpack_from("<Q", raw, q + 8)[0]
                                     + 1)
                    break
                q += 16 * nvals
            else:
                off += total
                continue
            break
        else:
            raise ParseError(f"{src}: no value recorded")
    elif mode == "masked":
        names = p.header_names
        j = names.index("NamesDelta")
        struct.pack_into("<Q", raw, 8 * j, p.h["NamesDelta"] ^ 0x123456789)
        voff = [off for n, off, *_ in p.rec_fields if n == "Values"][0]
        for rec in p.records:
            struct.pack_into("<Q", raw, rec["_offset"] + voff,
                             0xDEADBEEF00000000 | rec["_offset"])
    else:
        raise ParseError(f"unknown corruption {mode}")
    with open(dst, "wb") as f:
        f.write(raw)
    return 0


def cnts_offset(p, i):
    """Offset of record i's counters inside the counters part."""
    rec = p.records[i]
    delta = p.h["CountersDelta"]
    if p.version >= 8:
        # Relative pointers: the reader moves the delta along with the
        # record it reads.
        delta = (delta - i * p.rec_size) & (2**64 - 1)
    return (rec["CounterPtr"] - delta) & (2**64 - 1)


def bits_offset(p, i):
    """Offset of record i's MC/DC bitmap inside the bitmap part (v9+)."""
    delta = (p.h["BitmapDelta"] - i * p.rec_size) & (2**64 - 1)
    return (p.records[i]["BitmapPtr"] - delta) & (2**64 - 1)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--corrupt":
        try:
            return corrupt(*sys.argv[2:])
        except (ParseError, OSError, struct.error) as e:
            print(f"rawcmp: cannot corrupt: {e}")
            return 2
    args = sys.argv[1:]
    values = True
    padding = False
    while args and args[0].startswith("--"):
        if args[0] == "--no-values":
            values = False
        elif args[0] == "--allow-padding":
            padding = True
        else:
            print(__doc__, file=sys.stderr)
            return 2
        args = args[1:]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        a, b = Profile(args[0]), Profile(args[1])
    except (ParseError, OSError, struct.error) as e:
        print(f"rawcmp: cannot parse: {e}")
        return 2
    problems, notes = compare(a, b, values, padding)
    masked_h = [n for n in a.header_names if n in MASKED_HEADER]
    masked_r = [n for n, *_ in a.rec_fields if n in MASKED_RECORD]
    nmasked = sum(1 for i in a.masked_bytes() if i < len(b.raw) and
                  a.raw[i] != b.raw[i])
    desc = (f"raw v{a.version}, {len(a.raw)} bytes, {a.nr_data} records, "
            f"{a.nr_counters} counters, {a.h.get('NumBitmapBytes', 0)} bitmap "
            f"bytes, {a.h['NamesSize']} name bytes, "
            f"{a.value_blocks[0]} value blocks with {a.value_blocks[1]} "
            f"values")
    if problems:
        print(f"rawcmp: DIFFERENT ({desc})")
        for p in problems:
            print(f"rawcmp:   {p}")
        return 1
    if notes:
        desc += "; " + "; ".join(notes)
    if not values:
        desc += (f"; value blocks not compared: {b.value_blocks[1]} values "
                 "in the second file")
    print(f"rawcmp: identical except masked fields ({desc}); masked: header "
          f"{' '.join(masked_h)}; record {' '.join(masked_r)}; "
          f"{nmasked} masked bytes differ; counters resolved through "
          f"CounterPtr{' and bitmaps through BitmapPtr' if a.h.get('NumBitmapBytes') else ''} "
          f"agree for all {a.nr_data} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
