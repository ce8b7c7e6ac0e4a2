# SPDX-License-Identifier: GPL-2.0-or-later
# Saves at once and saves killed: two kbench processes importing side by side (with a third
# listing meanwhile) lose nothing; a save or an index update killed (SIGKILL) at each of its
# steps leaves the store readable and the index consistent with the files.
# requires: sqlite3
. "$KBENCH_TOP/tests/system/lib.inc"
F="$KBENCH_TOP/tests/fixtures"
IX="$KBENCH_HOME/index.sqlite"

# consistent N: runs lists N good runs and nothing broken, one for each file, the index has a
# row for each file and passes SQLite's own check
consistent() {
	"$KBENCH" runs >"$T/out" 2>"$T/err" || die "runs failed: $(cat "$T/err")"
	[ ! -s "$T/err" ] || die "runs complained: $(cat "$T/err")"
	files=$(ls "$KBENCH_HOME" | grep -c '\.json$')
	listed=$(grep -c '^[0-9a-z_-]*  ' "$T/out")
	[ "$files" = "$1" ] || die "$files run files, wanted $1"
	[ "$listed" = "$1" ] || die "$listed runs listed, wanted $1: $(cat "$T/out")"
	grep -q BROKEN "$T/out" && die "a broken run: $(cat "$T/out")"
	[ "$(sqlite3 "$IX" 'select count(*) from runs')" = "$1" ] || die "index rows differ from the files"
	[ "$(sqlite3 "$IX" 'pragma integrity_check')" = ok ] || die "the index fails its check"
}

# 1. Two importers and a lister at once.
mkdir -p "$KBENCH_HOME"
for side in a b; do
	(for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		"$KBENCH" import --name "$side$i" "$F/ub6-1copy.log" >/dev/null 2>>"$T/imp-$side.err" || echo "$side$i" >>"$T/failed"
	done) &
done
(for i in 1 2 3 4 5 6 7 8; do "$KBENCH" runs >/dev/null 2>>"$T/lister.err" || echo "runs$i" >>"$T/failed"; done) &
wait
[ ! -s "$T/failed" ] || die "failed beside another: $(cat "$T/failed") $(cat "$T"/*.err)"
consistent 24
for side in a b; do
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		grep -q " $side$i " "$T/out" || die "run $side$i lost"
	done
done

# 2. A save killed at each step: before the file is linked nothing is stored; after, the run is.
n=24
for step in save-created save-half save-written save-linked; do
	KBENCH_TEST_KILL_AT=$step "$KBENCH" import --name "k-$step" "$F/ub5-2copies.log" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 137 ] || die "$step: the injected kill did not happen (exit $rc)"
	[ "$step" = save-linked ] && n=$((n + 1))
	consistent $n
	if [ "$step" = save-linked ]; then
		grep -q " k-$step " "$T/out" || die "$step: the linked run is not listed"
	else
		grep -q " k-$step " "$T/out" && die "$step: a half-saved run is listed"
	fi
done

# The temp files of the killed saves are left (a save may be under way); an hour on, litter,
# removed by the next command; a younger one stays.
ls -A "$KBENCH_HOME" | grep -q '^\..*\.json\.' || die "no temp file left by the killed saves"
for f in "$KBENCH_HOME"/.*.json.*; do touch -d '2 hours ago' "$f"; done
touch "$KBENCH_HOME/.young.json.abcdef"
consistent $n
[ "$(ls -A "$KBENCH_HOME" | grep -c '^\..*\.json\.')" = 1 ] || die "stale temp files: $(ls -A "$KBENCH_HOME")"
rm "$KBENCH_HOME/.young.json.abcdef"

# 3. The index killed in its transaction or at its commit: the next command finds it whole.
for step in index-begin index-commit; do
	"$KBENCH" import --name "i-$step" "$F/ub6-1copy.log" >/dev/null 2>&1 || die "import for $step"
	n=$((n + 1))
	KBENCH_TEST_KILL_AT=$step "$KBENCH" runs >/dev/null 2>&1
	rc=$?
	[ "$rc" = 137 ] || die "$step: the injected kill did not happen (exit $rc)"
	consistent $n
	grep -q " i-$step " "$T/out" || die "$step: the run saved before is not listed"
done
exit 0
