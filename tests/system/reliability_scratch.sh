#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A coordinator killed outright (SIGKILL) leaves its scratch directory behind with its owner
# (pid, start time, boot, pid namespace) written inside; the next run removes it, and removes
# nothing else: not a directory without an owner file, not one of a live owner, not one outside
# kbench's kbench-XXXXXX pattern, not a symbolic link, not a file.
# requires: pgrep
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/reliability_lib.inc"

# starttime PID: field 22 of /proc/PID/stat (the fields after the command name's last ')')
starttime() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
boot=$(cat /proc/sys/kernel/random/boot_id)
ns=$(readlink /proc/self/ns/pid)
# owner DIR PID START [BOOT [NS]]: a directory with an owner file as kbench writes it
owner() {
	mkdir -p "$1/copy0" && echo data >"$1/copy0/file"
	printf '%s %s %s %s\n' "$2" "$3" "${4:-$boot}" "${5:-$ns}" >"$1/owner"
}
# a pid that is surely not running: one past the highest pid the kernel hands out
dead=$(cat /proc/sys/kernel/pid_max)

# What must stay.
mkdir -p "$SCRATCH/kbench-foo" && echo mine >"$SCRATCH/kbench-foo/notes"  # not the pattern, no owner
mkdir -p "$SCRATCH/kbench-AbC123" && echo mine >"$SCRATCH/kbench-AbC123/notes" # the pattern, no owner
owner "$SCRATCH/kbench-notours" "$dead" 1                                 # a dead owner, not the pattern
owner "$SCRATCH/kbench-live01" $$ "$(starttime $$)"                       # this shell: alive
owner "$SCRATCH/kbench-othrns" "$dead" 1 "$boot" "pid:[1]"                # another pid namespace
mkdir -p "$SCRATCH/kbench-junk01" && echo "not an owner" >"$SCRATCH/kbench-junk01/owner"
owner "$T/elsewhere" "$dead" 1
ln -s "$T/elsewhere" "$SCRATCH/kbench-link01"                             # a link to a dead owner's
echo file >"$SCRATCH/kbench-file01"
# What must go, besides the killed run's own: a reused pid (this shell's, another start time)
# and an owner of another boot.
owner "$SCRATCH/kbench-reuse1" $$ 1
owner "$SCRATCH/kbench-boot01" $$ "$(starttime $$)" 00000000-0000-0000-0000-000000000000
keep="kbench-foo kbench-AbC123 kbench-notours kbench-live01 kbench-othrns kbench-junk01 kbench-link01 kbench-file01"
before=$(ls -A "$SCRATCH" | sort | tr '\n' ' ')

# A run killed outright in the middle of a sample, workers and all.
start_run --no-save --samples 1 --duration 20 --pause 0 -c 2 --no-telemetry dhry2reg
n=100
while [ $n -gt 0 ] && [ "$(pgrep -P "$RUN_PID" | wc -l)" -lt 2 ]; do sleep 0.1; n=$((n - 1)); done
[ $n -gt 0 ] || { cat "$T/err"; die "no 2 workers appeared"; }
stale=$(ls -A "$SCRATCH" | sort | tr '\n' ' ')
stale=$(for d in $stale; do case " $before " in *" $d "*) ;; *) echo "$d" ;; esac; done)
[ "$(echo "$stale" | wc -w)" = 1 ] || die "the run made not one scratch directory but '$stale'"
case "$stale" in kbench-??????) ;; *) die "the run's scratch directory $stale is not kbench-XXXXXX" ;; esac
want="$RUN_PID $(starttime "$RUN_PID") $boot $ns"
[ "$(cat "$SCRATCH/$stale/owner")" = "$want" ] ||
	die "its owner file says '$(cat "$SCRATCH/$stale/owner")', wanted '$want'"
for p in $(run_pids); do kill -KILL "$p" 2>/dev/null; done
wait "$RUN_PID" 2>/dev/null
no_run_procs 5 "SIGKILL to the coordinator and its workers"
[ -f "$SCRATCH/$stale/owner" ] || die "the killed run's scratch directory went by itself: nothing to test"
echo "SIGKILL left $stale behind"

# The next run removes the dead owners' directories, and only those.
"$KBENCH" run -q --no-save --samples 1 --duration 0.2 --pause 0 -c 1 --no-telemetry --tmpdir "$SCRATCH" syscall \
	>"$T/out" 2>"$T/err" || { cat "$T/err"; die "the next run failed"; }
[ ! -e "$SCRATCH/$stale" ] || die "the next run left the killed run's $stale"
[ ! -e "$SCRATCH/kbench-reuse1" ] || die "an owner whose pid was reused (another start time) was kept"
[ ! -e "$SCRATCH/kbench-boot01" ] || die "an owner of another boot was kept"
left=$(ls -A "$SCRATCH" | sort | tr '\n' ' ')
[ "$left" = "$(echo $keep | tr ' ' '\n' | sort | tr '\n' ' ')" ] || die "left in the scratch directory: '$left', wanted '$(echo $keep | tr ' ' '\n' | sort | tr '\n' ' ')'"
[ "$(cat "$SCRATCH/kbench-foo/notes")" = mine ] || die "kbench-foo was touched"
[ "$(cat "$SCRATCH/kbench-AbC123/notes")" = mine ] || die "kbench-AbC123 was touched"
for d in kbench-notours kbench-live01 kbench-othrns; do
	[ -f "$SCRATCH/$d/copy0/file" ] || die "$d was emptied"
done
[ -f "$T/elsewhere/copy0/file" ] || die "the sweep followed a symbolic link"
echo ok
