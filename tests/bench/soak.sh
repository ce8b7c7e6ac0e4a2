#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make soak: 200 back-to-back very short runs in ONE coordinator process (tests/bench/soak_driver.c
# calls the real `kbench run` each time), checking after every run that its file descriptors,
# resident memory and child processes do not grow; then that nothing of any run is left:
# no process, no scratch file, every run stored.
# usage: sh tests/bench/soak.sh SOAK_DRIVER [RUNS]
driver=${1:?usage: tests/bench/soak.sh SOAK_DRIVER [RUNS]}
runs=${2:-200}
T=$(mktemp -d /tmp/kbench-soak.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/scratch"
tag="KBENCH_SOAK_TAG=$T"
start=$(date +%s)
# Sub-second samples of tests that fork, exec, pipe, run shells and write files.
env "$tag" KBENCH_HOME="$T/store" "$driver" "$runs" run -q --samples 1 --duration 0.05 --pause 0 -c 1 \
	--tmpdir "$T/scratch" --name soak syscall pipe spawn execl context1 shell1 fstime
rc=$?
secs=$(( $(date +%s) - start ))
fail=0
[ $rc = 0 ] || { echo "soak: the driver failed (exit $rc)"; fail=1; }
stored=$(ls "$T/store" 2>/dev/null | grep -c '\.json$')
[ "$stored" = "$runs" ] || { echo "soak: $stored runs stored, wanted $runs"; fail=1; }
[ -z "$(ls -A "$T/scratch")" ] || { echo "soak: scratch files left:"; ls -A "$T/scratch" | head; fail=1; }
left=$(grep -lzxF "$tag" /proc/[0-9]*/environ 2>/dev/null | sed 's#/proc/\([0-9]*\)/environ#\1#')
[ -z "$left" ] || { echo "soak: processes left: $left"; fail=1; }
echo "soak: $runs runs in $secs s, $stored stored, scratch empty: $([ -z "$(ls -A "$T/scratch")" ] && echo yes || echo no)"
if [ $fail = 0 ]; then echo "soak: 1 passed, 0 failed"; else echo "soak: 0 passed, 1 failed"; fi
exit $fail
