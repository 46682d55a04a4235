#!/bin/bash
# Judge make realconfig: the instrumented defconfig-based kernel and what
# its guest (tests/realconfig/guest/10-real.sh) brought back, with the
# llvm-profdata of the clang that built it; then print the figures.
# usage: check.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
set -uo pipefail
LLVM_VERSION=$1 obj=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
D=$out/real

# shellcheck source=tests/realconfig/run-checks.sh
. "$here/run-checks.sh"

# ------------------------------------------------------------ the run
run_checks realconfig
[ ! -s "$D/no-pgo.txt" ]; verdict $? "every loaded module has /sys/module/<name>/pgo" "$(cat "$D/no-pgo.txt")"

# ------------------------------------------------------------ profiles
profiles=("$D"/profiles/*.profraw)
for p in "${profiles[@]}"; do
	check "$(basename "$p" .profraw): accepted by llvm-profdata show and merge" profile_valid "$p"
done
[ "${#profiles[@]}" -gt 1 ]; verdict $? "${#profiles[@]} profiles: vmlinux and modules"
# pgo-collect in the guest copied the same objects (named by build id),
# and also the retained profile of a module whose init failed (no device).
ncollect=$(find "$D/collect" -name '*.profraw' 2>/dev/null | wc -l)
cmiss=
for p in "${profiles[@]}"; do
	n=$(basename "$p" .profraw)
	compgen -G "$D/collect/$n-*.profraw" >/dev/null || cmiss="$cmiss $n"
done
for c in "$D"/collect/*.profraw; do
	n=$(basename "$c")
	n=${n%%-*}
	[ -e "$D/profiles/$n.profraw" ] || grep -q "^insmod-failed $n:" "$D/insmod.txt" ||
		cmiss="$cmiss (extra: $n)"
done
[ "$(cat "$D/collect.rc" 2>/dev/null)" = 0 ] && [ -z "$cmiss" ]
verdict $? "pgo-collect in the guest: $ncollect profiles, each object's" \
	"missing:$cmiss; $(tail -n 3 "$D/collect.txt" 2>/dev/null)"

# The sum of a function's counters, empty if it is not in the profile.  IR
# PGO counts edges off a spanning tree, not the entry (entry_first = 0):
# a function ran if and only if one of its counters is not zero.
func_total() {
	profdata show --counts --function="$2" "$1" 2>/dev/null |
		awk -v f="$2" '/^  [^ ].*:$/ { on = ($1 == f ":" || $1 ~ ("[;:]" f ":$")) }
			on && /Block counts:/ { gsub(/[^0-9]+/, " "); n = split($0, c, " ")
				for (i = 1; i <= n; i++) s += c[i]; found = 1 }
			END { if (found) printf "%.0f\n", s }'
}

# What each workload must have run: PROFILE FUNCTION.  The static ones are
# address-taken (operations tables), so they keep a body and counters; the
# others are called from another file or module, where they cannot be
# inlined before instrumentation.
while read -r prof fn; do
	c=$(func_total "$D/profiles/$prof.profraw.profdata" "$fn")
	[ "${c:-0}" -gt 0 ]; verdict $? "$prof: $fn ran (counters sum ${c:-absent})"
done <<'EOF'
vmlinux isofs_lookup
vmlinux vfat_create
vmlinux loop_queue_rq
brd brd_submit_bio
zram zram_submit_bio
zsmalloc zs_malloc
minix minix_new_inode
minix minix_lookup
squashfs squashfs_read_data
overlay ovl_lookup
overlay ovl_copy_xattr
exfat exfat_create
exfat exfat_find_dir_entry
udf udf_lookup
udf udf_new_inode
crc_itu_t crc_itu_t
nls_cp850 uni2char
dummy dummy_setup
dummy dummy_xmit
veth veth_newlink
veth veth_xmit
macvlan macvlan_common_newlink
bridge br_add_if
bridge br_dev_xmit
stp stp_proto_register
llc llc_sap_open
tun tun_chr_open
pgo_test_module pgo_test_hot
EOF

# ------------------------------------------------------------ build
sections=$("$here/../build/check-sections.sh" "$obj" "$LLVM_VERSION")
verdict $? "check-sections: $(echo "$sections" | tail -n 1)" "$sections"

# ------------------------------------------------------------ figures
# Kernel C objects, and those of them compiled with -fprofile-generate.
mapfile -t cmds < <(find "$obj" -name '.*.o.cmd' -print0 | xargs -0 grep -l -E \
	'^savedcmd_.* -D__KERNEL__ .* -c -o [^ ]+\.o [^ ]+\.c( |$)')
n_instr=$(grep -l -e '-fprofile-generate' "${cmds[@]}" | grep -c .)

# vmlinux: the bytes between the bounds the linker script puts around
# each profile section (they are inside .data); modules: their sections.
declare -A at
while read -r addr _ sym; do
	at[$sym]=$((16#$addr))
done < <(grep -E ' __(start|stop)___llvm_prf_' "$obj/System.map")
vm_sections=0
for s in data cnts names vals vnds; do
	vm_sections=$((vm_sections + ${at[__stop___llvm_prf_$s]:-0} - ${at[__start___llvm_prf_$s]:-0}))
done
mod_sections=0 n_ko=0
while IFS= read -r -d '' ko; do
	n_ko=$((n_ko + 1))
	for size in $("llvm-readelf-$LLVM_VERSION" -S -W "$ko" | sed 's/^ *\[ *[0-9]*\] //' |
			awk '$1 ~ /^__llvm_prf_/ { print $5 }'); do
		mod_sections=$((mod_sections + 16#$size))
	done
done < <(find "$obj" -name '*.ko' -print0)

vm_size=$(stat -c %s "$D/profiles/vmlinux.profraw")
mod_size=$(( $(cat "${profiles[@]}" | wc -c) - vm_size ))
# busybox time: "real	0m 1.23s"
read_times=$(awk '/^real/ { sub(/m/, "", $2); sub(/s/, "", $3); printf "%.2f s  ", $2 * 60 + $3 }' \
	"$D/read-time.txt")
log=$obj/build-full.log
[ -f "$log" ] || log=$obj/build.log
objtool=$(grep -c 'warning: objtool:' "$log")

echo
echo "== make realconfig, LLVM $LLVM_VERSION, $obj"
row() { printf '  %-44s %s\n' "$1" "$2"; }
row "kernel C objects compiled" "${#cmds[@]}"
row "  with -fprofile-generate" "$n_instr"
row "modules (.ko)" "$n_ko"
row "vmlinux profile" "$vm_size bytes"
row "vmlinux profile reads (TCG)" "$read_times"
row "module profiles ($(( ${#profiles[@]} - 1 )))" "$mod_size bytes"
row "profile sections in vmlinux" "$vm_sections bytes"
row "profile sections in all modules" "$mod_sections bytes"
row "objtool warnings ($(basename "$log"))" "$objtool"
row "build time" "$(cat "$obj/build-time.txt" 2>/dev/null || echo "not recorded (no build from scratch)")"
summary realconfig
