#!/bin/bash
# Compile the same objects in two kernel build trees without ccache and
# time each tree: the compile cost of instrumentation, with no cache hit
# on either side.
#
# usage: build-time.sh OUT_FILE PLAIN_OBJ INSTR_OBJ DIR...
#
# The objects are the C objects under DIR... (e.g. kernel fs) that both
# trees build; each is compiled with the exact command its tree recorded
# in its .cmd file (ccache dropped; objtool included, as Kbuild runs it
# after each compile), into a scratch directory, so neither tree is
# touched.  The trees run one after the other, each with as many
# jobs as CPUs.  OUT_FILE gets "<tree> <objects> <wall s> <cpu s>" lines
# and a "dirs" line.
set -euo pipefail
out=$1 plain=$2 instr=$3
shift 3
dirs=("$@")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

objects() {
	(cd "$1" && find "${dirs[@]}" -name '.*.o.cmd' |
		sed -e 's,/\.\([^/]*\)\.cmd$,/\1,' | sort)
}

# The commands of one tree, one script per object.
commands() {
	local obj=$1 tag=$2 o n=0

	mkdir -p "$scratch/$tag"
	while read -r o; do
		local cmd
		cmd=$(sed -n "s,^savedcmd_$o := ,,p" "$obj/$(dirname "$o")/.$(basename "$o").cmd")
		# C compiles (and the objtool run Kbuild chains to them) only:
		# no assembler, no ld -r of composite objects.
		[[ $cmd =~ \ -c\ -o\ $o\ [^\ ]+\.c(\ |$) ]] || continue
		n=$((n + 1))
		cmd=${cmd#ccache }
		cmd=${cmd//\$\$/\$}
		cmd=${cmd//" $o"/" $scratch/$tag/$n.o"}
		cmd=$(sed -e "s, -Wp\\,-MMD\\,[^ ]*, -Wp\\,-MMD\\,$scratch/$tag/$n.d," <<< "$cmd")
		printf 'cd %q && %s\n' "$obj" "$cmd" > "$scratch/$tag/$n.sh"
	done < "$scratch/common"
	echo "$n"
}

comm -12 <(objects "$plain") <(objects "$instr") > "$scratch/common"

export CCACHE_DISABLE=1
{
	echo "dirs ${dirs[*]}"
	for tag in plain instr; do
		if [ $tag = plain ]; then obj=$plain; else obj=$instr; fi
		n=$(commands "$obj" $tag)
		TIMEFORMAT='%R %U %S'
		t=$( { time find "$scratch/$tag" -name '*.sh' -print0 |
			xargs -0 -n1 -P"$(nproc)" bash > "$scratch/$tag.log" 2>&1; } 2>&1 )
		read -r wall user sys <<< "$t"
		built=$(find "$scratch/$tag" -name '*.o' | wc -l)
		if [ "$n" = 0 ] || [ "$built" != "$n" ]; then
			echo "build-time: $tag: $built of $n objects built" >&2
			tail -20 "$scratch/$tag.log" >&2
			exit 1
		fi
		echo "$tag $n $wall $(echo "$user + $sys" | bc)"
	done
} > "$out"
cat "$out"
