# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154 # LLVM_VERSION, obj, out, D, here: the sourcing script's
# The checks of a realconfig guest run that check.sh and check-cov.sh share.
# Source it after tests/lib.sh, with LLVM_VERSION, obj (the kernel's build
# directory), out (the guest's results), D ($out/real) and here set.

# verdict COND_STATUS WHAT [DETAILS]: pass or fail, details under a failure.
verdict() {
	if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; [ -z "${3:-}" ] || echo "$3" | head -20 | sed 's/^/  /'; fi
}

# run_checks NAME: the guest ran and reported (or fail, summary NAME and
# exit), its workloads, every module loaded (a device QEMU does not have
# is no failure), no module refused by the profiler, no splat, the KUnit
# suite.  Sets klog: the kernel's log, as saved at the end and as the
# serial console saw it.
run_checks() {
	local failed refused absent np splats kunit

	if [ ! -s "$D/steps.txt" ]; then
		fail "no results from the guest script (see $out/console.log)"
		summary "$1"
		exit 1
	fi
	failed=$(grep '^FAIL' "$D/steps.txt")
	[ -z "$failed" ]
	verdict $? "workloads: $(grep -c '^ok' "$D/steps.txt") ok, $(grep -c '^FAIL' "$D/steps.txt") failed" "$failed"

	# x86_pkg_temp_thermal has no device under QEMU.
	refused=$(grep '^insmod-failed' "$D/insmod.txt" | grep -v 'No such device')
	absent=$(grep '^insmod-failed' "$D/insmod.txt" | grep 'No such device' | cut -d' ' -f2 | tr -d : | xargs)
	[ -z "$refused" ]
	verdict $? "insmod: $(grep -c '^loaded' "$D/insmod.txt") modules loaded${absent:+, no device for $absent}" "$refused"

	klog=$(cat "$D/dmesg.txt" "$out/console.log" | tr -d '\r')
	# The KUnit suite refuses its synthetic broken objects ("pgo_test") on purpose.
	np=$(grep 'not profiled' <<< "$klog" | grep -v ' pgo_test: not profiled' | sort -u)
	[ -z "$np" ]; verdict $? "no module refused by the profiler (\"not profiled\")" "$np"

	# Splats in the forms the kernel prints them: a WARN() says "WARNING: CPU:"
	# (x86's notes on CPU mitigations also say "WARNING:").
	splats=$(grep -E 'BUG:|kernel BUG|WARNING: CPU:|Oops|Call Trace|general protection fault|Kernel panic|KASAN|UBSAN:' \
		<<< "$klog" | sort -u)
	[ -z "$splats" ]; verdict $? "no splat in dmesg" "$splats"

	# The runtime's KUnit suite ran at boot on this config.
	kunit=$("$here/../check-kunit.sh" "$LLVM_VERSION" "$obj" "$out")
	verdict $? "KUnit pgo suite" "$(echo "$kunit" | grep '^FAIL')"
}
