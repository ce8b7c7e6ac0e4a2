#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbuild's kernel mode on a fake Linux tree made here (a Makefile that
# answers mrproper, the config targets, kernelversion, clean and the default
# build, honours O= and logs each call): a path that is missing, not a
# kernel tree, built in place, or an unknown config is one line and exit 2;
# a missing flex is one line and exit 1 before anything runs; a tarball that
# does not extract fails the run (exit 1) and leaves nothing behind. A run
# follows kernbench's protocol in order (mrproper, config, kernelversion, one
# warm-up, then per sample make clean and a timed build per -j), stores a
# point per -j with a value per build and the kernel's version, config,
# compiler, source and its size and the objects; the user's tree is not
# touched; the scratch directory is empty after a normal end and after
# Ctrl-C; a tarball is extracted into the scratch and gone afterwards; a
# comparison of two configs says what each built.
# requires: make cc gcc tar python3
# cost: 18
. "$KBENCH_TOP/tests/system/lib.inc"

# The tools a kernel build needs, as stubs: the fake tree runs none of them,
# and the test needs no kernel build packages. libelf's header likewise.
mkdir -p "$T/bin" "$T/inc" "$T/scratch"
for p in flex bison bc; do printf '#!/bin/sh\nexit 0\n' >"$T/bin/$p"; chmod +x "$T/bin/$p"; done
: >"$T/inc/gelf.h"
mkdir -p "$T/inc/openssl"
: >"$T/inc/openssl/opensslv.h"
PATH="$T/bin:$PATH"
C_INCLUDE_PATH="$T/inc"
KBFAKE_LOG="$T/calls"
export PATH C_INCLUDE_PATH KBFAKE_LOG

# The fake tree: 12 units in kernel/ and drivers/, a host program that make
# clean leaves (scripts/kconfig/conf.o, as the kernel's does).
L="$T/linux"
mkdir -p "$L/arch/x86" "$L/scripts" "$L/kernel" "$L/drivers"
: >"$L/Kconfig"
echo 'int main(void) { return 0; }' >"$L/scripts/conf.c"
for i in 1 2 3 4 5 6; do
	printf 'int k%d(int x) { return x * %d; }\n' $i $i >"$L/kernel/k$i.c"
	printf 'int d%d(int x) { return x + %d; }\n' $i $i >"$L/drivers/d$i.c"
