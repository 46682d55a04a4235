#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count the functions of one profiled object that share a profile name.

Kbuild names a static function "<path in the tree>;<function>" in its
profile (-static-func-strip-dirname-prefix: the build directory stripped),
so static functions of same-named files in different directories keep
names of their own.  Named by the file's name alone (clang's
-static-func-full-module-prefix=false, as before), two of them that end up
in one object share a name; their records stay apart while their
control-flow hashes differ (llvm-profdata and -fprofile-use key a record
by name and hash), and with the same hash llvm-profdata merges their
counts and each function is built with the sum.

usage: name-collisions.py [-v] ELF...   (vmlinux and .ko files, instrumented)
       name-collisions.py --names ELF    (every profile name, one per line;
                                          also of an object file)
Prints per object: records, names shared by several records, and how many
of those share their hash too, static or global.  A global name shared by
records is a weak definition (a __weak or COND_SYSCALL stub) and the one
that overrides it: the linker drops the weak code but not its record, which
never counts, so the merged counts are the strong definition's.  Exit
status 1 if static functions share a name and a hash.
"""
import hashlib
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'host', 'fuzz'))
from mkseed import LAYOUTS  # noqa: E402  the record layouts, per raw version

RAW = '__llvm_profile_raw_version'


def elf(path):
    data = open(path, 'rb').read()
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        raise SystemExit(f'{path}: not a 64-bit little-endian ELF file')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size, link = struct.unpack_from(
            '<IIQQQQI', data, shoff + i * shentsize)
        secs.append([name, typ, addr, off, size, link])
    strtab = secs[shstrndx]
    for s in secs:
        end = data.index(b'\0', strtab[3] + s[0])
        s[0] = data[strtab[3] + s[0]:end].decode()
    return data, secs


def symbols(data, secs):
    syms = {}
    for s in secs:
        if s[1] != 2:           # SHT_SYMTAB
            continue
        strs = secs[s[5]]
        for off in range(s[3], s[3] + s[4], 24):
            name, info, other, shndx, value, size = struct.unpack_from(
                '<IBBHQQ', data, off)
            end = data.index(b'\0', strs[3] + name)
            syms[data[strs[3] + name:end].decode(errors='replace')] = (value, shndx)
    return syms


def by_address(data, secs, start, stop):
    for s in secs:
        if s[1] != 8 and s[2] <= start and stop <= s[2] + s[4]:  # not NOBITS
            return data[s[3] + start - s[2]:s[3] + stop - s[2]]
    raise SystemExit('profile sections not found in the file')


def sections(path):
    data, secs = elf(path)
    syms = symbols(data, secs)
    if '__start___llvm_prf_data' in syms:         # vmlinux
        get = lambda n: by_address(data, secs, syms['__start_' + n][0],
                                   syms['__stop_' + n][0])
        recs, nbuf = get('__llvm_prf_data'), get('__llvm_prf_names')
        ver = by_address(data, secs, syms[RAW][0], syms[RAW][0] + 8) if RAW in syms else b''
    else:                                           # a module
        found = {s[0]: data[s[3]:s[3] + s[4]] for s in secs}
        recs = found.get('__llvm_prf_data', b'')
        nbuf = found.get('__llvm_prf_names', b'')
        ver = b''
        if RAW in syms:
            value, shndx = syms[RAW]
            ver = data[secs[shndx][3] + value:secs[shndx][3] + value + 8]
    ver = struct.unpack('<Q', ver)[0] & 0xff if len(ver) == 8 else 0
    return recs, nbuf, ver


def uleb(buf, pos):
    val = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        val |= (b & 0x7f) << shift
        shift += 7
        if b < 0x80:
            return val, pos


def names(buf):
    pos, out = 0, []
    while pos < len(buf):
        plain, pos = uleb(buf, pos)
        packed, pos = uleb(buf, pos)
        if plain == 0 and packed == 0:      # padding
            break
        n = packed or plain
        chunk = buf[pos:pos + n]
        pos += n
        if packed:
            chunk = zlib.decompress(chunk)
        out += chunk.split(b'\x01')
    return out


def main(argv):
    if argv[:1] == ['--names'] and len(argv) == 2:
        for n in names(sections(argv[1])[1]):
            print(n.decode())
        return 0
    verbose = argv[:1] == ['-v']
    bad = 0
    for path in argv[verbose:]:
        recs, nbuf, ver = sections(path)
        if not recs or ver not in LAYOUTS:
            print(f'{path}: no profile records (raw version {ver})')
            continue
        size = LAYOUTS[ver]['rs']
        nrec = len(recs) // size
        md5 = {struct.unpack('<Q', hashlib.md5(n).digest()[:8])[0]: n.decode()
               for n in names(nbuf)}
        groups = {}
        for off in range(0, size * nrec, size):
            ref, fhash = struct.unpack_from('<QQ', recs, off)
            groups.setdefault(ref, []).append(fhash)
        shared = {r: h for r, h in groups.items() if len(h) > 1}
        same = {r: h for r, h in shared.items() if len(set(h)) < len(h)}
        # '<file>;<name>' (clang 18 and later) or '<file>:<name>'
        static = [r for r in same if set(md5.get(r, '')) & set(';:')]
        print(f'{path}: {nrec} records, {len(shared)} names shared by '
              f'{sum(map(len, shared.values()))} records, '
              f'{len(same)} of them with the same hash: {len(static)} static '
              f'(same-named files), {len(same) - len(static)} global '
              f'(a weak definition and the one that overrides it)')
        for r, h in sorted(shared.items(), key=lambda x: md5.get(x[0], '')):
            if verbose or r in same:
                print(f'  {md5.get(r, hex(r))}: {len(h)} records, '
                      f'{len(set(h))} hashes')
        bad += len(static)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
