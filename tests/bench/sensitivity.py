#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make bench-sensitivity's tables, from the runs tests/bench/sensitivity.sh made (OUT/runs.tsv,
OUT/store): per test and for the index, each shape's run-to-run spread against its minutes, the
A/A false alarms, the smallest slowdown found 9 times in 10 for a budget of minutes per kernel,
and each shape's time and scores against the full-length runs'. Verdicts are kbench compare's
own, on copies of the runs (a slowdown is each of side B's sample counts times 1 - x)."""
import argparse
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

SHIFTS = [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40]  # percent
# two-sided 95% and one-sided 90% t quantiles by degrees of freedom (normal beyond 30)
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042]
T90 = [3.078, 1.886, 1.638, 1.533, 1.476, 1.440, 1.415, 1.397, 1.383, 1.372, 1.363, 1.356, 1.350,
       1.345, 1.341, 1.337, 1.333, 1.330, 1.328, 1.325, 1.323, 1.321, 1.319, 1.318, 1.316, 1.315,
       1.314, 1.313, 1.311, 1.310]


def tq(table, dof, normal):
    dof = int(dof)
    return table[dof - 1] if 1 <= dof <= len(table) else normal


def sd(xs):
    if len(xs) < 2:
        return float("nan")
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def load(out, copies):
    """The runs of runs.tsv: id, shape, session, minutes, load, and per test its log score."""
    runs = []
    with open(os.path.join(out, "runs.tsv")) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(head, line.rstrip("\n").split("\t")))
            path = os.path.join(out, "store", row["id"] + ".json")
            if not os.path.exists(path):
                continue
            r = json.load(open(path))
            block = next((b for b in r["blocks"] if b["copies"] == copies), None)
            if not block:
                continue
            logs = {t["id"]: math.log(t["score"]) for t in block["tests"]
                    if t.get("status") == "done" and t.get("score", 0) > 0}
            if block.get("index_score", 0) > 0:
                logs["index"] = math.log(block["index_score"])
                within = index_within(block)
            else:
                within = float("nan")
            runs.append({"id": row["id"], "shape": row["shape"], "session": row["session"],
                         "round": row["round"], "minutes": float(row["seconds"]) / 60, "load": (float(row["load_before"]),
                                                                          float(row["load_after"])),
                         "logs": logs, "path": path, "pace": run_pace(r), "within": within})
    return runs


def index_within(block):
    """The sd of the log index that the run's own samples predict: each index test's log rates'
    variance over its samples' count, summed, over the tests' count (the index is their
    geometric mean). NAN when a test has under two samples."""
    v, k = 0.0, 0
    for t in block["tests"]:
        if t.get("status") != "done":
            continue
        ls = [math.log(sum(x["count"]) / max(x["elapsed"])) for x in t["samples"]
              if x.get("elapsed") and max(x["elapsed"]) > 0 and sum(x["count"]) > 0]
        if len(ls) < 2:
            return float("nan")
        m = sum(ls) / len(ls)
        v += sum((x - m) ** 2 for x in ls) / (len(ls) - 1) / len(ls)
        k += 1
    return math.sqrt(v) / k if k else float("nan")


def run_pace(r):
    """The run's pace as kbench's run_pace() takes it: the median of its pace series, from 5
    readings on (src/record/run.c), or None."""
    vs = [v for ser in r.get("series", []) if ser.get("name") == "pace" for v in ser.get("v", [])
          if v == v and v > 0]
    return statistics.median(vs) if len(vs) >= 5 else None


def same_pace_spread(runs, test):
    """sd of the log score after the log pace's slope over the runs is taken out (the plan's
    analysis of covariance for one kernel: residuals on n - 2 degrees of freedom), the slope,
    and how many runs; NaNs when fewer than 4 runs carry both."""
    pts = [(math.log(r["pace"]), r["logs"][test]) for r in runs if r.get("pace") and test in r["logs"]]
    n = len(pts)
    if n < 4:
        return float("nan"), float("nan"), n
    mx, my = mean([p[0] for p in pts]), mean([p[1] for p in pts])
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx <= 0:
        return float("nan"), float("nan"), n
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx
    res = sum((y - my - b * (x - mx)) ** 2 for x, y in pts)
    return math.sqrt(res / (n - 2)), b, n


