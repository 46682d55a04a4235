#!/bin/bash
# Static checks of what we add to Linux 6.12: the body of `make check`.
#
# Run by tests/check.mk with TOP BUILD BASE SRC OBJ KMAKE OVERLAY_FILES
# PATCHES in the environment (the root Makefile's values).  Prints each
# unjustified finding, then one line per tool, and exits 1 if any remains.
# Logs are kept in $BUILD/check/ (check-arm64/ for ARCH=arm64).

set -u
: "${TOP:?}" "${BUILD:?}" "${BASE:?}" "${SRC:?}" "${OBJ:?}" "${KMAKE:?}"
: "${OVERLAY_FILES?}" "${PATCHES?}"
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"   # ext_dir

LOG=$BUILD/check${ARCH_SFX:-}
JUSTIFIED=$TOP/tests/checkpatch-justified.txt
rm -rf "$LOG" && mkdir -p "$LOG" || exit 2
start=$(date +%s)
status=0

cd "$LOG" || exit 2

# ------------------------------------------------------------ checkpatch
# Our files as files (-f --no-tree), the series as patches against the tree
# they apply to ($BASE).  One checkpatch run per input: it reports a CamelCase
# word once per run, so per-file runs keep the findings of a file its own.
cp_files=()
cp_skipped=()
for f in $OVERLAY_FILES; do
	case $f in
	*.c | *.h | */Kconfig* | */Makefile | */Kbuild | *.rst | \
	Documentation/ABI/*)
		cp_files+=("$f") ;;
	*)	# scripts too (SPDX line, whitespace, spelling)
		if head -c2 "$TOP/$f" | grep -q '^#!'; then
			cp_files+=("$f")
		else
			cp_skipped+=("$f")
		fi ;;
	esac
done

# checkpatch must not run in a git tree: there it takes a tracked file given
# as a patch for a file (-f), and --strict writes (and deletes older)
# .checkpatch-camelcase.* caches in the current directory.  So the files are
# checked from a copy under $LOG, by their relative paths (some rules depend
# on the path), and the patches from $LOG; $BASE/scripts/checkpatch.pl then
# takes $BASE as the tree.
cp_opts=(--strict --show-types --terse --no-summary --color=never)
for f in "${cp_files[@]}"; do
	mkdir -p "$LOG/files/$(dirname "$f")" && cp "$TOP/$f" "$LOG/files/$f"
done
for f in "${cp_files[@]}"; do
	(cd "$LOG/files" && "$BASE/scripts/checkpatch.pl" "${cp_opts[@]}" \
		--no-tree --root="$BASE" -f "$f" 2>&1)
done > "$LOG/checkpatch.out"
for p in $PATCHES; do
	"$BASE/scripts/checkpatch.pl" "${cp_opts[@]}" "$TOP/$p" 2>&1
done >> "$LOG/checkpatch.out"
sed "s|^$TOP/||" "$LOG/checkpatch.out" > "$LOG/checkpatch.raw"

# Sort every message into justified (by a line of $JUSTIFIED) or not.
#   <path glob>:<TYPE>[:/<perl regex>/]: <reason>
# The regex, if given, must match the message text or the flagged line
# (of the file, or of the patch); it may not contain "/:".
perl -e '
	use strict; use warnings;
	my ($top, $jfile, $log) = @ARGV;
	my (@rules, %src);
	open(my $j, "<", $jfile) or die "$jfile: $!\n";
	while (<$j>) {
		chomp;
		next if /^\s*(#|$)/;
		if (m{^(\S+?):([A-Z0-9_]+)(?::/(.*?)/)?:\s+(\S.*)$}) {
			my ($glob, $type, $re, $why) = ($1, $2, $3, $4);
			(my $g = quotemeta $glob) =~ s/\\\*/[^\/]*/g;
			push @rules, { line => $., text => $_, glob => qr/^$g$/,
				       type => $type, re => defined $re ? qr/$re/ : undef,
				       used => 0 };
		} else {
			print "checkpatch: $jfile:$.: malformed justification\n";
			$rules[@rules] = { line => $., text => $_, bad => 1 };
		}
	}
	sub srcline {
		my ($file, $n) = @_;
		$src{$file} //= do {
			my @l;
			if (open(my $f, "<", "$top/$file")) { @l = <$f>; }
			\@l;
		};
		my $l = $src{$file}[$n - 1] // "";
		chomp $l;
		return $l;
	}
	my %n = (ERROR => 0, WARNING => 0, CHECK => 0, justified => 0, other => 0);
	open(my $raw, "<", "$log/checkpatch.raw") or die;
	open(my $jo, ">", "$log/checkpatch.justified") or die;
	open(my $uo, ">", "$log/checkpatch.unjustified") or die;
	while (my $m = <$raw>) {
		chomp $m;
		my ($file, $ln, $level, $type, $text) =
			$m =~ /^(.+?):(\d+): (ERROR|WARNING|CHECK):([A-Z0-9_]+): (.*)$/
			or do { $n{other}++; print $uo "$m\n"; next };
		my $line = srcline($file, $ln);
		my ($rule) = grep {
			!$_->{bad} && $file =~ $_->{glob} && $type eq $_->{type} &&
			(!$_->{re} || $text =~ $_->{re} || $line =~ $_->{re})
		} @rules;
		if ($rule) {
			$rule->{used}++;
			$n{justified}++;
			print $jo "$m\n\t-> justified by line $rule->{line}\n";
		} else {
			$n{$level}++;
			print $uo "$m\n\t$line\n";
		}
	}
	for (grep { !$_->{bad} && !$_->{used} } @rules) {
		print "checkpatch: note: justification $jfile:$_->{line} matches nothing (stale?)\n";
	}
	my $bad = grep { $_->{bad} } @rules;
	print "$n{ERROR} $n{WARNING} $n{CHECK} $n{justified} ",
	      $n{other} + $bad, "\n";
