#!/bin/sh
# kbench's shell test, one script: sort, od, grep, tee and wc over the input file $1.
# Temp files carry the PID so that concurrent copies do not collide.
sort >sort.$$ <"$1"
od sort.$$ | sort -n -k 1 >od.$$
grep the sort.$$ | tee grep.$$ | wc >wc.$$
rm sort.$$ od.$$ grep.$$ wc.$$