def back_to_back(runs, test):
    """Runs of one shape grouped by their round (rounds holding two or more): the pooled sd within
    a round, the sd of all the runs, the intraclass correlation, and how many rounds; zeros when
    no round holds two."""
    rounds = {}
    for r in runs:
        if test in r["logs"]:
            rounds.setdefault((r["session"], r["round"]), []).append(r["logs"][test])
    groups = [g for g in rounds.values() if len(g) >= 2]
    if len(groups) < 2:
        return 0.0, 0.0, 0.0, 0
    n = sum(len(g) for g in groups)
    ssw = sum(sum((x - mean(g)) ** 2 for x in g) for g in groups)
    msw = ssw / (n - len(groups))
    grand = mean([x for g in groups for x in g])
    msb = sum(len(g) * (mean(g) - grand) ** 2 for g in groups) / (len(groups) - 1)
    m0 = (n - sum(len(g) ** 2 for g in groups) / n) / (len(groups) - 1)
    icc = (msb - msw) / (msb + (m0 - 1) * msw) if msb + (m0 - 1) * msw > 0 else float("nan")
    return math.sqrt(msw), sd([x for g in groups for x in g]), icc, len(groups)


def by_shape(runs):
    shapes = {}
    for r in runs:
        shapes.setdefault(r["shape"], []).append(r)
    return shapes


def test_ids(runs):
    ids = []
    for r in runs:
        for k in r["logs"]:
            if k != "index" and k not in ids:
                ids.append(k)
    return ids + ["index"]


def spread(runs, test):
    """sd of the log score over the runs (a relative sd), and how many runs."""
    xs = [r["logs"][test] for r in runs if test in r["logs"]]
    return sd(xs), len(xs)


def ratio_ci(s1, n1, s2, n2):
    """s1/s2 and its 95% interval, from ln(sd)'s standard error 1/sqrt(2(n-1)) (normal approx.)."""
    if not (n1 > 1 and n2 > 1 and s1 > 0 and s2 > 0):
        return float("nan"), float("nan"), float("nan")
    se = math.sqrt(1 / (2 * (n1 - 1)) + 1 / (2 * (n2 - 1)))
    r = s1 / s2
    return r, r * math.exp(-1.96 * se), r * math.exp(1.96 * se)


def pct(x):
    return "%.1f" % (x * 100) if x == x else "n/a"


# ---- verdicts by kbench compare, on copies of the runs ----