' "$TOP" "$JUSTIFIED" "$LOG" > "$LOG/checkpatch.counts"
grep -v '^[0-9]' "$LOG/checkpatch.counts"
read -r cp_err cp_warn cp_chk cp_just cp_other \
	< <(grep '^[0-9]' "$LOG/checkpatch.counts")
: "${cp_err:=1}" "${cp_warn:=0}" "${cp_chk:=0}" "${cp_just:=0}" "${cp_other:=0}"
if [ -s "$LOG/checkpatch.unjustified" ]; then
	echo "checkpatch: unjustified (add a fix, or a line to tests/checkpatch-justified.txt):"
	sed 's/^/  /' "$LOG/checkpatch.unjustified"
fi
cp_total=$((cp_err + cp_warn + cp_chk + cp_other))
[ $cp_total -eq 0 ] || status=1

# ------------------------------------------------------------ W=1, sparse
# kernel/pgo/ alone, with the tree's own make.  Deleting the objects makes
# every file compile again (ccache replays the warnings of a cached
# compile); C=2 then runs sparse on every source without compiling.
rm -f "$OBJ"/kernel/pgo/*.o
w1_rc=0 w1_note="" sp_note=""
eval "$KMAKE W=1 kernel/pgo/" > "$LOG/w1.log" 2>&1 || w1_rc=$?
# Only what is said of our files counts: the build of kernel/pgo/ also
# prepares the tree, which on arm64 builds (and so checks) the vDSO, whose
# upstream sources have warnings of their own.
ours() {
	grep -E '(warning|error):' "$1" |
		awk '!/^[^ :]+:[0-9]+:/ || $1 ~ /(^|\/)(kernel\/pgo\/|include\/linux\/pgo\.h:)/'
}
w1=$(ours "$LOG/w1.log" | grep -c .)
sp_rc=0
# The host's sparse, or one that parses this tree (tests/build/sparse.sh).
check=$("$TOP/tests/build/sparse.sh" "$SRC" "$BUILD") || check=sparse
[ "$check" = sparse ] || sp_note=", Debian unstable's $("$check" --version | sed 's/.*Debian: //; s/)//')"
eval "$KMAKE W=1 C=2 CHECK=$check kernel/pgo/" > "$LOG/sparse.log" 2>&1 || sp_rc=$?
sp=$(ours "$LOG/sparse.log" | grep -c .)
n_cc=$(grep -cE '^ +CC +kernel/pgo/' "$LOG/w1.log")
n_sp=$(grep -cE '^ +CHECK +.*kernel/pgo/' "$LOG/sparse.log")
for t in w1:W=1 sparse:sparse; do
	l=$LOG/${t%%:*}.log
	if ours "$l" | grep -q .; then
		echo "${t#*:}:"
		ours "$l" | sed 's/^/  /'
	fi
done
if [ $w1_rc -ne 0 ] || [ $n_cc -eq 0 ]; then
	echo "W=1: build of kernel/pgo/ failed or compiled nothing (rc $w1_rc, $n_cc files), see $LOG/w1.log"
	tail -20 "$LOG/w1.log" | sed 's/^/  /'
	w1=$((w1 + 1))
	w1_note=", build FAILED"
fi
if [ $sp_rc -ne 0 ] || [ $n_sp -eq 0 ]; then
	echo "sparse: run on kernel/pgo/ failed or checked nothing (rc $sp_rc, $n_sp files), see $LOG/sparse.log"
	tail -20 "$LOG/sparse.log" | sed 's/^/  /'
	sp=$((sp + 1))
	sp_note=", run FAILED"
fi
[ $w1 -eq 0 ] && [ $sp -eq 0 ] || status=1

# ------------------------------------------------------------ kernel-doc
kd_files=()
for f in $OVERLAY_FILES; do
	case $f in
	kernel/pgo/*.[ch] | include/linux/pgo.h) kd_files+=("$f") ;;
	esac
done
(cd "$TOP" && "$BASE/scripts/kernel-doc" -none -Wall "${kd_files[@]}") \
	> "$LOG/kernel-doc.log" 2>&1
kd=$(grep -c . "$LOG/kernel-doc.log")
if [ $kd -ne 0 ]; then
	echo "kernel-doc:"
	sed 's/^/  /' "$LOG/kernel-doc.log"
	status=1
fi

# ------------------------------------------------------------ ABI
# Our files alone (syntax, tags, duplicates among them), then together with
# every ABI file of 6.12 (a What: that 6.12 already defines), and each What:
# must be found by get_abi.pl search.
abi_files=()
for f in $OVERLAY_FILES; do
	case $f in Documentation/ABI/*) abi_files+=("$f") ;; esac
done
abi_msgs=0
rm -rf "$LOG/abi-ours" "$LOG/abi-all"
mkdir -p "$LOG/abi-ours"
cp -r "$BASE/Documentation/ABI" "$LOG/abi-all"
for f in "${abi_files[@]}"; do
	d=${f#Documentation/ABI/}
	mkdir -p "$LOG/abi-ours/$(dirname "$d")"
	cp "$TOP/$f" "$LOG/abi-ours/$d"
	cp "$TOP/$f" "$LOG/abi-all/$d"
done
# scripts/get_abi.pl in 6.12; tools/docs/get_abi.py in 7.3, whose search
# numbers its entries ("1. /sys/...").
if [ -f "$BASE/scripts/get_abi.pl" ]; then
	get_abi=(perl scripts/get_abi.pl)
else
	get_abi=(python3 tools/docs/get_abi.py)
fi
for d in abi-ours abi-all; do
	(cd "$BASE" && "${get_abi[@]}" --dir "$LOG/$d" validate) \
		> "$LOG/$d.log" 2>&1 || echo "get_abi.pl failed" >> "$LOG/$d.log"
	abi_msgs=$((abi_msgs + $(grep -cE '^(Warning|Error|get_abi.pl failed)' "$LOG/$d.log")))
done
abi_whats=$(cd "$TOP" && cat /dev/null "${abi_files[@]}" | grep -c '^What:')
(cd "$BASE" && "${get_abi[@]}" --dir "$LOG/abi-ours" search '.') \
	> "$LOG/abi-search.log" 2>&1
abi_found=$(grep -cE '^([0-9]+\. )?/' "$LOG/abi-search.log")
if [ $abi_msgs -ne 0 ] || [ "$abi_found" -ne "$abi_whats" ]; then
	echo "abi: get_abi.pl: $abi_msgs messages, $abi_found of $abi_whats What: entries found:"
	cat "$LOG/abi-ours.log" "$LOG/abi-all.log" | sed 's/^/  /'
	abi="FAILED"
	status=1
else
	abi="ok (${#abi_files[@]} files, $abi_whats What: entries)"
fi

# ------------------------------------------------------------ docs
# scripts/documentation-file-ref-check needs a git tree; the same check on
# our files: every Documentation/ path they name exists in $SRC, and every
# .rst we add is in its directory's index.rst toctree (else Sphinx warns
# "document isn't included in any toctree").
docs=0
: > "$LOG/docs.log"
for ref in $(cd "$TOP" && grep -ohE 'Documentation/[A-Za-z0-9_./-]*[A-Za-z0-9_]' \
		$OVERLAY_FILES $PATCHES 2>/dev/null | sort -u); do
	[ -e "$SRC/$ref" ] || [ -e "$SRC/$ref.rst" ] ||
		{ echo "reference to missing $ref" >> "$LOG/docs.log"; docs=$((docs + 1)); }
done
for f in $OVERLAY_FILES; do
	case $f in
	Documentation/*.rst)
		idx=$SRC/$(dirname "$f")/index.rst
		name=$(basename "$f" .rst)
		[ "$(basename "$f")" = index.rst ] && continue
		grep -qE "^[[:space:]]+$name(\.rst)?[[:space:]]*$" "$idx" 2>/dev/null ||
			{ echo "$f: not in the toctree of ${idx#$SRC/}" >> "$LOG/docs.log"
			  docs=$((docs + 1)); }
		;;
	esac
done
# The kernel's own documentation build (Sphinx, with its kernel-doc and
# ABI extensions) of each Documentation/ directory that has one of our
# .rst files: a warning that names one of our files counts.  Once per
# make check of x86_64 (the documents are the same on every
# architecture); make docs keeps the HTML.
rst_dirs=$(for f in $OVERLAY_FILES; do
	case $f in Documentation/*/*.rst) d=${f#Documentation/}; echo "${d%%/*}" ;; esac
done | sort -u | tr '\n' ' ')
rst="Sphinx: not run on $ARCH_SFX"
if [ -n "$rst_dirs" ] && [ -z "$ARCH_SFX" ]; then
	"$TOP/tests/build/htmldocs.sh" "$SRC" "$LOG/htmldocs" "$LOG/htmldocs.log" "$rst_dirs"
	hrc=$?
	[ $((hrc & 2)) = 0 ] || echo "make cleandocs failed (see $LOG/htmldocs.log)" >> "$LOG/docs.log"
	if [ $((hrc & 1)) = 0 ]; then
		# Our files: the overlay's and those our patches change (the
		# index.rst that lists pgo.rst).  docutils' severe messages
		# come as CRITICAL.
		ours=$( { printf '%s\n' $OVERLAY_FILES
			  (cd "$TOP" && sed -n 's,^+++ b/,,p' $PATCHES); } | sort -u)
		msg='WARNING|ERROR|CRITICAL|SEVERE|warning:|error:'
		grep -E "$msg" "$LOG/htmldocs.log" | grep -F "$ours" >> "$LOG/docs.log"
		rst="Sphinx htmldocs SPHINXDIRS=${rst_dirs% }: $(grep -cE "$msg" \
			"$LOG/htmldocs.log") warnings in all, $(grep -c . "$LOG/docs.log") from our files"
	else
		echo "make htmldocs failed: $(tail -n 3 "$LOG/htmldocs.log")" >> "$LOG/docs.log"
		rst="Sphinx: make htmldocs failed ($LOG/htmldocs.log)"
	fi
	docs=$(grep -c . "$LOG/docs.log")
