#!/bin/bash
# No value-profiling call where the kernel's normal mappings or its
# instrumentation rules do not hold: count the relocations against
# __llvm_profile_instrument_* in the sections of vmlinux.o and of every
# module that run on the identity map, before the IDT, at entry, in the
# idle loop or in a hypervisor (.head.text, .noinstr.text, .entry.text,
# .cpuidle.text, and arm64's .idmap.text, .hyp.text, .hyp.idmap.text).
# The same for references to profile counters, data and bitmaps (a counter
# update).  Also counts the calls everywhere, to show the check sees them.
# usage: check-sections.sh OBJ [LLVM_VERSION [MODULE_DIR...]]
#   (MODULE_DIR: out-of-tree modules' directories)  -> exit 1 if any bad call
set -uo pipefail
obj=$1 llvm=${2:-19}
shift $(($# < 2 ? $# : 2))
readelf=llvm-readelf-$llvm
command -v "$readelf" >/dev/null || readelf=readelf
bad_sections='^\.rela?\.(head\.text|noinstr\.text|entry\.text|cpuidle\.text|idmap\.text|hyp\.text|hyp\.idmap\.text)$'

files=("$obj/vmlinux.o")
dirs=("$obj")
for d in "$@"; do
	if [ -d "$d" ]; then dirs+=("$d"); else echo "check-sections: $d not built yet, skipped"; fi
done
while IFS= read -r -d '' ko; do files+=("$ko"); done < <(find "${dirs[@]}" -name '*.ko' -print0)
[ -f "$obj/vmlinux.o" ] || { echo "check-sections: no $obj/vmlinux.o"; exit 2; }

total=0 bad=0
for f in "${files[@]}"; do
	# One line per relocation: "<relocation section> <symbol>".
	"$readelf" -rW "$f" 2>/dev/null | awk '
		/^Relocation section / { sec = $3; gsub(/\047/, "", sec); next }
		/__llvm_profile_instrument_|__prof[cd]_|__profbm_|__llvm_prf_(cnts|data|bits)/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^(__llvm_profile_instrument_|__prof[cd]_|__profbm_|__llvm_prf_(cnts|data|bits))/)
					print sec, $i
		}' > "$f.pgo-calls" || true
	n=$(grep -c ' __llvm_profile_instrument_' "$f.pgo-calls")
	b=$(awk -v re="$bad_sections" '$1 ~ re' "$f.pgo-calls" | tee "$f.pgo-bad" | grep -c .)
	total=$((total + n)) bad=$((bad + b))
	if [ "$b" -ne 0 ]; then
		echo "${f#"$obj"/}: $b value-profiling calls or counter references in sections that must not have any:"
		sort "$f.pgo-bad" | uniq -c | sed 's/^/  /'
	fi
	rm -f "$f.pgo-calls" "$f.pgo-bad"
done
echo "sections: $bad value-profiling calls or counter references in head/noinstr/entry/cpuidle/idmap/hyp text; $total value-profiling calls in ${#files[@]} objects (vmlinux.o and modules)"
[ "$total" -gt 0 ] || { echo "sections: no value-profiling call found at all: is this build instrumented?"; exit 1; }
[ "$bad" -eq 0 ]
