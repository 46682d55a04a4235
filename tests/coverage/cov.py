#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Facts from `llvm-cov export` JSON, for tests/coverage/check.sh.

  cov.py func JSON NAME         "<count> <regions> <covered regions>" of the
                                function whose name is NAME or ends in
                                ":NAME" / ";NAME" (static functions)
  cov.py mcdc JSON NAME         "<conditions> <covered>" of NAME's decisions
  cov.py branch JSON NAME LINE  "<true> <false>" counts of NAME's branch on
                                source line LINE
  cov.py elf FILE...            "<bytes> <allocated>": the size of the
                                __llvm_cov* sections of the ELF FILEs and
                                how many of them are SHF_ALLOC (loaded)
  cov.py files JSON SUBSTR      per-file summary of the files whose path
                                contains SUBSTR, then their total:
                                "<file> <lines> <covered> <functions> <covered>"
  cov.py same A.json B.json [PREFIX_A PREFIX_B]...
                                "same <functions> ...", or the first
                                function or file that differs and exit
                                status 1: two exports compared with their
                                counts and without their MC/DC (MC/DC
                                records and summaries left out, MC/DC
                                branches read as branches), file names
                                with each PREFIX_A (PREFIX_B) removed; no
                                function is a difference
  cov.py shows A.txt B.txt      two `llvm-profdata show --all-functions
                                --counts` outputs of one object's profiles
                                from two boots (an llvm-cov export of a
                                whole-coverage vmlinux takes more than 24
                                GB): functions by name, hash and number of
                                counters (one that is in one only must
                                never have run), and the functions that
                                ran: those that ran in one only must be at
                                most 2 % of those that ran in either
                                (counts of two boots differ, the code that
                                ran nearly not); none that ran in one of
                                them is a difference
