#!/bin/sh
# kbench's shell test, one loop: start N copies of tst.sh on sort.src at once, wait for all.
# Usage: multi.sh N (run in a scratch directory: tst.sh writes its temp files in the cwd).
dir=${0%/*}
[ "$dir" = "$0" ] && dir=.
n=0
while [ $n -lt "$1" ]; do
	/bin/sh "$dir/tst.sh" "$dir/sort.src" &
	n=$((n + 1))
done
wait
