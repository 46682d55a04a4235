#!/bin/bash
# The body of `make series` and `make series-check` (tests/series.mk).
#
# Cuts the product (the overlay files and patches/) into the patch series
# that tests/series/recipe describes, as a git format-patch series against
# the pristine base (KVER: 6.12 or 7.3) with a cover letter, and checks it:
#
#   (a) `git am` of the series onto a fresh copy of the pristine base
#   (b) the result equals $SRC (base + overlay + patches/, as `make tree`
#       stages it): every file the series adds or touches, its executable
#       bit, and then the whole tree
#   (c) scripts/checkpatch.pl --strict on each patch; a finding must be
#       justified by a line of tests/series/checkpatch-justified.txt
#   (d) with SERIES_BUILD=1: an incremental kernel build (bzImage modules)
#       of the base and then after each patch, in one O= directory, with
#       the default config fragments merged and `make olddefconfig` at each
#       step; every fragment option that the tree knows must stick
#
# Everything goes to $BUILD/series/: work/ (the throwaway repo the commits
# are made in), out/ (the series), am/ (the fresh base the series is applied
# to), obj/ (the build of check (d)), logs/.  Output is stable: fixed author
# and dates, no signature.
#
# Environment (from tests/series.mk): TOP BUILD BASE SRC OVERLAY_DIRS
# OVERLAY_FILES PATCHES; for (d) also LLVM_VERSION NPROC CONFIGS and
# optionally CPU_LOCK.

set -euo pipefail
: "${TOP:?}" "${BUILD:?}" "${BASE:?}" "${SRC:?}" "${OVERLAY_FILES:?}" "${PATCHES:?}"
: "${OVERLAY_DIRS:?}"

DIR=$TOP/tests/series
KVER=${KVER:-6.12}
PATCH_DIR=${PATCH_DIR:-patches/$KVER}
# Per base: the recipe, the cover letter and the messages that differ
# from the shared ones (tests/series/<KVER>/msg/).
RECIPE=$DIR/$KVER/recipe
msg_file() {
	if [ -f "$DIR/$KVER/msg/$1" ]; then echo "$DIR/$KVER/msg/$1"; else echo "$DIR/msg/$1"; fi
}
S=$BUILD/series
WORK=$S/work
OUT=$S/out
AM=$S/am
LOGS=$S/logs

export GIT_AUTHOR_NAME="PGO developers" GIT_AUTHOR_EMAIL="dev@pgo.example"
export GIT_COMMITTER_NAME="PGO developers" GIT_COMMITTER_EMAIL="dev@pgo.example"
# Git must not find /work/main's repository above $S, and must not read the
# user's configuration (format.*, am.*, ...): the output stays the same.
export GIT_CEILING_DIRECTORIES=$S GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
# No gc in any repository made here: after the commit of the whole base
# (and after git am), a detached "git gc --auto" packs it for minutes, and
# the next run's rm -rf of the directory fails ("Directory not empty").
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0 \
	GIT_CONFIG_KEY_1=maintenance.auto GIT_CONFIG_VALUE_1=false
export TZ=UTC LC_ALL=C
EPOCH=1796212800	# 2026-12-02 12:00:00 UTC; patch N is dated EPOCH + N min

die() { echo "series: $*" >&2; exit 1; }
say() { echo "series: $*"; }
t0=$(date +%s)

