# SPDX-License-Identifier: GPL-2.0-or-later
# kbench runs with filters, --limit and --size; kbench delete by filter, with its confirmation.
. "$KBENCH_TOP/tests/system/lib.inc"
F="$KBENCH_TOP/tests/fixtures"
expect_exit 0 "$KBENCH" import --name alpha "$F/ub6-1copy.log"
expect_exit 0 "$KBENCH" import --name beta "$F/ub5-2copies.log"
expect_exit 0 "$KBENCH" import --name gamma "$F/table.md"
expect_exit 0 "$KBENCH" runs
[ "$(grep -c '(imported)' "$T/out")" = 3 ] || die "runs: $(cat "$T/out")"
expect_exit 0 "$KBENCH" runs --name 'b*'
[ "$(grep -c '(imported)' "$T/out")" = 1 ] && grep -q ' beta ' "$T/out" || die "--name: $(cat "$T/out")"
k=$(awk '$2 == "beta" { print $5 }' "$T/out")
expect_exit 0 "$KBENCH" runs --kernel "$k"
grep -q ' beta ' "$T/out" || die "--kernel $k: $(cat "$T/out")"
expect_exit 0 "$KBENCH" runs --limit 1
[ "$(grep -c '(imported)' "$T/out")" = 1 ] || die "--limit 1: $(cat "$T/out")"
expect_exit 0 "$KBENCH" runs --mode full
grep -q 'no stored run matches' "$T/out" || die "--mode full matched imports: $(cat "$T/out")"
expect_exit 0 "$KBENCH" runs --mode imported --until 1990-01-01
grep -q 'no stored run matches' "$T/out" || die "--until 1990: $(cat "$T/out")"
expect_exit 0 "$KBENCH" runs --tests nosuchtest
grep -q 'no stored run matches' "$T/out" || die "--tests nosuchtest: $(cat "$T/out")"
expect_exit 0 "$KBENCH" runs --tests dhry2reg
[ "$(grep -c '(imported)' "$T/out")" -ge 2 ] || die "--tests dhry2reg: $(cat "$T/out")"
expect_exit 2 "$KBENCH" runs --since yesterday
[ "$(wc -l <"$T/err")" = 1 ] && grep -q -- '--since wants a date' "$T/err" || die "bad date: $(cat "$T/err")"
expect_exit 2 "$KBENCH" runs --limit 0
# a misspelt mode is an error naming the modes, not an empty list that looks like no runs
expect_exit 2 "$KBENCH" runs --mode quik
[ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "--mode is full, quick, .* or imported, not 'quik'" "$T/err" ||
	die "a misspelt --mode: $(cat "$T/out" "$T/err")"
expect_exit 2 "$KBENCH" delete --mode importd --yes
[ "$(ls "$KBENCH_HOME"/*.json | wc -l)" = 3 ] || die "a delete with a misspelt mode removed runs"
expect_exit 0 "$KBENCH" runs --size
grep -q '3 runs, .* MB of run files, index' "$T/out" && grep -q 'imported .* 3 runs' "$T/out" || die "--size: $(cat "$T/out")"

# delete by filter: refused without a terminal or --yes, nothing lost; with --yes only the selected go
expect_exit 1 "$KBENCH" delete --name 'a*' </dev/null
grep -q 'add --yes' "$T/err" || die "no confirmation asked: $(cat "$T/err")"
[ "$(ls "$KBENCH_HOME"/*.json | wc -l)" = 3 ] || die "a refused delete removed runs"
expect_exit 2 "$KBENCH" delete last --name alpha
expect_exit 0 "$KBENCH" delete --name 'a*' --yes
grep -q 'deleted 1 run' "$T/out" || die "delete --yes: $(cat "$T/out")"
expect_exit 0 "$KBENCH" runs
grep -q ' alpha ' "$T/out" && die "alpha still listed"
[ "$(grep -c '(imported)' "$T/out")" = 2 ] || die "after delete: $(cat "$T/out")"
# a terminal answering no keeps them, yes deletes them
if command -v script >/dev/null; then
	echo n | script -qec "$KBENCH delete --name beta" /dev/null >"$T/out" 2>&1
	"$KBENCH" runs | grep -q ' beta ' || die "answering n deleted beta: $(cat "$T/out")"
	echo y | script -qec "$KBENCH delete --name beta" /dev/null >"$T/out" 2>&1
	"$KBENCH" runs | grep -q ' beta ' && die "answering y kept beta: $(cat "$T/out")"
fi
exit 0
