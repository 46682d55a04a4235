#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# noinstr code must not call instrumented code outside its
# instrumentation_begin()/end() windows.  x86 has objtool to say so (with
# NOINSTR_VALIDATION); arm64 has nothing.  Profiling adds such calls where
# the compiler keeps a "static inline" helper out of line in a __no_profile
# caller (LLVM does not inline across a noprofile mismatch): the copy is
# profiled.
#
# This lists the functions called (call or tail call) from .noinstr.text
# and .cpuidle.text of an instrumented vmlinux whose code updates a
# profile counter (a reference to __profc_*).  Many are legitimate: the
# exception handlers arm64's entry code calls once the entry work is done,
# printk and panic on the way down, text patching.  So the list itself is
# a report, and what fails is a helper of the kinds that noinstr code
# calls outside any window, which patches 0015 and 0016 make
# __always_inline (preempt count, irqflags, the per-CPU offset, cpu_relax,
# the lockdep and context-tracking stubs, arm64's MTE hooks and entry
# helpers): one of those out of line and profiled is a regression.
#
# Also fails if a noinstr or cpuidle function updates a counter itself
# (-fprofile-generate instruments none: they are __no_profile).
#
# usage: check-noinstr-calls.sh OBJ [LLVM_VERSION]
#   -> "noinstr: ..." summary last; exit 1 if a helper is listed or a
#      noinstr function counts, 2 if the check could not look
set -uo pipefail
obj=$1 llvm=${2:-19}
vml=$obj/vmlinux
[ -f "$vml" ] || { echo "noinstr: no $vml"; exit 2; }

helpers='^(preempt_count|preempt_count_set|__preempt_count_(add|sub|dec_and_test)|should_resched|(set|clear|test)_preempt_need_resched|arch_local_(irq_(enable|disable|save|restore)|save_flags)|arch_irqs_disabled(_flags)?|(set_my|__kern_my|__hyp_my)_cpu_offset|__percpu_(read|write)_[0-9]+|__percpu_[a-z]+_(return_)?case_[0-9]+|cpu_relax|instruction_pointer|lpa2_is_enabled|read_tcr|lockdep_hardirqs_(on|off|on_prepare)|lockdep_(on|off)|user_(enter|exit)_irqoff|ct_idle_(enter|exit)|sev_es_(ist_enter|ist_exit|nmi_complete)|amd_clear_divider|perf_lopwr_cb|mte_(disable_tco_entry|check_tfsr_(entry|exit|el1))|system_supports_mte|kasan_hw_tags_enabled)(\.llvm\.[0-9]+)?$'

# disasm SEC: the disassembly of __SEC_text_start..__SEC_text_end, if any.
disasm() {
	local lo hi
	lo=$(sym "__$1_text_start") hi=$(sym "__$1_text_end")
	if [ -z "$lo" ] || [ -z "$hi" ]; then return 0; fi
	"llvm-objdump-$llvm" -d --no-show-raw-insn --start-address="0x$lo" \
		--stop-address="0x$hi" "$vml"
}

# "section callee" for each direct call or tail call from the noinstr and
# cpuidle text to a symbol outside them.
calls() {
	local sec lo hi
	for sec in noinstr cpuidle; do
		lo=$(sym "__${sec}_text_start") hi=$(sym "__${sec}_text_end")
		disasm "$sec" |
		grep -oE '\s(bl|b|callq?|jmpq?)\s+(0x)?[0-9a-f]+ <[^>+]+>' |
		awk -v lo="$lo" -v hi="$hi" -v sec="$sec" '{
			a = $2; sub(/^0x/, "", a)
			a = sprintf("%016s", a); gsub(/ /, "0", a)
			if (a < lo || a >= hi) { n = $3; gsub(/[<>]/, "", n); print sec, n }
		}'
	done | sort -u
}

# counters: from "function" headers and instructions of llvm-objdump -d,
# the functions that reference the counters section: an address operand
# (x86: "# 0x<addr> <sym>") in [start, stop), or an arm64 adrp of its
# pages.  Not the symbol llvm-objdump names: that is only the nearest.
counters() {
	awk -v lo="$cnts_lo" -v hi="$cnts_hi" -v plo="$cnts_plo" '
	function hex16(a) { sub(/^0x/, "", a); a = sprintf("%016s", a); gsub(/ /, "0", a); return a }
	/^[0-9a-f]+ <[^>]+>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
	f == "" { next }
	/\tadrp\t/ { if (match($0, /0x[0-9a-f]+/)) { a = hex16(substr($0, RSTART, RLENGTH))
			if (a >= plo && a < hi) { print f; f = "" } } next }
	/# 0x[0-9a-f]+/ { match($0, /# 0x[0-9a-f]+/); a = hex16(substr($0, RSTART + 2, RLENGTH - 2))
			if (a >= lo && a < hi) { print f; f = "" } }' | sort -u
}

# The callees whose code updates a profile counter.
profiled() {
	local syms
	syms=$(awk '{ print $2 }' "$obj/noinstr-calls.txt" | sort -u | paste -sd,)
	[ -n "$syms" ] || return 0
	"llvm-objdump-$llvm" -d --no-show-raw-insn --disassemble-symbols="$syms" "$vml" | counters
}

# The noinstr and cpuidle functions that update a counter themselves.
profiled_noinstr() {
	local sec
	for sec in noinstr cpuidle; do
		disasm "$sec" | counters
	done
}

"llvm-nm-$llvm" "$vml" > "$obj/noinstr-nm.txt" || exit 2
sym() { awk -v s="$1" '$3 == s { print $1; exit }' "$obj/noinstr-nm.txt"; }
cnts_lo=$(sym __start___llvm_prf_cnts) cnts_hi=$(sym __stop___llvm_prf_cnts)
if [ -z "$cnts_lo" ] || [ -z "$cnts_hi" ]; then
	echo "noinstr: $vml has no __llvm_prf_cnts: not an instrumented kernel"
	exit 2
fi
cnts_plo=$(printf '%016x' $((0x$cnts_lo & ~0xfff)))
calls > "$obj/noinstr-calls.txt"
if ! [ -s "$obj/noinstr-calls.txt" ]; then
	echo "noinstr: no call found from the noinstr/cpuidle text of $vml"
	exit 2
fi
profiled > "$obj/noinstr-profiled.txt"
self=$(profiled_noinstr)
for f in $self; do echo "  noinstr function updating a profile counter: $f()"; done
# Only a static inline helper's out-of-line copy, a local symbol: with
# CONFIG_LOCKDEP, lockdep_hardirqs_on_prepare() is lockdep.c's own global
# function, which noinstr code calls inside an instrumentation window.
bad=$(grep -E "$helpers" "$obj/noinstr-profiled.txt" | while read -r f; do
	awk -v s="$f" '$3 == s && $2 == "t" { found = 1 } END { exit !found }' \
		"$obj/noinstr-nm.txt" && echo "$f"
done)
for f in $bad; do echo "  out of line and profiled, called from noinstr code: $f()"; done
echo "noinstr: $(grep -c . "$obj/noinstr-profiled.txt") profiled functions called from noinstr/cpuidle text of $(awk '{ print $2 }' "$obj/noinstr-calls.txt" | sort -u | grep -c .) callees (list: $obj/noinstr-profiled.txt), $(grep -c . <<< "$bad") of them helpers that must be inlined; $(grep -c . <<< "$self") noinstr/cpuidle functions update counters"
[ -z "$bad" ] && [ -z "$self" ]
