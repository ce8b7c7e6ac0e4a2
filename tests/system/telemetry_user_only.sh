#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An unprivileged user at perf_event_paranoid 2 (most distributions' default) counts user
# space only. A short run as 'nobody' stores no 0 for what the kernel alone does: the
# context switches come from getrusage and say so, migrations are n/a with the reason, GHz
# gives no throttle evidence, and the run records the counters' mode among its meters.
# requires: python3 setpriv root
. "$KBENCH_TOP/tests/system/lib.inc"
p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo -1)
[ "$p" -ge 2 ] || skip "perf_event_paranoid is $p here: an unprivileged user counts the kernel too"
# Debian's kernels add a level 3: no counter at all without CAP_PERFMON (the preflight says so)
[ "$p" = 2 ] || skip "perf_event_paranoid is $p here: an unprivileged user counts nothing"

chmod 755 "$T"
mkdir -p "$T/nobody"
chmod 777 "$T/nobody"
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T/nobody" KBENCH_HOME="$T/nobody" \
		XDG_DATA_HOME="$T/nobody" TMPDIR="$T/nobody" "$@"
}
as_nobody "$KBENCH" run --samples 2 --duration 0.5 --pause 0 -c 1 \
	--events task-clock,context-switches,cpu-migrations,page-faults context1 >"$T/out" 2>"$T/err" ||
	{ cat "$T/out" "$T/err"; die "the run as nobody failed"; }
grep -q 'perf_event_paranoid is [0-9]*: counters count user space only' "$T/out" "$T/err" ||
	die "the preflight does not say counting is user-only: $(cat "$T/out" "$T/err")"
f=$(ls "$T/nobody"/*.json 2>/dev/null | head -n 1)
[ -n "$f" ] || die "no run stored: $(ls -la "$T/nobody")"
python3 - "$f" <<'PY' || die "the stored run is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert "counters: user-only (perf_event_paranoid" in r["meta"].get("meters", ""), r["meta"].get("meters")
t = r["blocks"][0]["tests"][0]
s = {k["key"]: k for k in t["summary"]}
cs = s["counter.context-switches"]
assert "value" in cs and cs["value"] > 100, cs          # context1 switches tens of thousands of times
assert "getrusage" in s["counter.context-switches.from"]["text"]
mig = s["counter.cpu-migrations"]
assert "value" not in mig and "user-only" in mig["text"], mig
assert "counters.mode" in s and "user-only" in s["counters.mode"]["text"]
assert "workers" not in s["throttle.evidence"]["text"]
print("context switches", cs["value"], "from getrusage; migrations:", mig["text"])
PY
exit 0
