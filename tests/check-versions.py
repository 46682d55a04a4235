#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every statement of which clang writes which LLVM raw profile version,
checked against the one table of them, tests/llvm-versions.

    tests/check-versions.py

The kernel (kernel/pgo/Kconfig's range and help, instrprof.h's range, and
6.12's patch that adds raw version 7 to both), the
scripts (pgo-collect's llvm-profdata search and header sizes,
pgo-save-retained's header sizes), the docs (pgo.rst's table) and the test
tools (rawcmp.py's and mkseed.py's layouts) must say what the table says.
Exit status 0 iff all agree; each disagreement is one FAIL line.
"""

import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fails = 0
passes = 0


def read(path):
    with open(os.path.join(TOP, path)) as f:
        return f.read()


def check(ok, what):
    global fails, passes
    if ok:
        passes += 1
        print(f"PASS: {what}")
    else:
        fails += 1
        print(f"FAIL: {what}")


def spans(clangs):
    """[13, 14, 15, 16, 17] -> "14 to 17" style text pieces."""
    out, start, prev = [], None, None
    for c in sorted(clangs):
        if start is None:
            start = prev = c
        elif c == prev + 1:
            prev = c
        else:
            out.append((start, prev))
            start = prev = c
    if start is not None:
        out.append((start, prev))
    return out


table = {}          # clang -> (raw, [suites])
for line in read("tests/llvm-versions").splitlines():
    if not line.strip() or line.startswith("#"):
        continue
    clang, raw, *suites = line.split()
    table[int(clang)] = (int(raw), suites)
# What the docs name: every released clang (20 is one, though Debian
# packages it nowhere), not experimental's snapshot.
released = {c: v for c, v in table.items() if v[1] != ["experimental"]}
raws = sorted({raw for raw, _ in table.values()})
by_raw = {r: sorted(c for c, (raw, _) in table.items() if raw == r)
          for r in raws}
by_raw_released = {r: sorted(c for c in by_raw[r] if c in released)
                   for r in raws}

# Kconfig and instrprof.h: the raw versions kernel/pgo writes.  The tree's
# are mainline's, whose minimum is LLVM 17.0.1 (scripts/min-tool-version.sh
# in Linux 7.3); the rest are Linux 6.12's alone, added by its patch.
MAINLINE_MIN_LLVM = 17
mainline_raws = [r for r in raws if r >= table[MAINLINE_MIN_LLVM][0]]
older_raws = [r for r in raws if r not in mainline_raws]
pdir = os.path.join(TOP, "patches/6.12")
v7 = [f for f in sorted(os.listdir(pdir))
      if re.search(r"^Subject: .*raw profile version 7", read(f"patches/6.12/{f}"), re.M)]
v7patch = read(f"patches/6.12/{v7[0]}") if v7 else ""
check(len(v7) == 1, f"patches/6.12 has one raw version 7 patch ({v7})")
added = "\n".join(l[1:] for l in v7patch.splitlines() if l.startswith("+"))

kconfig = read("kernel/pgo/Kconfig")
rng = r"depends on PGO_CLANG_RAW_VERSION >= (\d+) && PGO_CLANG_RAW_VERSION <= (\d+)"
m = re.search(rng, kconfig)
check(m and (int(m.group(1)), int(m.group(2))) == (mainline_raws[0], raws[-1]),
      f"Kconfig accepts raw versions {mainline_raws[0]} to {raws[-1]}")
m = re.search(rng, added)
check(m and (int(m.group(1)), int(m.group(2))) == (raws[0], raws[-1]),
      f"6.12's patch: Kconfig accepts raw versions {raws[0]} to {raws[-1]}")
help_text = " ".join(kconfig.split())
added_text = " ".join(added.split())
for r in raws:
    s = spans(by_raw_released[r])
    words = " and ".join(f"{a}" if a == b else f"{a} to {b}" for a, b in s)
    where, text = ("Kconfig help", help_text) if r in mainline_raws else \
        ("6.12's patch: Kconfig help", added_text)
    check(f"{r} (clang {words})" in text, f"{where}: raw version {r} (clang {words})")

# instrprof.h: the range of the #error.
inc = read("kernel/pgo/instrprof.h")
rng = r"#if PGO_RAW_VERSION < (\d+) \|\| PGO_RAW_VERSION > (\d+)"
m = re.search(rng, inc)
check(m and (int(m.group(1)), int(m.group(2))) == (mainline_raws[0], raws[-1]),
      f"instrprof.h builds raw versions {mainline_raws[0]} to {raws[-1]}")
m = re.search(rng, added)
check(m and (int(m.group(1)), int(m.group(2))) == (raws[0], raws[-1]),
      f"6.12's patch: instrprof.h builds raw versions {raws[0]} to {raws[-1]}")
# Mainline's files name no version below its minimum.
for f in ("kernel/pgo/instrprof.h", "kernel/pgo/format.c", "kernel/pgo/Kconfig"):
    t = read(f)
    for r in older_raws:
        check(not re.search(rf"(PGO_RAW_VERSION|version) *(<|>=|==) *{r}\b|version {r}\b", t),
              f"{f} names no raw version {r} (6.12's patch does)")

# pgo-collect: which llvm-profdata reads each raw version.
collect = read("scripts/pgo/pgo-collect")
body = collect[collect.index("llvm_for_raw() {"):]
body = body[:body.index("\n}")]
for r in raws:
    m = re.search(rf"\n\t{r}\) echo ([0-9 ]+) ;;", body)
    check(m and sorted(map(int, m.group(1).split())) == by_raw[r],
          f"pgo-collect: raw version {r} is read by llvm-profdata {by_raw[r]}")

# Header sizes, where the scripts find the binary id.
HEADER_WORDS = {7: 11, 8: 11, 9: 14, 10: 16, 11: 19}
for script in ("scripts/pgo/pgo-collect", "scripts/pgo/pgo-save-retained"):
    text = read(script)
    for r in raws:
        size = 8 * HEADER_WORDS[r]
        ok = (re.search(rf"ver == {r}\b[^?]*\? {size}\b", text) or
              re.search(rf"\(ver == {r} \|\| ver == \d+\) \? {size}\b", text) or
              re.search(rf"\(ver == \d+ \|\| ver == {r}\) \? {size}\b", text))
        check(bool(ok), f"{script}: raw version {r} has a {size}-byte header")

# pgo.rst's table: one row per raw version, the clangs that write it.
rst = read("Documentation/dev-tools/pgo.rst")
for r in raws:
    s = spans(by_raw_released[r])
    cl = ", ".join(f"{a}" if a == b else f"{a} to {b}" for a, b in s)
    where, text = ("pgo.rst", rst) if r in mainline_raws else \
        ("6.12's patch: pgo.rst", "\n" + added)
    check(re.search(rf"\n  {re.escape(cl)} +{r} ", text) is not None,
          f"{where}: clang {cl} writes raw version {r}")

# The test tools know every layout.
rawcmp = read("tests/host/diff/rawcmp.py")
for r in raws:
    check(f"HEADER_FIELDS[{r}]" in rawcmp or f"\n    {r}: [" in rawcmp,
          f"rawcmp.py knows raw version {r}")
mkseed = read("tests/host/fuzz/mkseed.py")
for r in raws:
    check(f"\n    {r}: dict(" in mkseed, f"mkseed.py knows raw version {r}'s records")

# make host-test fuzzes every raw version the suite's clangs write (and 9
# and 11 as 22@18 and 22@23, whatever the suite: literally in the Makefile).
suites = sorted({s for _, ss in table.values() for s in ss
                 if s in ("bookworm", "trixie", "unstable")})
for suite in suites:
    clangs = " ".join(str(c) for c, (_, ss) in sorted(table.items())
                      if suite in ss)
    run = subprocess.run(["make", "-s", "--no-print-directory", "-C", TOP,
                          "host-fuzz-versions", f"HOST_LLVM_VERSIONS={clangs}"],
                         capture_output=True, text=True)
    out = run.stdout.split() if run.returncode == 0 else []
    fuzzed = {table[int(v.split("@")[-1])][0] for v in out
              if v.split("@")[-1].isdigit() and int(v.split("@")[-1]) in table}
    want = {table[int(c)][0] for c in clangs.split()}
    check(want <= fuzzed,
          f"make host-test on {suite} ({clangs}) fuzzes raw versions "
          f"{sorted(want)}: {' '.join(out) or 'nothing'}")

print(f"versions: {passes} passed, {fails} failed")
sys.exit(1 if fails else 0)
