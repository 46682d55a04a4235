# shellcheck shell=bash
# Stages of make test and make run: each runs a command with its output in
# a log, and records its wall time, the CPU seconds of its processes and
# how many of its compilations ccache answered.  Source it after setting
# LOGDIR (emptied here); stages_table prints what they took.
#
# STAGE_SHOW, if set, is an extended regex: the lines of a stage's log that
# match it are also shown as they come (make run shows the kernel builds'
# line a minute this way).

TIMES=$LOGDIR/times.tsv
rm -rf "$LOGDIR" && mkdir -p "$LOGDIR"
START=$(date +%s)
# What each kernel built since: objects newer than this.
touch "$LOGDIR/.start"

el() { echo "$(( $(date +%s) - START ))"; }
say() { printf '[%5s s] %s\n' "$(el)" "$*"; }

# A kernel build's compilations that ccache answered, from its stats log.
cache_of() {
	local log=$LOGDIR/$1.ccache hit miss

	[ -f "$log" ] || return 0
	hit=$(grep -cE '^(direct|preprocessed)_cache_hit$' "$log")
	miss=$(grep -cx 'cache_miss' "$log")
	echo "ccache $hit/$((hit + miss)) hits"
}

# CPU seconds (user + system) of the calling shell's children so far: the
# stages it ran and everything they waited for.  `times` runs in that shell
# (in a command substitution it would report the subshell's own).
cpu_of_children() {
	awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) {
		split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%d\n", n }' "$1"
}

# stage NAME COMMAND...: run, log, time; the tail of the log if it failed.
stage() {
	local name=$1 s rc t c
	shift
	s=$(date +%s)
	times > "$LOGDIR/.$name.cpu"
	c=$(cpu_of_children "$LOGDIR/.$name.cpu")
	say "$name: started (log $LOGDIR/$name.log)"
	if [ -n "${STAGE_SHOW:-}" ]; then
		CCACHE_STATSLOG=$LOGDIR/$name.ccache "$@" 2>&1 |
			tee "$LOGDIR/$name.log" |
			grep --line-buffered -E "$STAGE_SHOW" | sed -u 's/^/          /'
		rc=${PIPESTATUS[0]}
	else
		CCACHE_STATSLOG=$LOGDIR/$name.ccache "$@" > "$LOGDIR/$name.log" 2>&1
		rc=$?
	fi
	t=$(( $(date +%s) - s ))
	times > "$LOGDIR/.$name.cpu"
	c=$(( $(cpu_of_children "$LOGDIR/.$name.cpu") - c ))
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "$t" "$(( s - START ))" \
		"$c" "$(cache_of "$name")" >> "$TIMES"
	if [ "$rc" = 0 ]; then
		say "$name: passed in $t s"
		[ -n "${STAGE_SHOW:-}" ] ||
			grep -E '^(PASS|FAIL|SKIP):|: [0-9]+ passed|passed in|built in|compiler warnings|coverage:' \
				"$LOGDIR/$name.log" | grep -v '^PASS:' | tail -4 |
				sed 's/^/          /'
	else
		say "$name: FAILED (exit $rc) after $t s; the end of its log:"
		tail -40 "$LOGDIR/$name.log" | sed 's/^/          /'
	fi
	return "$rc"
}

# stages_table WHAT NOTE: the table of every stage so far, also written to
# $LOGDIR/times.txt.
stages_table() {
	local total
	total=$(el)
	{
		echo
		echo "== $1: stages (wall seconds$2;"
		echo "   cpu: user + system seconds of the stage's processes; the run had $((total * $(nproc))) on $(nproc) cores)"
		printf '%-16s %-7s %8s %8s %8s  %s\n' stage result seconds "from" cpu "kernel from cache"
		while IFS=$'\t' read -r name r t at cpu c; do
			case $r in 0) r=passed ;; skipped) ;; *) r=FAILED ;; esac
			printf '%-16s %-7s %8s %8s %8s  %s\n' "$name" "$r" "$t" "+$at" "$cpu" "$c"
		done < "$TIMES"
		echo "total: $total s; logs in $LOGDIR/"
	} | tee "$LOGDIR/times.txt"
}
