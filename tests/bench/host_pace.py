#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make bench-host-pace's tables, from OUT (tests/bench/host_pace.sh): each test's scores beside
the pace probe's over the same seconds. Within a run, sample by sample: how much a sample moves
and how much of it the probe's pace follows. From run to run, each test's mean: how much it moves,
against what its own samples' spread predicts (sd / sqrt n: more than that is a change of the
machine between runs, which more samples of one run cannot see), and how much of that the pace
follows (r, and the spread left when the pace is taken out: sd * sqrt(1 - r^2)): the probe's, and
kbench's own (the median of the pace telemetry source's readings, stored in each run) beside it."""
import bisect
import glob
import json
import math
import os
import statistics as st
import sys


def corr(x, y):
    if len(x) < 3:
        return float("nan")
    mx, my = st.fmean(x), st.fmean(y)
    sx = math.sqrt(sum((a - mx) ** 2 for a in x))
    sy = math.sqrt(sum((b - my) ** 2 for b in y))
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / (sx * sy) if sx and sy else float("nan")


def own_pace(r):  # log of the run's pace (the median of the pace source's readings); None without
    for s in r.get("series", []):
        if s["name"] == "pace" and len(s["v"]) >= 5:
            return math.log(st.median(s["v"]))
    return None


def left(sd, r):
    return sd * math.sqrt(max(0.0, 1 - r * r)) if r == r else float("nan")


def loo_left(y, x):
    """sd of what is left of y when each run's value is predicted from the others' line on x."""
    res = []
    for i in range(len(y)):
        ys, xs = y[:i] + y[i + 1:], x[:i] + x[i + 1:]
        mx, my = st.fmean(xs), st.fmean(ys)
        sxx = sum((a - mx) ** 2 for a in xs)
        b = sum((a - mx) * (c - my) for a, c in zip(xs, ys)) / sxx if sxx else 0.0
        res.append(y[i] - (my + b * (x[i] - mx)))
    return math.sqrt(st.fmean(r * r for r in res))


def probes(index, kinds):
    """pace_probe --all: how closely each probe's speed over a run's seconds follows its index."""
    print("\nThe probe's kinds (pace_probe --all) against the index, run by run:")
    print("probe   runs  r index   left   left, each run from the others'   the probe's own sd")
    for name, rd in kinds:
        rd.sort()
        ts = [t for t, _ in rd]
        pts = []
        for m, _, _, a, e in index:
            i, j = bisect.bisect_left(ts, a), bisect.bisect_right(ts, e)
            if j > i:
                pts.append((m, -math.log(st.median(v for _, v in rd[i:j]))))
        if len(pts) < 4:
            continue
        y, x = [m for m, _ in pts], [p for _, p in pts]
        r = corr(y, x)
        print(f"{name:7s} {len(pts):4d}  {r:+6.2f}  {left(st.stdev(y), r) * 100:5.1f}%  {loo_left(y, x) * 100:5.1f}%"
              f"                          {st.stdev(x) * 100:5.1f}%")


def main(out):
    pace, kinds = [], {}  # kinds: pace_probe --all's other probes, NAME -> [(epoch, ms)]
    for line in open(os.path.join(out, "pace.txt")):
        f = line.split()
        if len(f) >= 2:
            pace.append((float(f[0]), float(f[1])))
            for kv in f[3:]:
                k, _, v = kv.partition("=")
                kinds.setdefault(k, []).append((float(f[0]), float(v)))
    pace.sort()
    times = [p[0] for p in pace]
    starts = dict((l.split()[0], float(l.split()[1])) for l in open(os.path.join(out, "starts.txt")) if len(l.split()) == 2)

    def speed(a, b):  # log of the probe's median speed over [a, b]; None without a reading
        i, j = bisect.bisect_left(times, a), bisect.bisect_right(times, b)
        return -math.log(st.median(p[1] for p in pace[i:j])) if j > i else None

    tests, order, index = {}, [], []
    runs = [json.load(open(f)) for f in glob.glob(os.path.join(out, "store", "*.json"))]
    runs = sorted((r for r in runs if r["meta"].get("name", "") in starts), key=lambda r: starts[r["meta"]["name"]])
    for r in runs:
        t0 = starts[r["meta"]["name"]]
        for b in r["blocks"]:
            first, last = None, None
            for t in b["tests"]:
                ss = [s for s in t["samples"] if s["elapsed"] and max(s["elapsed"]) > 0]
                if len(ss) < 2:
                    continue
                if t["id"] not in tests:
                    order.append(t["id"])
                rows = []
                for s in ss:
                    a = t0 + s["start"]
                    e = a + max(s["elapsed"])
                    rows.append((math.log(sum(s["count"]) / max(s["elapsed"])), speed(a, e)))
                a = t0 + ss[0]["start"]
                e = t0 + ss[-1]["start"] + max(ss[-1]["elapsed"])
                first = a if first is None else min(first, a)
                last = e if last is None else max(last, e)
                tests.setdefault(t["id"], []).append((rows, speed(a, e), own_pace(r)))
            if b.get("index_score") and first is not None:
                index.append((math.log(b["index_score"]), speed(first, last), own_pace(r), first, last))
    if not index:
        sys.exit("bench-host-pace: no runs in %s" % out)
    print(f"{len(index)} runs; the probe's {len(pace)} readings, {st.median(p[1] for p in pace):.2f} ms each (median)\n")
    print("test                 within a run (samples)          from run to run (each run's mean)")
    print("                     n    sd     r pace   lag-1     sd  expected ratio   r pace  left  r kbench  left")
    for tid in order:
        xs, ys, lag_a, lag_b, means, pred, paces = [], [], [], [], [], [], []
        owns = []
        for rows, sp, own in tests[tid]:
            ls = [x for x, _ in rows]
            m = st.fmean(ls)
            dev = [x - m for x in ls]
            lag_a += dev[:-1]
            lag_b += dev[1:]
            ok = [(x, p) for x, p in rows if p is not None]
            if len(ok) >= 2:
                mp = st.fmean(p for _, p in ok)
                xs += [x - m for x, _ in ok]
                ys += [p - mp for _, p in ok]
            means.append(m)
            pred.append(st.variance(ls) / len(ls))
            paces.append(sp)
            owns.append(own)
        sd_s = st.pstdev(xs) if xs else float("nan")
        line = f"{tid:18s} {sum(len(rows) for rows, _, _ in tests[tid]):4d} {sd_s * 100:5.1f}% {corr(xs, ys):+6.2f} {corr(lag_a, lag_b):+7.2f}"
        if len(means) >= 3:
            sd = st.stdev(means)
            exp = math.sqrt(st.fmean(pred))
            pr = [(m, p) for m, p in zip(means, paces) if p is not None]
            r = corr([m for m, _ in pr], [p for _, p in pr])
            line += f"  {sd * 100:5.1f}% {exp * 100:6.2f}% {sd / exp if exp else float('nan'):5.1f} {r:+7.2f} {left(sd, r) * 100:5.1f}%"
            ko = [(m, o) for m, o in zip(means, owns) if o is not None]
            if len(ko) >= 3:
                rk = corr([m for m, _ in ko], [o for _, o in ko])
                line += f"   {rk:+6.2f} {left(sd, rk) * 100:5.1f}%"
        print(line)
    pr = [(m, p) for m, p, *_ in index if p is not None]
    r = corr([m for m, _ in pr], [p for _, p in pr])
    sd = st.stdev(m for m, *_ in index)
    print(f"\nIndex: {', '.join('%.0f' % math.exp(m) for m, *_ in index)}; run-to-run sd {sd * 100:.1f}%, "
          f"r with the pace {r:+.2f}, {left(sd, r) * 100:.1f}% left with the pace taken out")
    ko = [(m, o) for m, _, o, *_ in index if o is not None]
    if len(ko) >= 3:
        rk = corr([m for m, _ in ko], [o for _, o in ko])
        print(f"kbench's own pace (each run's median, {len(ko)} runs): r {rk:+.2f}, {left(sd, rk) * 100:.1f}% left; "
              f"its own run-to-run sd {st.stdev(o for _, o in ko) * 100:.1f}%")
    if kinds:
        probes(index, [("chain", pace)] + sorted(kinds.items()))
    print("(r pace: correlation of the log score with the log of the probe's speed over the same seconds;"
          " r kbench: with the log of kbench's own pace (the run's median);"
          " lag-1: of a sample's deviation with the next one's; ratio: run-to-run sd / sd expected from the samples)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: host_pace.py OUT")
    main(sys.argv[1])
