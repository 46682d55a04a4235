#!/bin/bash
# make apply: put this repo's files and patches/ onto a kernel tree.
#
#   tests/apply.sh KSRC
#
# Environment: TOP (this repo), OVERLAY_FILES, PATCHES (the root Makefile's).
# Checks its tools first and names a missing one.  Idempotent: a tree that
# has the series already (its files take every patch in reverse) gets only
# the files that differ, so running it twice changes nothing; a patch that
# does not apply stops it with the patch's name and patch(1)'s words.
set -uo pipefail
ksrc=${1:-}
: "${TOP:?}" "${OVERLAY_FILES?}" "${PATCHES?}"
if [ -z "$ksrc" ] || [ ! -f "$ksrc/Makefile" ]; then
	echo "usage: make apply KSRC=/path/to/linux (6.12 or 7.3)" >&2
	exit 1
fi
for t in patch cp mkdir cmp tac; do
	command -v "$t" > /dev/null ||
		{ echo "apply: needs $t (apt-get install $(case $t in cmp) echo diffutils;; tac) echo coreutils;; *) echo "$t";; esac))" >&2; exit 1; }
done
new=0 same=0
# copy_overlay [SKIP...]: our files that differ, but those named.
copy_overlay() {
	local f
	for f in $OVERLAY_FILES; do
		case " $* " in *" $f "*) continue ;; esac
		if cmp -s "$TOP/$f" "$ksrc/$f"; then
			same=$((same + 1))
			continue
		fi
		mkdir -p "$ksrc/$(dirname "$f")" && cp --remove-destination -p "$TOP/$f" "$ksrc/$f" ||
			{ echo "apply: cannot write $ksrc/$f" >&2; exit 1; }
		new=$((new + 1))
	done
}
# The whole series already in the tree: the files it touches, copied
# aside, take every patch in reverse, last first.
touched=$(for p in $PATCHES; do sed -n 's,^+++ b/\([^\t]*\).*,\1,p' "$TOP/$p"; done | sort -u)
aside=$(mktemp -d)
trap 'rm -rf "$aside"' EXIT
for f in $touched; do
	[ -e "$ksrc/$f" ] || continue
	mkdir -p "$aside/$(dirname "$f")" && cp "$ksrc/$f" "$aside/$f"
done
present=1
for p in $(echo "$PATCHES" | tr ' ' '\n' | tac); do
	patch -d "$aside" -p1 -s -R -f --no-backup-if-mismatch < "$TOP/$p" \
		> /dev/null 2>&1 || { present=0; break; }
done
if [ "$present" = 1 ]; then
	# Our files that a patch adapts to this base (patches/6.12/0022) are
	# in the tree as patched: reverted, they must be the repo's.
	ours_touched=
	for f in $touched; do
		case " $OVERLAY_FILES " in *" $f "*) ;; *) continue ;; esac
		cmp -s "$TOP/$f" "$aside/$f" || {
			echo "apply: $ksrc/$f is an older $f, which a patch of the series changes: apply to a fresh tree" >&2
			exit 1; }
		ours_touched="$ours_touched $f"
	done
	copy_overlay $ours_touched
	echo "apply: $new files copied ($same already there, $(echo "$ours_touched" | wc -w) as the series patches them); the patches are in the tree already"
	exit 0
fi
copy_overlay
applied=0
for p in $PATCHES; do
	if ! out=$(patch -d "$ksrc" -p1 -s -N --dry-run < "$TOP/$p" 2>&1); then
		echo "apply: $p does not apply to $ksrc${applied:+ (after $applied patches applied)}:" >&2
		echo "$out" | head -5 | sed 's/^/  /' >&2
		exit 1
	fi
	patch -d "$ksrc" -p1 -s -N --no-backup-if-mismatch < "$TOP/$p" ||
		{ echo "apply: $p failed" >&2; exit 1; }
	applied=$((applied + 1))
done
echo "apply: $new files copied ($same already there), $applied patches applied"