done
cat >"$L/Makefile" <<'EOF'
# A fake Linux tree for kbench's tests: the targets kbuild's kernel mode runs.
srctree := $(CURDIR)
ifeq ($(O),)
$(error this fake tree builds out of tree only: O= missing)
endif
OBJS := $(patsubst $(srctree)/%.c,$(O)/%.o,$(sort $(wildcard $(srctree)/kernel/*.c $(srctree)/drivers/*.c)))
J = $(filter -j%,$(MAKEFLAGS))
log = @echo "$(1) $(J)" >>$(KBFAKE_LOG)

all: $(O)/vmlinux
	$(call log,all)
$(O)/vmlinux: $(OBJS)
	cat $^ >$@
$(O)/%.o: $(srctree)/%.c $(O)/.config
	@mkdir -p $(dir $@)
	@sleep 0.05
	$(CC) -c -o $@ $<
tinyconfig defconfig allnoconfig:
	@mkdir -p $(O)/scripts/kconfig
	$(CC) -c -o $(O)/scripts/kconfig/conf.o $(srctree)/scripts/conf.c
	@echo 'CONFIG_CC_VERSION_TEXT="$(shell $(CC) --version | head -n 1)"' >$(O)/.config
	$(call log,$@)
kernelversion:
	@echo 6.1.99-kbfake
	$(call log,$@)
clean:
	rm -rf $(O)/kernel $(O)/drivers $(O)/vmlinux
	$(call log,$@)
mrproper:
	rm -rf $(O)/kernel $(O)/drivers $(O)/scripts $(O)/vmlinux $(O)/.config
	$(call log,$@)
.PHONY: all clean mrproper kernelversion tinyconfig defconfig allnoconfig
EOF
sums() { (cd "$L" && find . -print | sort && find . -type f -exec md5sum {} + | sort) >"$1"; }
sums "$T/before"

# Bad input: one line, exit 2, naming the option.
printf 'not a kernel\n' >"$T/notes.txt"
mkdir -p "$T/empty"
for bad in "--source $T/nonexistent" "--source $T/empty" "--source $T/notes.txt" \
	"--source $L --config oldconfig" "--config defconfig" "--source $L --tree tiny"; do
	expect_exit 2 "$KBENCH" run kbuild $bad --no-save --tmpdir "$T/scratch"
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "$bad: not one line"; }
done
expect_exit 2 "$KBENCH" run kbuild --source "$T/nonexistent" --no-save
grep -q -- "--source: $T/nonexistent: No such file or directory" "$T/err" || { cat "$T/err"; die "a missing path: $(cat "$T/err")"; }
expect_exit 2 "$KBENCH" run kbuild --source "$T/empty" --no-save
grep -q 'is not a Linux source tree' "$T/err" || die "not a kernel tree: $(cat "$T/err")"
# A tree configured in place is refused: kbench never cleans a user's tree.
cp -r "$L" "$T/built"
: >"$T/built/.config"
expect_exit 2 "$KBENCH" run kbuild --source "$T/built" --no-save
grep -q 'configured or built in place' "$T/err" || die "a built tree: $(cat "$T/err")"

# A missing build tool is refused before anything runs, with its package.
mkdir "$T/noflex"
for p in make gcc cc bison bc tar gzip sh; do
	w=$(command -v $p) && ln -s "$w" "$T/noflex/$p"
done
expect_exit 1 env PATH="$T/noflex" "$KBENCH" run kbuild --source "$L" --no-save --tmpdir "$T/scratch"
[ "$(wc -l <"$T/err")" = 1 ] && grep -q 'needs flex, not found (Debian: flex)' "$T/err" ||
	{ cat "$T/err"; die "no flex: not one line naming it"; }
[ ! -e "$T/calls" ] || die "make ran without flex"

# A tarball that does not extract fails the run, and leaves nothing.
head -c 4096 /dev/urandom >"$T/broken.tar.gz"
expect_exit 1 "$KBENCH" run kbuild --source "$T/broken.tar.gz" --make-jobs 1 --samples 1 --pause 0 \
	--no-telemetry --tmpdir "$T/scratch" --no-save
grep -q 'broken.tar.gz did not extract' "$T/out" "$T/err" || { cat "$T/out" "$T/err"; die "a broken tarball: no reason"; }
[ -z "$(ls -A "$T/scratch")" ] || die "left in scratch after a broken tarball: $(ls -A "$T/scratch")"

# A run on the directory: the protocol, in order.
ncpu=$(nproc)
kb="--make-jobs 1,2 --samples 2 --pause 0 --no-telemetry --tmpdir $T/scratch"
expect_exit 0 "$KBENCH" run kbuild --source "$L" $kb --name k1
cat >"$T/want" <<EOF
mrproper -j1
tinyconfig -j$ncpu
kernelversion -j1
all -j$ncpu
clean -j$ncpu
all -j1
clean -j$ncpu
all -j2
clean -j$ncpu
all -j1
clean -j$ncpu
all -j2
EOF
diff "$T/want" "$T/calls" || die "not kernbench's protocol (above: wanted, got)"
grep -q '^Build time (make, kernel tree): Linux 6.1.99-kbfake, tinyconfig, 13 objects' "$T/out" ||
	{ cat "$T/out"; die "no table naming the kernel"; }
grep -q "from linux (0.0 MiB, a directory)\|from $L" "$T/out" || { cat "$T/out"; die "the table does not name the source"; }
grep -Eq '^  -j1 +[0-9.]+ \([0-9.]+\) ' "$T/out" || { cat "$T/out"; die "no -j1 row"; }
sums "$T/after"
diff "$T/before" "$T/after" >/dev/null || die "the user's tree changed: $(diff "$T/before" "$T/after" | head -5)"
[ -z "$(ls -A "$T/scratch")" ] || die "left in scratch after the run: $(ls -A "$T/scratch")"
expect_exit 0 "$KBENCH" export k1 --format json
python3 - "$T/out" "$L" "$(cc --version | head -n 1)" <<'EOF' || die "the run file's points and facts"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["blocks"][0]["tests"][0]
pts = {p["name"]: p for p in t["points"]}
for j in ("-j1", "-j2"):
    assert len(pts[j]["values"]) == 2 and all(v > 0 for v in pts[j]["values"]), pts[j]
    assert len(pts[j + " user"]["values"]) == 2, pts[j + " user"]
s = {k["key"]: k for k in t["summary"]}
assert s["kernel_version"]["text"] == "6.1.99-kbfake", s
assert s["config"]["text"] == "tinyconfig", s
assert s["compiler"]["text"] == sys.argv[3], s["compiler"] # the tree's config found it
assert sys.argv[2][-40:] in s["source"]["text"] and "a directory" in s["source"]["text"], s["source"]
assert s["source_bytes"]["value"] > 0, s["source_bytes"]
assert s["objects"]["value"] == 13, s["objects"]
assert s["tree"]["text"].startswith("Linux 6.1.99-kbfake, tinyconfig"), s["tree"]
EOF

# A tarball, defconfig: extracted into the scratch, gone afterwards.
rm -f "$T/calls"
tar -czf "$T/linux-fake.tar.gz" -C "$T" linux
expect_exit 0 "$KBENCH" run kbuild --source "$T/linux-fake.tar.gz" --config defconfig --make-jobs 2 \
	--samples 1 --pause 0 --no-telemetry --tmpdir "$T/scratch" --name k2
grep -q '^defconfig ' "$T/calls" || die "defconfig not made: $(cat "$T/calls")"
grep -q '^Build time (make, kernel tree): Linux 6.1.99-kbfake, defconfig, 13 objects' "$T/out" ||
	{ cat "$T/out"; die "the tarball's table"; }
grep -q 'from linux-fake.tar.gz (0.0 MiB)' "$T/out" || { cat "$T/out"; die "the table does not name the tarball"; }
[ -z "$(ls -A "$T/scratch")" ] || die "left in scratch after a tarball's run: $(ls -A "$T/scratch")"
# Another config is another benchmark: the comparison says so.
expect_exit 0 "$KBENCH" compare k1 k2 --width 200
grep -q 'kbuild built Linux 6.1.99-kbfake, tinyconfig, 13 objects -> Linux 6.1.99-kbfake, defconfig, 13 objects' "$T/out" ||
	{ cat "$T/out"; die "compare does not say the builds differ"; }

# Ctrl-C in the middle of a timed build: make and its compilers go, and the
# extracted tree with the scratch.
rm -rf "$KBENCH_HOME"
"$KBENCH" run kbuild --source "$T/linux-fake.tar.gz" --make-jobs 1 --samples 3 --pause 0 --no-telemetry \
	--tmpdir "$T/scratch" --name cut >"$T/out" 2>"$T/err" &
pid=$!
i=0
until grep -q '^clean' "$T/calls" 2>/dev/null && ls "$T"/scratch/kbench-*/kbuild0/out/kernel/*.o >/dev/null 2>&1 ||
	[ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ $i -le 300 ] || die "no timed build began in 30 s"
stop_leaves_nothing $pid
exit 0
