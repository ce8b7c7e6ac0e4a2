# SPDX-License-Identifier: GPL-2.0-or-later
# Each sample's worker gets a layout of its own, as UnixBench's new process per pass does, and
# the run says how per test: stack and heap offsets drawn anew in a fork, or a new process (exec).
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
expect_exit 0 "$KBENCH" run -c 1 --samples 2 --duration 0.2 --pause 0 --interval 0 --name lay dhry2reg execl
expect_exit 0 "$KBENCH" show lay
grep -q '^note: layout: as a new process.s would, each sample.s stack and heap offsets were drawn anew (dhry2reg); in a new process each sample (execl)$' "$T/out" ||
	{ cat "$T/out"; die "the run does not say which tests drew their layout anew, and how"; }
"$KBENCH" export lay --format json >"$T/lay.json" || die "export"
python3 - "$T/lay.json" <<'PY' || die "the tests' layout summaries"
import json, sys
r = json.load(open(sys.argv[1]))
lay = {t["id"]: s.get("text") for b in r["blocks"] for t in b["tests"] for s in t["summary"] if s["key"] == "layout"}
assert lay == {"dhry2reg": "new stack and heap offsets each sample", "execl": "a new process each sample (exec)"}, lay
PY
echo "each sample's layout drawn anew, and said"
