#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# compare's suggested calibrate command carries the settings the runs' tests
# ran with (--period-us, --fifo, --messages, --workers, --work-us, --sizes,
# --huge: the run file's meta.params), so run as printed it calibrates for
# them: its runs store the same params and the same tests' settings, and a
# comparison of those runs then no longer asks to calibrate.
# requires: python3
# cost: 13
. "$KBENCH_TOP/tests/system/lib.inc"

S="--duration 0.3 --samples 2 --pause 0 -c 1 --no-telemetry"
K="--period-us 500 --fifo off --messages 2 --workers 1 --work-us 5 --sizes 512:16K:1 --huge"
expect_exit 0 "$KBENCH" run $S $K --name a timerlat wakelat memlat
expect_exit 0 "$KBENCH" run $S $K --name b timerlat wakelat memlat
expect_exit 0 "$KBENCH" export a --format json
python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["meta"]["params"])' "$T/out" >"$T/params" ||
	die "the run file has no meta.params"
echo "a: $(cat "$T/params")"

expect_exit 0 "$KBENCH" compare a b --json
python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["calibrate"])' "$T/out" >"$T/cmd"
cmd=$(cat "$T/cmd")
echo "suggested: $cmd"
for o in "--period-us 500" "--fifo off" "--messages 2" "--workers 1" "--work-us 5" "--sizes 512:16K:1" "--huge"; do
	case " $cmd " in *" $o "*) ;; *) die "the suggestion lacks $o: $cmd" ;; esac
done
case "$cmd" in "kbench calibrate "*" timerlat wakelat memlat") ;; *) die "not a calibrate of the run's tests: $cmd" ;; esac
expect_exit 0 "$KBENCH" compare a b
tr '\n' ' ' <"$T/out" | grep -q -- "--period-us 500 --fifo off" || die "the text footer's suggestion lacks the settings"

# Run as printed (two runs, not five, and no pause before the samples, to stay
# short): the runs have a's settings.
eval "expect_exit 0 \"\$KBENCH\" calibrate -n 2 --pause 0 ${cmd#kbench calibrate}"
busy=$(grep -c 'other processes used the CPUs' "$T/out")
"$KBENCH" runs >"$T/runs"
[ "$(grep -c ' calibration ' "$T/runs")" = 2 ] || die "not 2 calibration runs: $(cat "$T/runs")"
for id in $(awk '$2 == "calibration" { print $1 }' "$T/runs"); do
	expect_exit 0 "$KBENCH" export "$id" --format json
	cp "$T/out" "$T/$id.json"
	expect_exit 0 "$KBENCH" export a --format json
	python3 - "$T/$id.json" "$T/out" <<'PY' || die "calibration run $id has other settings than a"
import json, sys
c, a = (json.load(open(f)) for f in sys.argv[1:])
assert c["meta"]["params"] == a["meta"]["params"], (c["meta"]["params"], a["meta"]["params"])
def settings(r):
    return {t["id"]: {k["key"]: k.get("text") for k in t["summary"] if k["key"] in ("settings", "pages")}
            for b in r["blocks"] for t in b["tests"]}
assert settings(c) == settings(a), (settings(c), settings(a))
PY
done
# a comparison of two such runs rests on the calibration's floors, unless the machine was
# too busy during a calibration run for it to teach anything
expect_exit 0 "$KBENCH" compare a b
if [ "$busy" = 0 ]; then
	grep -q 'kbench calibrate' "$T/out" && { cat "$T/out"; die "calibrated as suggested, compare still asks to calibrate"; }
else
	echo "busy machine: $busy calibration run(s) left out of the learning for a test; the floors not checked"
fi
echo ok