class Compare:
    """kbench compare --json of side A's runs against side B's, B slowed by x, in a store of
    the other runs of the shape (what a calibration before it would have taught the floors),
    or on the default floors."""

    def __init__(self, kbench, work):
        self.kbench = kbench
        self.work = work
        self.cache = {}
        os.makedirs(work, exist_ok=True)

    def copy(self, run, x):
        """The run file with every count times 1 - x (x 0: as it is), its own id; the others'
        CPU use left out: a shared machine's load is the noise measured here, not a reason to
        withhold a verdict (the tables say so)."""
        key = (run["id"], x)
        if key in self.cache:
            return self.cache[key]
        r = json.load(open(run["path"]))
        f = 1 - x / 100
        rid = hashlib.sha1(("%s %g" % key).encode()).hexdigest()[:8]
        r["meta"]["id"] = rid
        for b in r["blocks"]:
            for t in b["tests"]:
                for s in t.get("samples", []):
                    s["count"] = [c * f for c in s["count"]]
                for k in ("score", "index"):
                    if isinstance(t.get(k), (int, float)):
                        t[k] *= f
                t["summary"] = [kv for kv in t.get("summary", []) if not kv["key"].startswith("others.")]
            if isinstance(b.get("index_score"), (int, float)):
                b["index_score"] *= f
        path = os.path.join(self.work, "files", rid + ".json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        json.dump(r, open(path, "w"))
        self.cache[key] = (rid, path)
        return rid, path

    def verdicts(self, a, b, x, pool, learned):
        """Row id -> verdict of A against B slowed by x; the floors learned from pool's other runs."""
        store = tempfile.mkdtemp(dir=self.work)
        try:
            ids = []
            for side, runs, shift in (("a", a, 0), ("b", b, x)):
                got = []
                for run in runs:
                    rid, path = self.copy(run, shift)
                    os.link(path, os.path.join(store, rid + ".json"))
                    got.append(rid)
                ids.append(",".join(got))
            if learned:
                used = {r["id"] for r in a + b}
                for run in pool:
                    if run["id"] not in used:
                        rid, path = self.copy(run, 0)
                        if not os.path.exists(os.path.join(store, rid + ".json")):
                            os.link(path, os.path.join(store, rid + ".json"))
            cmd = [self.kbench, "compare", "--json"] + ([] if learned else ["--default-noise"]) + ids
            env = dict(os.environ, KBENCH_HOME=store, XDG_DATA_HOME=store)
            p = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit("bench-sensitivity: %s failed: %s" % (" ".join(cmd), p.stderr.strip()))
            c = json.loads(p.stdout)
            blk = c["blocks"][0]
            out = {row["id"]: row["verdict"] for row in blk["tests"]}
            if blk.get("index"):
                out["index"] = blk["index"]["verdict"]
            return out
        finally:
            shutil.rmtree(store, ignore_errors=True)


def false_alarms(cmp, pool, learned):
    """Disjoint pairs of runs in the order they ran, one against the other: rows called faster
    or slower, of the rows decided."""
    rows = called = ix_rows = ix_called = 0
    ordered = pool  # runs.tsv's order: the order they ran
    for i in range(0, len(ordered) - 1, 2):
        v = cmp.verdicts([ordered[i]], [ordered[i + 1]], 0, pool, learned)
        for k, verdict in v.items():
            if verdict == "n/a":
                continue
            called_now = verdict in ("faster", "slower")
            if k == "index":
                ix_rows += 1
                ix_called += called_now
            else:
                rows += 1
                called += called_now
    return rows, called, ix_rows, ix_called


def detection(cmp, pool, k, resamples, rng, learned, tests):
    """Per row, the smallest slowdown (percent) called slower in 9 of 10 resamples of k runs a
    side; None beyond the largest shift tried."""
    found = {t: None for t in tests}
    for x in SHIFTS:
        hits = {t: 0 for t in tests}
        for _ in range(resamples):
            draw = rng.sample(pool, 2 * k)
            v = cmp.verdicts(draw[:k], draw[k:], x, pool, learned)
            for t in tests:
                hits[t] += v.get(t) == "slower"
        for t in tests:
            if found[t] is None and hits[t] >= 0.9 * resamples:
                found[t] = x
        if all(found[t] is not None for t in tests):
            break
    return found


def t_approx(s, k):
    """The slowdown Welch's test on k runs a side finds 9 times in 10 at 95%, from the runs' sd."""
    dof = max(1, 2 * k - 2)
    d = (tq(T975, dof, 1.960) + tq(T90, dof, 1.282)) * s * math.sqrt(2 / k)
    return (1 - math.exp(-d)) * 100


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kbench", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--budgets", default="10 20 30")
    ap.add_argument("--resamples", type=int, default=40)
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--spread-only", action="store_true",
                    help="the spreads alone: no verdicts (kbench compare), for a look while runs go on")
    o = ap.parse_args()
    runs = load(o.out, o.copies)
    if not runs:
        sys.exit("bench-sensitivity: no runs in %s (run the measure phase first)" % o.out)
    shapes = by_shape(runs)
    tests = test_ids(runs)
    first = ("base-quick", "quick-precision", "quick")
    names = [s for s in first if s in shapes] + \
        sorted(s for s in shapes if s not in first + ("full", "base-full")) + \
        [s for s in ("full", "base-full") if s in shapes]
    print("bench-sensitivity: %d runs in %s, sessions %s, 1 copy" % (
        len(runs), o.out, ", ".join(sorted({r["session"] for r in runs}))))
    print("\nRuns per shape (wall minutes; the 1-minute load average before and after each run):")
    for s in names:
        rs = shapes[s]
        loads = [x for r in rs for x in r["load"]]
        print("  %-16s %3d runs  %5.2f min each (%.2f-%.2f)  load %.1f-%.1f" % (
            s, len(rs), mean([r["minutes"] for r in rs]), min(r["minutes"] for r in rs),
            max(r["minutes"] for r in rs), min(loads), max(loads)))

    # 1. spread per root-minute
    print("\nRun-to-run spread: sd of the log score over the A/A runs, %; per root-minute: that x sqrt(minutes a run)")
    head = "  %-18s" % "test"
    for s in names:
        head += " %14s" % (s[:14])
    print(head)
    print("  %-18s" % "" + "".join(" %14s" % "sd  sd*sqrt(m)" for _ in names))
    per_min = {}
    for t in tests:
        line = "  %-18s" % t
        for s in names:
            v, n = spread(shapes[s], t)
            m = mean([r["minutes"] for r in shapes[s]])
            per_min[(s, t)] = (v * math.sqrt(m), n)
            line += " %6s %7s" % (pct(v), pct(v * math.sqrt(m)))
        print(line)
    for old in ("base-quick", "quick-precision"):
        if old not in shapes:
            continue
        new = [s for s in names if s.startswith("quick") and s != "quick-precision"]
        print("\nSpread per root-minute against %s's, with a 95%% interval (the sd's log-normal approximation):" % old)
        print("  %-18s" % "test" + "".join(" %20s" % s for s in new))
        for t in tests:
            line = "  %-18s" % t
            for s in new:
                (a, na), (b, nb) = per_min[(s, t)], per_min[(old, t)]
                r, lo, hi = ratio_ci(a, na, b, nb)
                line += " %20s" % ("%.2f (%.2f-%.2f)" % (r, lo, hi) if r == r else "n/a")
            print(line)

    # 1b. the same at the same pace of the machine: what the plan's second answer sees
    if any(r.get("pace") for r in runs):
        print("\nAt the same pace of the machine: the index's run-to-run sd with each shape's slope on its runs' "
              "pace taken out (as kbench plan report's 'at the same pace' line does), and per root-minute")
        old = next((o for o in ("base-quick", "quick-precision") if o in shapes), None)
        for s in names:
            v, b, n = same_pace_spread(shapes[s], "index")
            m = mean([r["minutes"] for r in shapes[s]])
            plain, _ = spread(shapes[s], "index")
            line = "  %-16s %2d runs with a pace  sd %s%%, per root-minute %s (plain %s), slope %s" % (
                s, n, pct(v), pct(v * math.sqrt(m)), pct(plain * math.sqrt(m)),
                "%.1f" % b if b == b else "n/a")
            if old and s != old:
                bp, nb = spread(shapes[old], "index")
                bm = mean([r["minutes"] for r in shapes[old]])
                r_, lo, hi = ratio_ci(v * math.sqrt(m), n - 1, bp * math.sqrt(bm), nb)
                if r_ == r_:
                    line += "; against %s's plain %.2f (%.2f-%.2f)" % (old, r_, lo, hi)
            print(line)

    # 1c. where the index's spread comes from: its runs' own samples, or between runs
    print("\nThe index's spread within a run (what its samples predict, the runs' median) and between runs "
          "(the rest: sqrt(sd^2 - within^2)); no allocation of a run's samples narrows the part between runs, "
          "so the least spread per root-minute a shape of that length could reach is that part's")
    old = next((o for o in ("base-quick", "quick-precision") if o in shapes), None)
    for s in names:
        plain, n = spread(shapes[s], "index")
        ws = [r["within"] for r in shapes[s] if r["within"] == r["within"]]
        if n < 2 or not ws or plain != plain:
            continue
        w = sorted(ws)[len(ws) // 2]
        between = math.sqrt(max(0.0, plain * plain - w * w))
        m = mean([r["minutes"] for r in shapes[s]])
        line = "  %-16s sd %s%%  within %s%%  between %s%% (%.0f%% of the variance)  per root-minute %s, at best %s" % (
            s, pct(plain), pct(w), pct(between), 100 * between * between / (plain * plain), pct(plain * math.sqrt(m)),
            pct(between * math.sqrt(m)))
        if old and s != old:
            bp, _ = spread(shapes[old], "index")
            bm = mean([r["minutes"] for r in shapes[old]])
            line += "; against %s's plain: %.2f, at best %.2f" % (old, plain * math.sqrt(m) / (bp * math.sqrt(bm)),
                                                                 between * math.sqrt(m) / (bp * math.sqrt(bm)))
        print(line)

    # 1d. runs made back to back: is the next run's noise its own?
    backs = [s for s in names if back_to_back(shapes[s], "index")[3] > 0]
    if backs:
        print("\nRuns back to back (a shape run more than once a round): the sd within a round (pooled), "
              "the sd of all the runs, and the share of the variance the runs of one round share "
              "(intraclass correlation, one-way analysis of variance; 0: the next run's noise is its own)")
        for s in backs:
            print("  %s:" % s)
            for t in tests:
                w, a, icc, k = back_to_back(shapes[s], t)
                if k:
                    print("    %-18s within %5s%%  all %5s%%  shared %5.2f  (%d rounds)" % (t, pct(w), pct(a), icc, k))

    if o.spread_only:
        return

    # 2. against the full-length runs: time, index and every test
    if "full" in shapes and len(shapes["full"]) >= 1:
        full = shapes["full"]
        fm = mean([r["minutes"] for r in full])
        print("\nAgainst the full-length runs (%d of them, %.1f min each): time, and each score's ratio with "
              "its 95%% interval (Welch on the logs); * where the interval excludes 1" % (len(full), fm))
        for s in names:
            if s == "full":
                continue
            rs = shapes[s]
            print("  %s: %.3f of the time" % (s, mean([r["minutes"] for r in rs]) / fm))
            moved = []
            for t in tests:
                a = [r["logs"][t] for r in rs if t in r["logs"]]
                b = [r["logs"][t] for r in full if t in r["logs"]]
                if not a or not b:
                    continue
                d = mean(a) - mean(b)
                va = sd(a) ** 2 / len(a) if len(a) > 1 else 0
                vb = sd(b) ** 2 / len(b) if len(b) > 1 else 0
                se = math.sqrt(va + vb)
                den = (va * va / (len(a) - 1) if len(a) > 1 else 0) + (vb * vb / (len(b) - 1) if len(b) > 1 else 0)
                dof = (va + vb) ** 2 / den if den > 0 else 1
                q = tq(T975, dof, 1.960)
                out = se > 0 and abs(d) > q * se
                if out and t != "index":
                    moved.append(t)
                print("    %-18s %.3f (%.3f-%.3f)%s" % (t, math.exp(d), math.exp(d - q * se), math.exp(d + q * se),
                                                       " *" if out else ""))
            print("    tests whose mean moved by more than its interval: %s" % (", ".join(moved) or "none"))

    cmp = Compare(o.kbench, os.path.join(o.out, "analysis"))
    rng = random.Random(o.seed)
    # 3. A/A false alarms
    print("\nA/A false alarms: disjoint pairs in the order they ran, one run a side, kbench compare's verdicts "
          "(others' CPU use left out of the copies: this machine's other load is part of the noise here)")
    for s in names:
        for learned in (False, True):
            if learned and len(shapes[s]) < 4:
                continue
            rows, called, ixr, ixc = false_alarms(cmp, shapes[s], learned)
            print("  %-16s %-26s %3d of %3d rows (%.1f%%), index %d of %d" % (
                s, "floors learned from the rest" if learned else "default floors", called, rows,
                100 * called / rows if rows else 0, ixc, ixr))

    # 4. the smallest slowdown found 9 times in 10 per budget of minutes per kernel
    budgets = [float(b) for b in o.budgets.split()]
    print("\nThe smallest slowdown found 9 times in 10 (percent), k runs a side in the minutes per kernel; "
          "resampled from the A/A runs with side B's counts times 1 - x (%d draws per step); "
          "t: Welch's t from the runs' sd where the runs are too few to draw k a side twice" % o.resamples)
    for s in names:
        rs = shapes[s]
        m = mean([r["minutes"] for r in rs])
        for budget in budgets:
            k = int(budget // m)
            if k < 1 or len(rs) < 2:
                print("  %s, %g min per kernel: %s" % (s, budget, "a run takes %.1f min, more than that" % m
                                                        if k < 1 else "fewer than two runs: no spread"))
                continue
            print("  %s, %g min per kernel: %d run%s a side" % (s, budget, k, "" if k == 1 else "s"))
            if 2 * k <= len(rs):
                found = detection(cmp, rs, k, o.resamples, rng, k == 1 and len(rs) >= 4, tests)
                for t in tests:
                    f = found[t]
                    print("    %-18s %s" % (t, ">%g" % SHIFTS[-1] if f is None else "%g" % f))
            else:
                for t in tests:
                    v, n = spread(rs, t)
                    print("    %-18s %.1f t" % (t, t_approx(v, k)) if v == v else "    %-18s n/a" % t)


if __name__ == "__main__":
    main()
