#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `kbench replay` plays a stored run on the run screen, labelled REPLAY, then shows its results;
# plus the console's edges: bad themes, NO_COLOR, no terminal, bad arguments.
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

"$KBENCH" run -q --samples 2 --duration 1 --pause 0 -c 1 --name demo dhry2reg context1 \
	>"$T/run.out" 2>&1 || { cat "$T/run.out"; die "could not prepare a stored run"; }
ls "$KBENCH_HOME"/*.json >/dev/null 2>&1 || die "kbench run --name demo stored no run in $KBENCH_HOME"

# without a terminal, or with bad arguments: one clear line and the right exit code
expect_exit 2 "$KBENCH" console </dev/null
grep -q 'kbench: the console needs a terminal' "$T/err" || die "no message without a terminal"
expect_exit 0 "$KBENCH" </dev/null
grep -q 'usage: kbench' "$T/out" || die "kbench alone off a terminal should print its help"
expect_exit 2 "$KBENCH" replay
expect_exit 1 "$KBENCH" replay no-such-run
grep -q '^kbench: ' "$T/err" || die "no 'kbench:' line for an unknown run"
expect_exit 2 "$KBENCH" replay demo --speed 0
expect_exit 2 "$KBENCH" console --copies 0
expect_exit 2 "$KBENCH" console no-such-test

# the replay: 4 s of samples at 2x
ui_start "$KBENCH" replay demo --speed 2
ui_wait 'REPLAY 2x' 5
ui_wait '│ Run' 5
ui_wait '#1 +[0-9.]+' 10
ui_wait 'Results' 15
grep -q 'REPLAY' "$T/screen" || die "the results of a replay are not labelled"
grep -q 'Index, 1 copy' "$T/screen" || die "no index on the replayed results"
ui_keys q
ui_exited 10
[ "$UI_RC" = 0 ] || die "replay exited $UI_RC"
ui kill-session -t "$UI_PANE"

# a broken user theme: the message names the file and line, and the default is used
mkdir -p "$T/config/kbench/themes"
printf 'faster = green\nslower = purple\n' >"$T/config/kbench/themes/broken.theme"
ui_start XDG_CONFIG_HOME="$T/config" "$KBENCH" --theme broken
ui_wait 'broken.theme:2:' 5
grep -q 'using the default theme' "$T/screen" || die "no fallback message"
ui_keys '?'
ui_wait 'theme default' 5
ui_keys q F10
ui_exited 5
ui kill-session -t "$UI_PANE"

# NO_COLOR draws every theme in its monochrome form
ui_start NO_COLOR=1 "$KBENCH" console
ui_wait 'Setup' 5
ui_keys '?'
ui_wait 'theme mono' 5
grep -q 'NO_COLOR' "$T/screen" || die "help does not say why it is mono"
ui_keys q q
ui_exited 5
echo ok