"""
import json
import struct
import sys

SHF_ALLOC = 2


def elf_cov(path):
    """Bytes of __llvm_cov* sections in an ELF64 file, and how many are
    allocated."""
    b = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)

    def sh(i):
        return struct.unpack_from("<IIQQQQ", b, shoff + i * shentsize)
    stroff = sh(shstrndx)[4]
    size = alloc = 0
    for i in range(shnum):
        name, _, flags, _, _, sz = sh(i)
        end = b.index(b"\0", stroff + name)
        if b[stroff + name:end].startswith(b"__llvm_cov"):
            size += sz
            alloc += bool(flags & SHF_ALLOC)
    return size, alloc


def functions(data):
    for d in data["data"]:
        yield from d.get("functions", [])


def find(data, name):
    for f in functions(data):
        n = f["name"]
        if n == name or n.endswith(":" + name) or n.endswith(";" + name):
            return f
    sys.exit(f"cov.py: no function {name}")


BRANCH, MCDC_BRANCH = 4, 6


def unprefix(name, prefixes):
    for p in prefixes:
        if name.startswith(p):
            return name[len(p):]
    return name


def no_mcdc(o, prefix):
    """An export without MC/DC, its file names without the prefixes."""
    if isinstance(o, dict):
        r = {}
        for k, v in o.items():
            if "mcdc" in k.lower():
                continue
            if k == "branches" and isinstance(v, list):
                v = [b[:-1] + [BRANCH if b[-1] == MCDC_BRANCH else b[-1]]
                     for b in v]
            elif k in ("filename", "filenames") and prefix:
                v = ([unprefix(x, prefix) for x in v]
                     if isinstance(v, list) else unprefix(v, prefix))
            r[k] = no_mcdc(v, prefix)
        return r
    if isinstance(o, list):
        return [no_mcdc(x, prefix) for x in o]
    return o


def same(argv):
    pre = (argv[2::2], argv[3::2])
    a, b = (no_mcdc(json.load(open(p)), x) for p, x in zip(argv[:2], pre))

    def order(f):
        return (f["name"], f["filenames"])
    fa = sorted(functions(a), key=order)
    fb = sorted(functions(b), key=order)
    for x, y in zip(fa, fb):
        if x != y:
            print("differs: function", x["name"], "/", y["name"])
            return 1
    if len(fa) != len(fb) or not fa:
        print("differs: functions", len(fa), "/", len(fb))
        return 1
    for x, y in zip(a["data"], b["data"]):
        for g, h in zip(x["files"], y["files"]):
            if g != h:
                print("differs: file", g["filename"])
                return 1
        if x.get("totals") != y.get("totals"):
            print("differs: totals")
            return 1
    print("same", len(fa), "functions, with their counts")
    return 0


def show_functions(path):
    """{name: [hash, counters, function count]} of llvm-profdata show."""
    fns, cur = {}, None
    for line in open(path):
        t = line.strip()
        if line.startswith("  ") and not line.startswith("    ") and t.endswith(":"):
            cur = fns.setdefault(t[:-1], [None, None, None])
        elif cur is not None and t.startswith("Hash:"):
            cur[0] = t.split()[1]
        elif cur is not None and t.startswith("Counters:"):
            cur[1] = int(t.split()[1])
        elif cur is not None and t.startswith("Function count:"):
            cur[2] = int(t.split()[2])
    return fns


def shows(a_path, b_path):
    """Functions in both: the same hash and counters.  A function in one
    only must not have run: LLVM leaves out of a correlated binary the
    records of functions whose counters the optimizer folded away."""
    a, b = show_functions(a_path), show_functions(b_path)
    only = 0
    for n in sorted(set(a) | set(b)):
        if n in a and n in b and a[n][:2] == b[n][:2]:
            continue
        if (n not in a and not b[n][2]) or (n not in b and not a[n][2]):
            only += 1
            continue
        print("differs: function", n, a.get(n), b.get(n))
        return 1
    ra = {n for n, v in a.items() if v[2]}
    rb = {n for n, v in b.items() if v[2]}
    one = len(ra ^ rb)
    ok = a and ra and rb and one <= 0.02 * len(ra | rb)
    print("same" if ok else "differs:", "%d and %d functions, %d in both with"
          " the same hash and counters, %d in one only and never run; %d and"
          " %d ran, %d in one only" % (len(a), len(b), len(set(a) & set(b)),
                                       only, len(ra), len(rb), one))
    return 0 if ok else 1


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "same":
        sys.exit(same(sys.argv[2:]))
    if cmd == "shows":
        sys.exit(shows(sys.argv[2], sys.argv[3]))
    if cmd == "elf":
        size = alloc = 0
        for f in sys.argv[2:]:
            s, a = elf_cov(f)
            size += s
            alloc += a
        print(size, alloc)
        return
    with open(path) as fp:
        data = json.load(fp)
    if cmd == "func":
        f = find(data, sys.argv[3])
        regions = [r for r in f["regions"] if r[7] == 0]   # code regions
        print(f["count"], len(regions), sum(1 for r in regions if r[4]))
    elif cmd == "mcdc":
        f = find(data, sys.argv[3])
        conds = covered = 0
        for rec in f.get("mcdc_records", []):
            # The list of booleans: condition i shown to decide alone.
            # LLVM 22 appends the test vectors after it.
            shown = next((x for x in rec if isinstance(x, list) and
                          all(isinstance(b, bool) for b in x)), [])
            conds += len(shown)
            covered += sum(1 for s in shown if s)
        print(conds, covered)
    elif cmd == "branch":
        f = find(data, sys.argv[3])
        line = int(sys.argv[4])
        for b in f.get("branches", []):
            if b[0] == line:
                print(b[4], b[5])
                return
        sys.exit(f"cov.py: no branch of {sys.argv[3]} on line {line}")
    elif cmd == "files":
        sub = sys.argv[3]
        tl = tc = tf = tfc = 0
        for d in data["data"]:
            for fl in d["files"]:
                if sub not in fl["filename"]:
                    continue
                s = fl["summary"]
                name = fl["filename"][fl["filename"].find(sub):]
                print(name, s["lines"]["count"], s["lines"]["covered"],
                      s["functions"]["count"], s["functions"]["covered"])
                tl += s["lines"]["count"]
                tc += s["lines"]["covered"]
                tf += s["functions"]["count"]
                tfc += s["functions"]["covered"]
        print("total", tl, tc, tf, tfc)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
