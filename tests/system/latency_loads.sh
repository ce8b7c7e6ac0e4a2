#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interactive's reader and memory hog (--ia-loads read,mem): both run and the report says how the
# reader read (O_DIRECT on a filesystem that takes it, else the page cache with the file's
# pages dropped after each pass; on tmpfs, from memory) and how much memory the hog touched; the
# scratch directory is left empty. A machine whose available memory the hog would take below
# an eighth of its RAM (a fake /proc/meminfo in a private mount namespace) gets one line and
# exit 2 for --ia-loads mem, before anything runs, rather than a visit from the OOM killer.
# requires: unshare
. "$KBENCH_TOP/tests/system/lib.inc"

short="--duration 1 --samples 1 --pause 0 -c 1 --no-telemetry"
mkdir -p "$T/scratch"
expect_exit 0 "$KBENCH" run interactive $short --ia-tasks audio --ia-loads read,mem --tmpdir "$T/scratch" --name rm
grep -Eq '^  audio\+read +[0-9]' "$T/out" || { cat "$T/out"; die "no audio+read row"; }
grep -Eq '^  audio\+mem +[0-9]' "$T/out" || die "no audio+mem row"
grep -Eq '^  audio ' "$T/out" && die "--ia-loads read,mem still ran the task alone"
# a disk's two ways; where /tmp itself is tmpfs (Debian 13's default, a machine booted from an
# initramfs) the memory one, which the tmpfs case below checks again
how=' reads (with O_DIRECT \(from the disk, past the page cache\)|through the page cache, dropping its file after each pass)'
case $(stat -f -c %T "$T/scratch") in tmpfs | ramfs) how='.s file is on tmpfs: it reads from memory, not from a disk' ;; esac
grep -Eq "^  Note: the reader$how\\.\$" "$T/out" ||
	{ cat "$T/out"; die "the report does not say how the reader read"; }
total=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
want=$((total / 4)); [ $want -gt 2048 ] && want=2048
grep -q "^  Note: the memory hog touched $want MiB, a byte a page, over and over\\.$" "$T/out" ||
	{ cat "$T/out"; die "the hog did not touch a quarter of the RAM ($want MiB)"; }
[ -z "$(find "$T/scratch" -type f)" ] || { find "$T/scratch"; die "the reader's file was left behind"; }

# The reader on tmpfs: its file is only in memory, and the report says so.
cat >"$T/ns.sh" <<'NS'
mount -t tmpfs -o size=200m kbench-tmp "$T/scratch" || exit 3
"$KBENCH" run interactive --duration 0.5 --samples 1 --pause 0 -c 1 --no-telemetry --ia-tasks audio --ia-loads read \
--tmpdir "$T/scratch" --no-save >"$T/tmpfs.out" 2>"$T/tmpfs.err" || exit 4
NS
T="$T" KBENCH="$KBENCH" unshare -m sh "$T/ns.sh" || { cat "$T/tmpfs.out" "$T/tmpfs.err"; die "the reader on tmpfs"; }
grep -q '^  Note: the reader.s file is on tmpfs: it reads from memory, not from a disk\.$' "$T/tmpfs.out" ||
	{ cat "$T/tmpfs.out"; die "on tmpfs the reader does not say it read from memory"; }

# Little memory available: --ia-loads mem is refused in one line, exit 2.
printf 'MemTotal:        2000000 kB\nMemFree:          100000 kB\nMemAvailable:     600000 kB\n' >"$T/meminfo"
cat >"$T/ns2.sh" <<'NS'
mount --bind "$T/meminfo" /proc/meminfo || exit 3
"$KBENCH" run interactive --duration 0.5 --samples 1 --pause 0 -c 1 --no-telemetry --ia-loads alone,mem --no-save \
>"$T/low.out" 2>"$T/low.err"
echo $? >"$T/low.rc"
NS
T="$T" KBENCH="$KBENCH" unshare -m sh "$T/ns2.sh" || die "could not fake /proc/meminfo"
[ "$(cat "$T/low.rc")" = 2 ] || { cat "$T/low.out" "$T/low.err"; die "little memory: exit $(cat "$T/low.rc"), wanted 2"; }
[ "$(wc -l <"$T/low.err")" = 1 ] || { cat "$T/low.err"; die "little memory: not one line"; }
grep -q '^kbench: --ia-loads: the memory hog would touch 488 MiB with 585 MiB of 1953 MiB available: not enough to keep an eighth free' "$T/low.err" ||
	{ cat "$T/low.err"; die "little memory: the line does not say why"; }
[ -s "$T/low.out" ] && die "little memory: something ran"
exit 0
