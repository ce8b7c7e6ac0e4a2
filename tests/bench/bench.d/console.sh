#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the console costs the workers: dhry2reg and context1, 1 and N copies,
# run headless and in the console (in a tmux pane, as a user would), alternating,
# in one sitting. Ratio = median console / median headless (goal >= 0.99).
KBENCH=$(cd "$(dirname "${1:-./kbench}")" && pwd)/$(basename "${1:-./kbench}")
ROUNDS=${ROUNDS:-3}
command -v tmux >/dev/null || { echo "console cost: skipped, tmux is not installed"; exit 0; }
H=$(mktemp -d /tmp/kbench-bench-console.XXXXXX)
export KBENCH_HOME="$H/store"
SOCK="kbench-bench-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$H"' EXIT
ncpu=$(nproc)
score() { awk '/samples\)$/ { print $(NF-5); exit }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
nruns() { "$KBENCH" runs 2>/dev/null | awk 'NR > 1' | wc -l; }
console_run() { # console_run TEST COPIES: one run in the console, saved, its score on stdout
	before=$(nruns)
	tmux -L "$SOCK" new-session -d -s b -x 80 -y 24 \
		"env KBENCH_HOME='$KBENCH_HOME' LANG=C.UTF-8 '$KBENCH' console --copies $2 --samples 3 --duration 3 --pause 0 --compare none $1; sleep 60"
	n=0
	until tmux -L "$SOCK" capture-pane -p -t b | grep -q 'Setup'; do sleep 0.2; n=$((n + 1)); [ $n -lt 100 ] || break; done
	tmux -L "$SOCK" send-keys -t b r
	n=0
	until tmux -L "$SOCK" capture-pane -p -t b | grep -q 'Results'; do sleep 0.5; n=$((n + 1)); [ $n -lt 240 ] || break; done
	tmux -L "$SOCK" send-keys -t b s
	n=0
	while [ "$(nruns)" = "$before" ]; do sleep 0.2; n=$((n + 1)); [ $n -lt 50 ] || break; done
	tmux -L "$SOCK" kill-server 2>/dev/null
	"$KBENCH" show last | score
}
echo
echo "== Console cost: console vs headless, $ROUNDS alternating runs each (3 x 3 s samples) =="
printf '%-10s %7s %14s %14s %8s\n' TEST COPIES "median console" "median headless" ratio
for t in dhry2reg context1; do
	for c in 1 $ncpu; do
		: >"$H/con"; : >"$H/hl"
		i=0
		while [ $i -lt "$ROUNDS" ]; do
			console_run "$t" "$c" >>"$H/con"
			"$KBENCH" run -q --no-save -c "$c" --samples 3 --duration 3 --pause 0 "$t" 2>/dev/null | score >>"$H/hl"
			i=$((i + 1))
		done
		con=$(median <"$H/con") hl=$(median <"$H/hl")
		printf '%-10s %7d %14.1f %14.1f %8.4f\n' "$t" "$c" "$con" "$hl" \
			"$(awk -v a="$con" -v b="$hl" 'BEGIN { print (b > 0 ? a / b : 0) }')"
	done
done
