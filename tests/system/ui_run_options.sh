#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console takes the run options `kbench run` takes (a demo can start with `kbench console
# --quick`): --quick and --precision show on the setup screen and reach the run (stored as a
# quick run with the precision asked), --name names the stored run, --tmpdir is where the file
# tests write, --no-telemetry samples nothing; a bad value is one line and exit 2, as for run.
# requires: tmux python3
# cost: 13
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# Each run option the console now takes, with a bad value: kbench run's error, exit 2.
for o in "--precision 0" "-i 0" "--interval -1" "--max-test-seconds 0"; do
	expect_exit 2 "$KBENCH" console $o
	grep -q "^kbench: " "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] || die "console $o: $(cat "$T/err")"
done

mkdir "$T/scratch"
ui_start "$KBENCH" console --quick --precision 5 --max-test-seconds 3 --copies 1 --name demo \
	--tmpdir "$T/scratch" --no-telemetry fstime
ui_wait 'Samples +◀ until \+-5% ▶' 5
ui_keys r
ui_wait 'Results' 60
ui_keys s
ui_wait 'Saved as' 10
ui_keys q
ui_exited 10
[ "$UI_RC" = 0 ] || die "the console exited $UI_RC"
"$KBENCH" runs >"$T/runs" 2>&1 || die "kbench runs failed: $(cat "$T/runs")"
grep -q '^[0-9a-f]\{8\}  demo .* (quick)$' "$T/runs" || die "the console's run is not stored as 'demo', quick: $(cat "$T/runs")"
"$KBENCH" export demo --format json >"$T/run.json" 2>&1 || die "export failed: $(cat "$T/run.json")"
python3 - "$T/run.json" "$T/scratch" <<'PY' || die "the stored run does not carry the options (above)"
import json, sys
r = json.load(open(sys.argv[1]))
m = r["meta"]
bad = []
if m["scratch_dir"] != sys.argv[2]:
    bad.append("scratch_dir %r, not %r" % (m["scratch_dir"], sys.argv[2]))
if r.get("series"):
    bad.append("telemetry series with --no-telemetry: %s" % [s["name"] for s in r["series"]])
asked = [k.get("value") for b in r["blocks"] for t in b["tests"] for k in t.get("summary", [])
         if k.get("key") == "quick_precision_asked"]
if asked != [0.05]:
    bad.append("quick_precision_asked %r, not [0.05]" % asked)
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
echo ok
