#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Makes a synthetic run store for make bench: N run files from real ones, each with its own id,
kernel, date, mode and test set, in runs of five same-settings runs (the way a calibration
stores them), so that lists, picking and noise learning have a long history to work on.

usage: mkstore.py DEST N RUNFILE...
"""
import copy
import json
import os
import random
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip())
    dest, n, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    runs = [json.load(open(p)) for p in sources]
    os.makedirs(dest, exist_ok=True)
    rnd = random.Random(27)
    base = 1780000000  # a date in 2026: the newest run
    for i in range(n):
        src = runs[i % len(runs)]
        r = copy.deepcopy(src)
        setting = i // 5  # five runs per kernel and setting, as a calibration makes
        m = r["meta"]
        m["id"] = "s%07d" % i
        m["name"] = "cfg%04d" % setting
        m["kernel_release"] = "6.%d.%d-%d-amd64" % (1 + setting % 12, setting % 40, setting % 7)
        m["date"] = base - i * 3600
        m.pop("date_utc", None)
        m["mode"] = "quick" if setting % 10 == 9 else m.get("mode", "full")
        # some settings ran only part of the tests
        if setting % 4 == 3:
            for b in r["blocks"]:
                b["tests"] = b["tests"][: max(1, len(b["tests"]) // 2)]
        for b in r["blocks"]:
            f = 1 + rnd.gauss(0, 0.01)
            for t in b["tests"]:
                if isinstance(t.get("score"), (int, float)):
                    t["score"] = t["score"] * f * (1 + rnd.gauss(0, 0.005))
            if isinstance(b.get("index_score"), (int, float)):
                b["index_score"] = b["index_score"] * f
        with open(os.path.join(dest, m["id"] + ".json"), "w") as out:
            json.dump(r, out)
            out.write("\n")


if __name__ == "__main__":
    main()
