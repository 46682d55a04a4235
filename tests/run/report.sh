#!/bin/bash
# Compare the kernels of make run on the workloads (instructions under
# QEMU -icount, where a guest nanosecond is one instruction): the PGO
# kernel against plain, and with their options the PGO kernel built
# without value profiles (RUN_NOVP=1: pgonovp) and the instrumented kernel
# (RUN_INSTR=1: instr).  Every kernel must have run the same workloads.
# usage: report.sh RUN_DIR [pgonovp] [instr]
set -uo pipefail
usage() { echo "usage: report.sh RUN_DIR [pgonovp] [instr]" >&2; exit 2; }
[ $# -ge 1 ] || usage
run=$1
shift
for k; do
	case $k in pgonovp | instr) ;; *) usage ;; esac
done
kernels="plain pgo $*"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One "set_workload instructions" line per workload, sorted, per kernel.
for k in $kernels; do
	[ -s "$run/$k/bench.txt" ] ||
		{ echo "report: $run/$k/bench.txt: missing or empty" >&2; exit 1; }
	awk '{ print $1 "_" $2, $3 }' "$run/$k/bench.txt" | sort >"$tmp/$k"
	if ! cmp -s <(cut -d' ' -f1 "$tmp/plain") <(cut -d' ' -f1 "$tmp/$k"); then
		echo "report: $k and plain ran other workloads:" >&2
		diff <(cut -d' ' -f1 "$tmp/plain") <(cut -d' ' -f1 "$tmp/$k") >&2
		exit 1
	fi
done
# Rows "set_workload plain pgo ..."; then the table, each set's rows
# followed by its totals, summed from the same rows, and each kernel's
# ratio to plain.
cp "$tmp/plain" "$tmp/rows"
for k in $kernels; do
	[ "$k" = plain ] && continue
	join "$tmp/rows" "$tmp/$k" > "$tmp/rows.new" || exit 1
	mv "$tmp/rows.new" "$tmp/rows"
done
awk -v kernels="$kernels" '
	BEGIN {
		nk = split(kernels, k, " ")
		name["plain"] = "plain"; name["pgo"] = "pgo"
		name["pgonovp"] = "pgo, no VP"; name["instr"] = "instrumented"
		ratio["pgo"] = "pgo/plain"; ratio["pgonovp"] = "noVP/plain"
		ratio["instr"] = "instr/plain"
		printf "%-8s %-10s", "set", "workload"
		for (i = 1; i <= nk; i++) printf " %14s", name[k[i]]
		for (i = 2; i <= nk; i++) printf " %s", ratio[k[i]]
		print ""
	}
	{ split($1, s, "_"); w = $1; sub(/^[^_]*_/, "", w)
	  line = s[1] " 0 " w
	  for (i = 2; i <= NF; i++) { line = line " " $i; t[s[1], i] += $i }
	  print line; n[s[1]] = NF }
	END { for (set in n) { line = set " 1 total"
		for (i = 2; i <= n[set]; i++) line = line sprintf(" %.0f", t[set, i])
		print line } }' "$tmp/rows" | {
	IFS= read -r header
	echo "$header"
	# each ratio as wide as its heading
	sort -k1,1r -k2,2n -k3,3 | awk -v header="$header" '
	BEGIN { nh = split(header, h, " ") }
	{	printf "%-8s %-10s", $1, $3
		for (i = 4; i <= NF; i++) printf " %14.0f", $i
		for (i = 5; i <= NF; i++)
			printf " %" length(h[nh - NF + i]) ".3f", $i / $4
		print "" }'
}