# ------------------------------------------------------------ the inputs
# Others may edit the repo while this runs: work from a snapshot of the
# overlay files and patches/ taken now, and compare with it at the end.
SNAP=$S/snap
export SNAP
rm -rf "$SNAP" "$WORK" "$OUT" "$AM" "$LOGS" "$S"/msg.* "$S"/base.msg
[ "${SERIES_BUILD:-0}" != 1 ] || rm -rf "$S/obj" "$S/build-logs"
mkdir -p "$SNAP"
(cd "$TOP" && cp -p --parents $OVERLAY_FILES $PATCHES "$SNAP"/)
snapshot_changed() {	# what in the repo differs from the snapshot now
	local f
	for f in $OVERLAY_FILES $PATCHES; do
		cmp -s "$TOP/$f" "$SNAP/$f" || echo "$f"
	done
	[ "$(cd "$TOP" && find $OVERLAY_DIRS -type f 2>/dev/null | sort)" = \
	  "$(echo $OVERLAY_FILES | tr ' ' '\n' | sort)" ] || echo "(overlay file list)"
	[ "$(cat "$TOP/$PATCH_DIR/series")" = "$(for p in $PATCHES; do echo "${p#"$PATCH_DIR"/}"; done)" ] ||
		echo "$PATCH_DIR/series"
}

# ------------------------------------------------------------ the recipe
# n: number of patches; per patch i (1..n): MSG[i] SUBJ[i], ADD[i] (paths),
# APPLY[i] (lines "NNNN path..."), STAGE[i] (diff names).
n=0
declare -a MSG SUBJ ADD APPLY STAGE CONF
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	line=${line%%#*}
	read -r -a w <<< "$line" || true
	[ ${#w[@]} -eq 0 ] && continue
	case ${w[0]} in
	patch)
		[ ${#w[@]} -ge 3 ] || die "recipe:$lineno: patch <msg> <subject>"
		n=$((n + 1))
		MSG[n]=${w[1]}
		SUBJ[n]=$(sed -E 's/^[[:space:]]*patch[[:space:]]+[^[:space:]]+[[:space:]]+//' <<< "$line")
		SUBJ[n]=${SUBJ[n]%"${SUBJ[n]##*[![:space:]]}"}
		ADD[n]="" APPLY[n]="" STAGE[n]="" CONF[n]=""
		;;
	add | apply | stage | config)
		[ $n -gt 0 ] || die "recipe:$lineno: ${w[0]} before the first patch"
		[ ${#w[@]} -ge 2 ] || die "recipe:$lineno: ${w[0]} needs an argument"
		case ${w[0]} in
		add)	ADD[n]+=" ${w[*]:1}" ;;
		apply)	APPLY[n]+="${w[*]:1}"$'\n' ;;
		stage)	STAGE[n]+=" ${w[*]:1}" ;;
		config)	CONF[n]+=" ${w[*]:1}" ;;
		esac ;;
	*)	die "recipe:$lineno: unknown keyword '${w[0]}'" ;;
	esac
done < "$RECIPE"
[ $n -gt 0 ] || die "recipe: no patch"
[ -z "${STAGE[n]}" ] || die "recipe: the last patch must not have a stage diff"

# patches/NNNN-*.patch of patches/series, by number.
patch_file() {
	local p
	for p in $PATCHES; do
		case ${p##*/} in "$1"-*) echo "$SNAP/$p"; return ;; esac
	done
	die "recipe: no patch $1-* in patches/series"
}
# A commit message body; a line "@include NNNN" stands for the body of
# patches/NNNN-*.patch's own message, so that it cannot drift from it.
# Its trailers stay behind: the series commit is signed off as a whole.
patch_body() {
	sed -e '1,/^$/d' -e '/^---$/,$d' -e '/^Signed-off-by: /d' "$1" |
		sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
}
expand_msg() {
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"@include "*) patch_body "$(patch_file "${line#@include }")" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done < "$1"
}
patch_paths() { sed -n 's|^diff --git a/\(.*\) b/.*|\1|p' "$1" | sort -u; }
# The files a patch creates (scripts/Makefile.pgo): not in the base.
patch_new_paths() {
	awk '/^diff --git a\// { f = substr($3, 3) } /^new file mode/ { print f }' "$1" | sort -u
}

# Every overlay file added exactly once; every file of every patch of
# patches/series applied exactly once; every stage diff used; messages
# exist and are wrapped.
declare -A seen_add seen_hunk used_stage
for ((i = 1; i <= n; i++)); do
	[ -f "$(msg_file "${MSG[i]}")" ] || die "recipe: patch $i: no msg/${MSG[i]}"
	[ ${#SUBJ[i]} -le 75 ] || die "recipe: patch $i: subject longer than 75"
	awk -v f="msg/${MSG[i]}" 'length > 72 { print "series: " f ":" NR \
		": longer than 72 columns"; bad = 1 } END { exit bad }' \
		"$(msg_file "${MSG[i]}")" || exit 1
	for f in ${ADD[i]}; do
		[ -z "${seen_add[$f]:-}" ] || die "recipe: $f added twice"
		[ -f "$SNAP/$f" ] || die "recipe: $f is not an overlay file of the repo"
		seen_add[$f]=$i
	done
	while read -r num paths; do
		[ -n "$num" ] || continue
		pf=$(patch_file "$num")
		[ -n "$paths" ] || paths=$(patch_paths "$pf")
		for p in $paths; do
			patch_paths "$pf" | grep -qxF "$p" ||
				die "recipe: patch $i: ${pf##*/} does not touch $p"
			[ -z "${seen_hunk[$num:$p]:-}" ] ||
				die "recipe: ${pf##*/}'s $p applied twice"
			seen_hunk[$num:$p]=$i
		done
	done <<< "${APPLY[i]}"
	for d in ${STAGE[i]}; do
		[ -f "$DIR/stage/$d" ] || die "recipe: patch $i: no stage/$d"
		used_stage[$d]=1
	done
done
for f in $OVERLAY_FILES; do
	[ -n "${seen_add[$f]:-}" ] || die "recipe: overlay file $f is in no patch"
done
for p in $PATCHES; do
	num=${p##*/}; num=${num%%-*}
	for f in $(patch_paths "$SNAP/$p"); do
		[ -n "${seen_hunk[$num:$f]:-}" ] ||
			die "recipe: $p: its hunks for $f are in no patch"
	done
done
for d in "$DIR"/stage/*.diff; do
	[ -n "${used_stage[${d##*/}]:-}" ] || die "stage/${d##*/} is used by no patch"
done

# ------------------------------------------------------------ the commits
# work/ starts with the base's version of every upstream file the series
# touches (the patches' index lines name blobs, so this is all
# format-patch needs).  Patch i: undo patch i-1's stage diffs, add its
# files, apply its hunks, apply its own stage diffs, commit.
mkdir -p "$WORK" "$OUT" "$LOGS"
created=$(for p in $PATCHES; do patch_new_paths "$SNAP/$p"; done | sort -u)
# Files of the base the patches touch: neither created by them nor our
# own (a backport patch may adapt an overlay file to an older base).
upstream=$(for p in $PATCHES; do patch_paths "$SNAP/$p"; done | sort -u |
	grep -vxF -e "$created" -e '' $(printf -- '-e %s ' $OVERLAY_FILES) || true)
for f in $upstream; do
	[ -f "$BASE/$f" ] || die "$f: not in the base"
	mkdir -p "$WORK/$(dirname "$f")" && cp -p "$BASE/$f" "$WORK/$f"
done
cd "$WORK"
git init -q -b pgo
git config core.abbrev 12
commit() {	# commit <i> <message file>: signed off by its author, but the base
	git add -A
	GIT_AUTHOR_DATE="@$((EPOCH + $1 * 60)) +0000" \
	GIT_COMMITTER_DATE="@$((EPOCH + $1 * 60)) +0000" \
		git commit -q --no-verify $([ "$1" = 0 ] || echo --signoff) -F "$2"
}
printf 'pristine base\n' > "$S/base.msg"
commit 0 "$S/base.msg"
root=$(git rev-parse HEAD)

for ((i = 1; i <= n; i++)); do
	for d in ${STAGE[i - 1]:-}; do
		git apply -R "$DIR/stage/$d" ||
			die "patch $((i - 1)): stage/$d does not revert"
	done
	for f in ${ADD[i]}; do
		mkdir -p "$(dirname "$f")"
		cp "$SNAP/$f" "$f"
		chmod "$(stat -c %a "$SNAP/$f")" "$f"
	done
	while read -r num paths; do
		[ -n "$num" ] || continue
		inc=()
		for p in $paths; do inc+=("--include=$p"); done
		git apply "${inc[@]}" "$(patch_file "$num")" ||
			die "patch $i: patches/$num-* ${paths:+($paths) }does not apply"
	done <<< "${APPLY[i]}"
	for d in ${STAGE[i]}; do
		git apply "$DIR/stage/$d" ||
			die "patch $i: stage/$d does not apply to the final files any more: run tests/series/mkstage.py"
	done
	{ printf '%s\n\n' "${SUBJ[i]}"; expand_msg "$(msg_file "${MSG[i]}")"; } > "$S/msg.$i"
	awk -v f="msg/${MSG[i]}" 'length > 72 { print "series: " f " (expanded):" \
		NR ": longer than 72 columns"; bad = 1 } END { exit bad }' "$S/msg.$i" ||
		exit 1
	git add -A
	git diff --cached --quiet && die "patch $i (${SUBJ[i]}) changes nothing"
	commit "$i" "$S/msg.$i"
done

# The cover letter: tests/series/cover's first paragraph is its subject.
git config branch.pgo.description "$(cat "$DIR/$KVER/cover")"
GIT_COMMITTER_DATE="@$EPOCH +0000" git format-patch -q --cover-letter \
	--cover-from-description=subject --no-signature \
	-o "$OUT" "$root..HEAD"
grep -q '\*\*\*' "$OUT"/0000-cover-letter.patch && die "cover letter has template text"
say "$n patches in ${OUT#"$TOP"/}/ ($(($(date +%s) - t0)) s)"
for p in "$OUT"/*.patch; do
	printf '  %s  %s\n' "$(stat -c %s "$p" | numfmt --to=iec --padding=5)" "${p##*/}"
done

# ------------------------------------------------------------ (a) git am
# A fresh copy of the pristine base: hard links, except for the files the
# series changes, so that nothing can write through to $BASE.
t=$(date +%s)
cp -al "$BASE" "$AM"
rm -f "$AM/.stamp"
for f in $upstream; do cp --remove-destination -p "$BASE/$f" "$AM/$f"; done
cd "$AM"
git init -q -b pristine
git config core.abbrev 12
git add -A -f	# Debian's top-level .gitignore ignores everything
GIT_AUTHOR_DATE="@$EPOCH +0000" GIT_COMMITTER_DATE="@$EPOCH +0000" \
	git commit -q --no-verify -m "pristine Linux $(make -s kernelversion) (Debian linux-source-$KVER)"
amroot=$(git rev-parse HEAD)
patches=("$OUT"/0*.patch)
patches=("${patches[@]:1}")	# not the cover letter
git am -q --whitespace=error-all "${patches[@]}" > "$LOGS/am.log" 2>&1 ||
	{ cat "$LOGS/am.log"; die "(a) git am failed"; }
[ "$(git rev-list --count "$amroot..HEAD")" = "$n" ] || die "(a) git am: not $n commits"
say "(a) git am: $n patches applied to a fresh copy of the base ($(($(date +%s) - t)) s)"

# ------------------------------------------------------------ (b) equal
b_fail() {
	local changed
	changed=$(snapshot_changed)
	[ -z "$changed" ] || die "(b) $1, but the repo changed during the run:" \
		$changed "-- run make series again"
	die "(b) $1"
}
t=$(date +%s)
files=$( (echo "$upstream"; echo "$created"; for i in $(seq "$n"); do echo "${ADD[i]}"; done) |
	tr ' ' '\n' | sed '/^$/d' | sort -u)
nf=0
for f in $files; do
	cmp -s "$AM/$f" "$SRC/$f" || b_fail "$f differs from ${SRC#"$TOP"/}/$f"
	x1=$([ -x "$AM/$f" ] && echo x || echo -)
	x2=$([ -x "$SRC/$f" ] && echo x || echo -)
	[ "$x1" = "$x2" ] || b_fail "$f: executable bit differs"
	nf=$((nf + 1))
done
diff -rq --no-dereference -x .git -x .stamp -x ".tmp.config.*" -x ".merge_tmp.config.*" "$AM" "$SRC" > "$LOGS/tree.diff" 2>&1 ||
	{ head -20 "$LOGS/tree.diff"; b_fail "the tree differs from ${SRC#"$TOP"/}"; }
say "(b) tree after the series = ${SRC#"$TOP"/}: $nf files added or touched, whole tree identical ($(($(date +%s) - t)) s)"

# ------------------------------------------------------------ (c) checkpatch
# Run from logs/ (not a git tree; --strict leaves camelcase caches in the
# current directory) with the base's checkpatch.
t=$(date +%s)
cd "$LOGS"
: > checkpatch.out
for ((i = 1; i <= n; i++)); do
	p=${patches[i - 1]}
	"$BASE/scripts/checkpatch.pl" --strict --show-types --terse --no-summary \
		--color=never "$p" 2>&1 | sed "s|^$OUT/||" >> checkpatch.out || true
done
perl -e '
	use strict; use warnings;
	# A finding is justified by a rule of our file (which must all be used)
	# or of the product`s (tests/checkpatch-justified.txt, rules by source
	# file or by the patches/ file whose hunk the finding is in; its other
	# rules are for make check).  A rule names the patch or the source file
	# the flagged line belongs to; its regex must match the message or the
	# flagged line.
	my ($ours, $product, $out, $dir) = @ARGV;
	my @rules;
	for my $jfile ($ours, $product) {
		open(my $j, "<", $jfile) or die "$jfile: $!\n";
		while (<$j>) {
			chomp;
			next if /^\s*(#|$)/;
			my ($glob, $type, $re) =
				m{^(\S+?):([A-Z0-9_]+)(?::/(.*?)/)?:\s+(\S.*)$} or
				die "$jfile:$.: malformed justification\n";
			(my $g = quotemeta $glob) =~ s/\\\*/[^\/]*/g;
			push @rules, { file => $jfile, line => $., glob => qr/^$g$/,
				       type => $type, re => defined $re ? qr/$re/ : undef,
				       used => 0, ours => $jfile eq $ours };
		}
	}
	# A product rule for patches/NNNN-*.patch applies to the files that
	# patch touches, wherever the series puts its hunks.
	for my $r (grep { !$_->{ours} } @rules) {
		my @touched;
		for my $p (split " ", $ENV{PATCHES}) {
			next unless $p =~ $r->{glob};
			open(my $f, "<", "$ENV{SNAP}/$p") or die "$p: $!\n";
			push @touched, map { m{^diff --git a/(\S+)} ? $1 : () } <$f>;
		}
		$r->{files} = { map { $_ => 1 } @touched } if @touched;
	}
	my %src;	# patch => [ [line, source file, text], ... ]
	sub locate {
		my ($patch, $n) = @_;
		unless ($src{$patch}) {
			open(my $p, "<", "$dir/$patch") or die "$patch: $!\n";
			my $f = "";
			while (<$p>) {
				chomp;
				$f = $1 if m{^\+\+\+ b/(.*)};
				push @{$src{$patch}}, [$f, $_];
			}
		}
		return @{$src{$patch}->[$n - 1] // ["", ""]};
	}
	my ($ok, $bad, $prod) = (0, 0, 0);
	open(my $o, "<", $out) or die "$out: $!\n";
	while (my $finding = <$o>) {
		chomp $finding;
		$_ = $finding;
		next unless /^(\S+?):(\d+): (?:ERROR|WARNING|CHECK):([A-Z0-9_]+): (.*)$/;
		my ($patch, $n, $type, $msg) = ($1, $2, $3, $4);
		my ($file, $text) = locate($patch, $n);
		my ($r) = grep { $type eq $_->{type} &&
				 ($patch =~ $_->{glob} ||
				  ($_->{ours} || $file ne "") && $file =~ $_->{glob} ||
				  $_->{files} && $_->{files}{$file}) &&
				 (!$_->{re} || $msg =~ $_->{re} || $text =~ $_->{re}) } @rules;
		if ($r) { $r->{used}++; $ok++; $prod++ unless $r->{ours}; }
		else { print "series: (c) unjustified: $finding ($file)\n"; $bad++; }
	}
	for (grep { $_->{ours} && !$_->{used} } @rules) {
		print "series: (c) $_->{file}:$_->{line} justifies nothing\n";
		$bad++;
	}
	print "series: (c) checkpatch --strict: $ok findings, all justified ($prod by tests/checkpatch-justified.txt)\n"
		unless $bad;
	exit($bad ? 1 : 0);
' "$DIR/checkpatch-justified.txt" "$TOP/tests/checkpatch-justified.txt" \
	checkpatch.out "$OUT" || die "(c) checkpatch: see ${LOGS#"$TOP"/}/checkpatch.out"
say "(c) checkpatch --strict on $n patches ($(($(date +%s) - t)) s)"

[ "${SERIES_BUILD:-0}" = 1 ] || { say "done in $(($(date +%s) - t0)) s (SERIES_BUILD=1 or make series-check builds after each patch)"; exit 0; }

# ------------------------------------------------------------ (d) builds
: "${LLVM_VERSION:?}" "${NPROC:?}" "${CONFIGS:?}"
OBJ=$S/obj
BLOGS=$S/build-logs
LOCK=${CPU_LOCK:-$BUILD/.cpu.lock}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
kmake() {
	make -C "$AM" O="$OBJ" ARCH=x86_64 LLVM=-"$LLVM_VERSION" \
		CC="ccache clang-$LLVM_VERSION" -j"$NPROC" "$@"
}
frags=()
for c in $CONFIGS; do frags+=("$TOP/$c"); done
# The options the fragments set (=y or =m).
frag=$(cat "${frags[@]}" | sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=[ym]$/\1/p' | sort -u)
mkdir -p "$OBJ" "$BLOGS"
# The CPU lock is taken once, for all the builds: with others queueing
# for it, taking it per build would mean waiting for them at every step.
tbuild=$(date +%s)
exec 9>> "$LOCK"
flock 9
wait=$(($(date +%s) - tbuild))
say "(d) got the CPU lock after $wait s"
cd "$AM"
mapfile -t commits < <(git rev-list --reverse "$amroot..HEAD")
commits=("$amroot" "${commits[@]}")
was_set=""
for ((i = 0; i <= n; i++)); do
	# Only the files that differ are written: the build stays incremental.
	git checkout -q --detach "${commits[i]}"
	cfg=$BLOGS/config-$i.log log=$BLOGS/build-$i.log
	: > "$cfg"
	[ $i -ne 0 ] || kmake tinyconfig >> "$cfg" 2>&1
	scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "${frags[@]}" \
		>> "$cfg" 2>&1
	kmake olddefconfig >> "$cfg" 2>&1
	# The options the recipe expects by now must be set, an option of the
	# fragments that was set after an earlier patch must still be, and
	# after the last patch every option of the fragments that the tree
	# knows must be.
	set=$(echo "$frag" | while read -r o; do
		! grep -q "^CONFIG_$o=[ym]" "$OBJ/.config" || echo "$o"
	done | sort -u)
	want=$(for ((j = 1; j <= i; j++)); do echo ${CONF[j]}; done | tr ' ' '\n')
	# Of the fragments' options, those the tree knows, as the root
	# Makefile's config step (6.12's PROC_SYSCTL is 7.3's SYSCTL).
	if [ $i -eq $n ]; then
		known=$(git grep -hE '^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' -- '*Kconfig*' |
			awk '{ print $2 }' | sort -u)
		[ -n "$known" ] || die "(d) no Kconfig symbol found in the tree"
		for o in $(comm -23 <(echo "$frag") <(echo "$known")); do
			say "(d) CONFIG_$o: not an option of Linux $KVER, not required"
		done
		want+=$'\n'$(comm -12 <(echo "$frag") <(echo "$known"))
	fi
	missing=$(echo "$want"$'\n'"$was_set" | sed '/^$/d' | sort -u | comm -23 - <(echo "$set"))
	[ -z "$missing" ] || die "(d) patch $i: config options not set:" $missing
	was_set=$set
	pgo=$(grep -q '^CONFIG_PGO_CLANG=y' "$OBJ/.config" && echo "PGO_CLANG=y" || echo "no PGO_CLANG")
	t=$(date +%s)
	kmake bzImage modules > "$log" 2>&1 ||
		{ grep -E 'error|Error' "$log" | head -20
		  die "(d) the build after patch $i failed: ${log#"$TOP"/}"; }
	say "(d) $( [ $i -eq 0 ] && echo "base    " || printf 'patch %2d' $i): builds," \
		"$pgo, $(grep -c 'warning:' "$log" || true) compiler warnings," \
		"$(grep -cE '^  (CC|AS|LD|AR) ' "$log" || true) objects made," \
		"$(($(date +%s) - t)) s" |
		tee -a "$BLOGS/summary"
done
exec 9>&-
say "(d) build after each patch: base + $n patches in $(($(date +%s) - tbuild - wait)) s (+$wait s waiting for the CPU lock)" |
	tee -a "$BLOGS/summary"
say "done in $(($(date +%s) - t0)) s"
