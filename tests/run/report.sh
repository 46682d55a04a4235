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
if [ -n "${2:-}" ]; then
	join "$tmp/plain" "$tmp/pgo" | join - "$tmp/pgonovp"
	printf '%-8s %-10s %14s %14s %14s %9s %10s\n' set workload plain pgo \
		"pgo, no VP" "pgo/plain" "noVP/plain"
else
	join "$tmp/plain" "$tmp/pgo"
	printf '%-8s %-10s %14s %14s %9s\n' set workload plain pgo "pgo/plain"
fi >"$tmp/joined"
tail -n 1 "$tmp/joined"
# The rows, then each set's totals, from the same rows.
sed '$d' "$tmp/joined" | awk '
	{ split($1, s, "_"); print s[1], 0, $0
	  for (i = 2; i <= NF; i++) t[s[1], i] += $i; sets[s[1]] = NF }
	END { for (k in sets) { line = k " 1 " k "_total"
		for (i = 2; i <= sets[k]; i++) line = line sprintf(" %.0f", t[k, i])
		print line } }' | sort -k1,1r -k2,2n -k3,3 | cut -d' ' -f3- |
while read -r key plain pgo n; do
	r=$(echo "$pgo / $plain" | bc -l)
	if [ -n "${2:-}" ]; then
		printf '%-8s %-10s %14.0f %14.0f %14.0f %9.3f %10.3f\n' "${key%%_*}" \
			"${key#*_}" "$plain" "$pgo" "$n" "$r" "$(echo "$n / $plain" | bc -l)"
	else
		printf '%-8s %-10s %14.0f %14.0f %9.3f\n' "${key%%_*}" "${key#*_}" \
			"$plain" "$pgo" "$r"
	fi
done
