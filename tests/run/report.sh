#!/bin/bash
# Compare the plain and the PGO kernel on the workloads (instructions under
# QEMU -icount, where a guest nanosecond is one instruction), and with
# "novp" (make run RUN_NOVP=1) the PGO kernel built without value profiles.
# Every kernel must have run the same workloads.
# usage: report.sh RUN_DIR [novp]
run=$1
kernels="plain pgo${2:+ pgonovp}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One "set_workload instructions" line per workload, sorted, per kernel.
for k in $kernels; do
	[ -s "$run/$k/bench.txt" ] || { echo "report: $run/$k/bench.txt: missing or empty" >&2; exit 1; }
	awk '{ print $1 "_" $2, $3 }' "$run/$k/bench.txt" | sort >"$tmp/$k"
	if ! cmp -s <(cut -d' ' -f1 "$tmp/plain") <(cut -d' ' -f1 "$tmp/$k"); then
		echo "report: $k and plain ran other workloads:" >&2
		diff <(cut -d' ' -f1 "$tmp/plain") <(cut -d' ' -f1 "$tmp/$k") >&2
		exit 1
	fi
done
# Rows "set_workload plain pgo [novp]"; then the table, each set's rows
# followed by its totals, summed from the same rows, and each kernel's
# ratio to plain.
join "$tmp/plain" "$tmp/pgo" | if [ -n "${2:-}" ]; then join - "$tmp/pgonovp"; else cat; fi |
awk -v novp="${2:-}" '
	BEGIN {
		printf "%-8s %-10s %14s %14s", "set", "workload", "plain", "pgo"
		if (novp) printf " %14s", "pgo, no VP"
		printf " %9s", "pgo/plain"
		if (novp) printf " %10s", "noVP/plain"
		print ""
	}
	{ split($1, s, "_"); w = $1; sub(/^[^_]*_/, "", w); print s[1], 0, w, $2, $3, $4
	  for (i = 2; i <= NF; i++) t[s[1], i] += $i; n[s[1]] = NF }
	END { for (k in n) { line = k " 1 total"
		for (i = 2; i <= n[k]; i++) line = line sprintf(" %.0f", t[k, i])
		print line } }' | {
	IFS= read -r header
	echo "$header"
	sort -k1,1r -k2,2n -k3,3 | awk '{
		printf "%-8s %-10s %14.0f %14.0f", $1, $3, $4, $5
		if (NF > 5) printf " %14.0f", $6
		printf " %9.3f", $5 / $4
		if (NF > 5) printf " %10.3f", $6 / $4
		print "" }'
}
