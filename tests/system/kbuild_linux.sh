#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: load (a real kernel build: minutes, and its time is the point)
# kbuild's kernel mode on a real Linux tarball under /usr/src (Debian's
# linux-source-* package): tinyconfig, one timed build at -j CPUs. The run
# names the kernel's version (the tarball's), the config and the compiler,
# counts the objects the warm-up made, and leaves nothing in the scratch
# (the extracted tree, about 1.5 GB, included). Minutes long: it runs only
# with KBENCH_SLOW=1 and a tarball present (apt-get install linux-source-6.1
# flex bison bc libelf-dev), and skips otherwise, saying why.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
[ "${KBENCH_SLOW:-0}" = 1 ] || skip "a real kernel build takes minutes: set KBENCH_SLOW=1 to run it"
tarball=$(ls /usr/src/linux-source-*.tar.xz /usr/src/linux-source-*.tar.bz2 2>/dev/null | sort | tail -n 1)
[ -n "$tarball" ] || skip "no /usr/src/linux-source-*.tar.xz (apt-get install linux-source-6.1)"
for p in make gcc flex bison bc xz; do
	command -v $p >/dev/null || skip "no $p (apt-get install flex bison bc libelf-dev)"
done
mkdir "$T/scratch"
avail=$(df -Pk "$T/scratch" | awk 'NR == 2 { print $4 }')
[ "$avail" -gt 3000000 ] || skip "less than 3 GB free in $T for the extracted tree"

ncpu=$(nproc)
expect_exit 0 "$KBENCH" run kbuild --source "$tarball" --make-jobs "$ncpu" --samples 1 --pause 0 \
	--no-telemetry --tmpdir "$T/scratch" --name linux
cat "$T/out"
ver=$(basename "$tarball" | sed 's/^linux-source-\([0-9.]*\)\.tar.*/\1/')
grep -Eq "^Build time \(make, kernel tree\): Linux $ver\.[0-9]+, tinyconfig, [0-9]+ objects" "$T/out" ||
	die "the title does not name Linux $ver and tinyconfig"
grep -q "from $(basename "$tarball") (" "$T/out" || die "the table does not name the tarball"
grep -Eq "^  -j$ncpu +[0-9.]+ " "$T/out" || die "no -j$ncpu row"
[ -z "$(ls -A "$T/scratch")" ] || die "left in scratch: $(ls -A "$T/scratch")"
expect_exit 0 "$KBENCH" export linux --format json
python3 - "$T/out" <<'EOF' || die "the run's facts"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["blocks"][0]["tests"][0]
s = {k["key"]: k for k in t["summary"]}
assert s["config"]["text"] == "tinyconfig", s
assert s["objects"]["value"] > 100, s["objects"]
assert s["source_bytes"]["value"] > 50e6, s["source_bytes"]
assert "gcc" in s["compiler"]["text"], s["compiler"]
print("objects", s["objects"]["value"], "version", s["kernel_version"]["text"])
EOF
exit 0
