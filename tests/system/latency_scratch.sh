#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interactive's streaming writer on a scratch directory that fills up (a
# 2 MiB tmpfs in a private mount namespace): the test fails with one
# sentence that names the file and "No space left on device", the run
# exits 1, and the scratch
# directory is left empty.
# requires: unshare
. "$KBENCH_TOP/tests/system/lib.inc"

S="$T/small"
mkdir -p "$S"
cat >"$T/ns.sh" <<'NS'
set -u
mount -t tmpfs -o size=2m kbench-small "$S" || exit 3
"$KBENCH" run interactive -c 1 --samples 1 --duration 1 --pause 0 --no-telemetry --tmpdir "$S" \
	--name full >"$T/full.out" 2>"$T/full.err"
echo $? >"$T/full.rc"
[ -z "$(ls -A "$S")" ] || exit 6
exit 0
NS
S="$S" T="$T" KBENCH="$KBENCH" unshare -m sh "$T/ns.sh"
rc=$?
[ $rc = 0 ] || { cat "$T/full.err" 2>/dev/null; die "in the namespace (exit $rc)"; }
[ "$(cat "$T/full.rc")" = 1 ] || { cat "$T/full.out" "$T/full.err"; die "a full scratch dir: exit $(cat "$T/full.rc"), wanted 1"; }
grep -Eq '^Failed: Interactive tasks under load \(.*the streaming writer could not write to .*/interactive-io\.0: No space left on device\)' "$T/full.out" ||
	{ cat "$T/full.out"; die "the failure does not say the scratch dir is full"; }
grep -c 'No space left' "$T/full.out" | grep -qx 1 || die "the reason is said more than once"
exit 0