fi
if [ $docs -ne 0 ]; then
	echo "docs:"
	sed 's/^/  /' "$LOG/docs.log"
	status=1
fi

# ------------------------------------------------------------ shellcheck
sh_files=()
for f in $OVERLAY_FILES; do
	head -n1 "$TOP/$f" | grep -qE '^#!.*/(env +)?(ba|da)?sh\b' && sh_files+=("$f")
done
sc=0
if [ ${#sh_files[@]} -eq 0 ]; then
	shc="no scripts"
elif command -v shellcheck > /dev/null; then
	(cd "$TOP" && shellcheck -f gcc "${sh_files[@]}") > "$LOG/shellcheck.log" 2>&1
	sc=$(grep -c . "$LOG/shellcheck.log")
	shc="$sc (${#sh_files[@]} files)"
	if [ $sc -ne 0 ]; then
		echo "shellcheck:"
		sed 's/^/  /' "$LOG/shellcheck.log"
		status=1
	fi
else
	shc="not installed, skipped"
fi

# ------------------------------------------------------------ sections
# No value-profiling call in code that runs without the kernel's mappings.
if [ -f "$OBJ/vmlinux.o" ]; then
	"$TOP/tests/build/check-sections.sh" "$OBJ" "${LLVM_VERSION:-19}" \
		"$(ext_dir "$OBJ")" \
		> "$LOG/sections.log" 2>&1 || status=1
	secs=$(tail -n1 "$LOG/sections.log")
	grep -v '^sections:' "$LOG/sections.log" | sed 's/^/  /'
else
	secs="sections: $OBJ/vmlinux.o not built, skipped"
fi
# No profiled copy of an inline helper called from noinstr code.
if [ -f "$OBJ/vmlinux" ]; then
	"$TOP/tests/build/check-noinstr-calls.sh" "$OBJ" "${LLVM_VERSION:-19}" \
		> "$LOG/noinstr.log" 2>&1 || status=1
	ninstr=$(tail -n1 "$LOG/noinstr.log")
	grep -v '^noinstr:' "$LOG/noinstr.log" | sed 's/^/  /'
else
	ninstr="noinstr: $OBJ/vmlinux not built, skipped"
fi

# Static functions that share a profile name and a control-flow hash:
# llvm-profdata would sum their counts.  Kbuild names them by their path
# in the tree, so there must be none (tests/build/name-collisions.py).
if [ -f "$OBJ/vmlinux" ]; then
	"$TOP/tests/build/name-collisions.py" "$OBJ/vmlinux" $(find "$OBJ" -name '*.ko') \
		> "$LOG/names.log" 2>&1 || status=1
	names="names: $(awk '/^[^ ]/ { n++ } / records, / { r += $2 }
		match($0, /[0-9]+ static/) { s += substr($0, RSTART, RLENGTH - 7) }
		END { printf "%d records in vmlinux and %d modules, %d static functions share a name and a hash",
		r, n - 1, s }' "$LOG/names.log")"
else
	names="names: $OBJ/vmlinux not built, skipped"
fi

# ------------------------------------------------------------ summary
echo "---------------------------------------------------------------- make check"
echo "checkpatch: files ${#cp_files[@]}, patches $(echo $PATCHES | wc -w)," \
     "errors $cp_err, warnings $cp_warn, checks $cp_chk, justified $cp_just$(
	[ $cp_other -eq 0 ] || echo ", unparsed/malformed $cp_other")"
[ ${#cp_skipped[@]} -eq 0 ] || echo "            (not checked: ${cp_skipped[*]})"
echo "sparse:     $sp ($n_sp files$sp_note)"
echo "W=1:        $w1 ($n_cc files$w1_note)"
echo "kernel-doc: $kd (${#kd_files[@]} files, -Wall)"
echo "abi:        $abi"
echo "docs:       $([ $docs -eq 0 ] && echo ok || echo "$docs") (Documentation/ references, toctree, $rst)"
echo "shellcheck: $shc"
echo "$secs"
echo "$ninstr"
echo "$names"
echo "make check: $([ $status -eq 0 ] && echo passed || echo FAILED)" \
     "in $(( $(date +%s) - start )) s; logs in $LOG"
exit $status
