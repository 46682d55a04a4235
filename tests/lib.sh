# Shared helpers of the host-side checks.  Source it; set LLVM_VERSION first.

PASS=0
FAIL=0

pass() { PASS=$((PASS + 1)); echo "PASS: $*"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# check "what" command...: pass if the command succeeds.
check() {
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi
}

profdata() { "llvm-profdata-$LLVM_VERSION" "$@"; }

# First block count of a function in a profile (raw or indexed), empty if
# absent.  For a function with a single counter this is its call count;
# func_counters tells how many counters it has.
func_count() {
	profdata show --counts --function="$2" "$1" 2>/dev/null |
		awk -v f="$2" '$1 == f":" || $1 ~ ("[;:]" f ":$") { found = 1 }
			found && /Block counts:/ { gsub(/[^0-9]/, " ", $0); print $1; exit }'
}

func_counters() {
	profdata show --counts --function="$2" "$1" 2>/dev/null |
		awk -v f="$2" '$1 == f":" || $1 ~ ("[;:]" f ":$") { found = 1 }
			found && /^ *Counters:/ { print $2; exit }'
}

# Accepted by llvm-profdata show and merge.
profile_valid() {
	profdata show --all-functions --counts "$1" >/dev/null 2>&1 &&
		profdata merge -o "$1.profdata" "$1" >/dev/null 2>&1
}

# The objects of KBUILD_DIR $1 compiled with coverage (-fcoverage-mapping in
# their .cmd file), relative to it, sorted.
cov_objects() {
	(cd "$1" && find . -name '.*.o.cmd' -print0 |
		xargs -0r grep -l -e '-fcoverage-mapping' |
		sed 's#^\./##; s#\(^\|/\)\.\([^/]*\)\.cmd$#\1\2#' | sort)
}

summary() {
	echo "$1: $PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
}

# The architecture's getppid() syscall wrapper in vmlinux of KBUILD_DIR $1
# (__x64_sys_getppid, __arm64_sys_getppid).
getppid_wrapper() {
	local w
	w=$("llvm-nm-$LLVM_VERSION" "$1/vmlinux" |
		awk '$3 ~ /^__(x64|arm64)_sys_getppid$/ { print $3; exit }')
	echo "${w:-__x64_sys_getppid}"
}

# The out-of-tree modules' directory beside KBUILD_DIR $1, as the root
# Makefile names it: ext-19 for obj-19, ext-arm64-19 for obj-arm64-19.
ext_dir() { echo "$(dirname "$1")/ext-$(basename "$1" | sed 's/^obj-//')"; }
