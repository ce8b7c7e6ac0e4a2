#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# How often kbench's verdicts call noise a change on this machine, before and after calibration,
# and whether a real slowdown is still found. Not part of `make test`: it measures the machine.
#
# usage: sh tests/bench/bench-verdicts.sh [PHASE ...]      (no phase: all of them, in this order)
#   aa-quick   2*PAIRS quick index runs, 1 copy, back to back (A/A pairs)     about 7 min a pair
#   aa-short   2*DPAIRS runs of --duration 2 -i 3, 1 copy, back to back       about 6 min a pair
#   calibrate  kbench calibrate --quick, and --duration 2 -i 3 (CALIB runs each)
#   detect     a quick run; one slowed by 10% (a CPU quota of 90% in a cgroup: root); one with a
#              CPU hog pinned to the worker's CPU (taskset)
#   evaluate   every A/A pair compared in a store holding only that pair (a new user's empty
#              store), then in a store with the calibration runs too; and the detection runs
# The runs stay in OUT (default /tmp/kbench-verdicts): OUT/aa-quick, OUT/aa-short,
# OUT/calib-quick, OUT/calib-short, OUT/detect, one store each, so `evaluate` can be run again
# after the defaults change (comparing is cheap). On a shared machine run the measuring phases
# when nothing else runs: the busy check withholds what another load disturbed.
set -u
: "${KBENCH:=./build/kbench}"
: "${OUT:=/tmp/kbench-verdicts}"
: "${PAIRS:=10}"
: "${DPAIRS:=3}"
: "${CALIB:=5}"
KBENCH=$(cd "$(dirname "$KBENCH")" && pwd)/$(basename "$KBENCH")
[ -x "$KBENCH" ] || { echo "bench-verdicts: no kbench at $KBENCH (make first)"; exit 1; }
command -v python3 >/dev/null || { echo "bench-verdicts: python3 is needed to count verdicts"; exit 1; }
mkdir -p "$OUT"
QUICK="run --quick -c 1 -q"
SHORT="run -c 1 --duration 2 -i 3 -q"

log() { echo "bench-verdicts: $*" >&2; }

# runs STORE N ARGS...: N runs back to back into STORE
runs() {
	store=$1 n=$2; shift 2
	i=0
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		log "$(basename "$store") run $i of $n: kbench $*"
		KBENCH_HOME="$store" "$KBENCH" "$@" >/dev/null || log "run failed (exit $?)"
	done
}

# ids STORE: the stored runs, oldest first
ids() {
	KBENCH_HOME="$1" "$KBENCH" runs | awk 'NR > 1 && $1 ~ /^[0-9a-f]+$/ { print $1 }' | tac
}

# The 10% slowdown: the run's processes in a cgroup allowed 90 ms of CPU per 100 ms.
slowed() {
	d=""
	if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		d=/sys/fs/cgroup/cpu/kbench-verdicts-$$
		mkdir "$d" && echo 100000 >"$d/cpu.cfs_period_us" && echo 90000 >"$d/cpu.cfs_quota_us" || d=""
	elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		d=/sys/fs/cgroup/kbench-verdicts-$$
		echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
		mkdir "$d" && echo "90000 100000" >"$d/cpu.max" || d=""
	fi
	if [ -z "$d" ]; then
		log "no writable cgroup CPU controller (needs root): the 10% slowdown is skipped"
		return 1
	fi
	log "detect: slowed run (CPU quota 90%): kbench $*"
	KBENCH_HOME="$OUT/detect" sh -c "echo \$\$ >'$d/cgroup.procs' && exec '$KBENCH' \"\$@\"" sh "$@" >/dev/null
	rc=$?
	rmdir "$d" 2>/dev/null
	return $rc
}

hogged() {
	command -v taskset >/dev/null || { log "no taskset: the hog run is skipped"; return 1; }
	taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
	log "detect: run beside a CPU hog on its CPU: kbench $*"
	KBENCH_HOME="$OUT/detect" taskset -c 0 "$KBENCH" "$@" >/dev/null
	rc=$?
	kill "$hog"
	wait "$hog" 2>/dev/null
	return $rc
}

# verdicts FILE: "flagged rows index_flagged na" of a compare --json, the 12 tests apart from the index
count() {
	python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rows = flagged = na = ix = ixrows = 0
which = []
for b in d["blocks"]:
    for t in b["tests"]:
        if t["a"] is None or t["b"] is None:
            continue
        rows += 1
        if t["verdict"] in ("faster", "slower"):
            flagged += 1
            which.append("%s %s %+.1f%%" % (t["id"], t["verdict"], t["change_pct"]))
        elif t["verdict"] == "n/a":
            na += 1
    i = b["index"]
    if i["a"] is not None and i["b"] is not None:
        ixrows += 1
        ix += i["verdict"] in ("faster", "slower")
print(flagged, rows, ix, ixrows, na, "; ".join(which) or "-")
EOF
}

# pair_store DIR FILE...: a fresh store holding just these run files
pair_store() {
	ps_dir=$1; shift
	rm -rf "$ps_dir"
	mkdir -p "$ps_dir"
	cp "$@" "$ps_dir/"
}

evaluate_set() { # evaluate_set NAME AASTORE CALIBSTORE
	name=$1 aa=$2 cal=$3
	set -- $(ids "$aa")
	[ $# -ge 2 ] || { log "$name: fewer than 2 runs in $aa"; return; }
	tf=0 tr=0 tix=0 tixr=0 cf=0 cr=0 cix=0 cixr=0 p=0
	printf '\n%s: A/A pairs, rows called faster or slower (12 tests; index apart)\n' "$name"
	printf '%-5s %-19s %-26s %s\n' pair runs "empty store" "after calibrate"
	while [ $# -ge 2 ]; do
		p=$((p + 1))
		a=$1 b=$2; shift 2
		pair_store "$OUT/tmp-store" "$aa/$a.json" "$aa/$b.json"
		KBENCH_HOME="$OUT/tmp-store" "$KBENCH" compare --json "$a" "$b" >"$OUT/tmp.json" 2>/dev/null
		e=$(count "$OUT/tmp.json")
		ef=$(echo "$e" | cut -d' ' -f1) er=$(echo "$e" | cut -d' ' -f2)
		eix=$(echo "$e" | cut -d' ' -f3) eixr=$(echo "$e" | cut -d' ' -f4)
		tf=$((tf + ef)) tr=$((tr + er)) tix=$((tix + eix)) tixr=$((tixr + eixr))
		c="-"
		if [ -d "$cal" ] && ls "$cal"/*.json >/dev/null 2>&1; then
			pair_store "$OUT/tmp-store" "$aa/$a.json" "$aa/$b.json" "$cal"/*.json
			KBENCH_HOME="$OUT/tmp-store" "$KBENCH" compare --json "$a" "$b" >"$OUT/tmp.json" 2>/dev/null
			c=$(count "$OUT/tmp.json")
			cf=$((cf + $(echo "$c" | cut -d' ' -f1))) cr=$((cr + $(echo "$c" | cut -d' ' -f2)))
			cix=$((cix + $(echo "$c" | cut -d' ' -f3))) cixr=$((cixr + $(echo "$c" | cut -d' ' -f4)))
		fi
		printf '%-5s %-19s %-26s %s\n' "$p" "$a $b" "$ef/$er ix $eix/$eixr na $(echo "$e" | cut -d' ' -f5)" \
			"$(echo "$c" | awk '{ if (NF > 1) printf "%s/%s ix %s/%s na %s", $1, $2, $3, $4, $5; else print "-" }')"
		[ "$ef" != 0 ] && printf '      empty store: %s\n' "$(echo "$e" | cut -d' ' -f6-)"
		[ "$c" != "-" ] && [ "$(echo "$c" | cut -d' ' -f1)" != 0 ] && printf '      calibrated: %s\n' "$(echo "$c" | cut -d' ' -f6-)"
	done
	printf '%s total: empty store %d/%d rows flagged (%s%%), index %d/%d' "$name" "$tf" "$tr" \
		"$(awk -v f="$tf" -v r="$tr" 'BEGIN { printf "%.1f", r ? 100 * f / r : 0 }')" "$tix" "$tixr"
	if [ "$cr" -gt 0 ]; then
		printf '; after calibrate %d/%d (%s%%), index %d/%d' "$cf" "$cr" \
			"$(awk -v f="$cf" -v r="$cr" 'BEGIN { printf "%.1f", r ? 100 * f / r : 0 }')" "$cix" "$cixr"
	fi
	printf '\n'
}

evaluate_detect() {
	d="$OUT/detect"
	[ -d "$d" ] || { log "no detection runs in $d"; return; }
	plain=$(KBENCH_HOME="$d" "$KBENCH" runs | awk '$2 == "plain" { print $1; exit }')
	[ -n "$plain" ] || { log "no plain detection run"; return; }
	for what in slowed hogged; do
		other=$(KBENCH_HOME="$d" "$KBENCH" runs | awk -v w="$what" '$2 == w { print $1; exit }')
		[ -n "$other" ] || continue
		for setting in empty calibrated; do
			files="$d/$plain.json $d/$other.json"
			[ $setting = calibrated ] && files="$files $(ls "$OUT"/calib-quick/*.json 2>/dev/null | tr '\n' ' ')"
			pair_store "$OUT/tmp-store" $files
			printf '\ndetection: plain vs %s, %s store\n' "$what" "$setting"
			KBENCH_HOME="$OUT/tmp-store" "$KBENCH" compare --width 80 "$plain" "$other" |
				sed -n '/^1 copy/,/^[0-9]* faster/p'
		done
	done
}

phase() {
	case $1 in
	aa-quick) runs "$OUT/aa-quick" $((2 * PAIRS)) $QUICK index ;;
	aa-short) runs "$OUT/aa-short" $((2 * DPAIRS)) $SHORT index ;;
	calibrate)
		KBENCH_HOME="$OUT/calib-quick" "$KBENCH" calibrate --quick -n "$CALIB" 2>/dev/null | tee "$OUT/calibrate-quick.txt"
		KBENCH_HOME="$OUT/calib-short" "$KBENCH" calibrate --duration 2 -i 3 -n "$CALIB" 2>/dev/null | tee "$OUT/calibrate-short.txt"
		;;
	detect)
		log "detect: plain run: kbench $QUICK"
		KBENCH_HOME="$OUT/detect" "$KBENCH" $QUICK --name plain index >/dev/null
		slowed $QUICK --name slowed index
		hogged $QUICK --name hogged index
		;;
	evaluate)
		evaluate_set "quick" "$OUT/aa-quick" "$OUT/calib-quick"
		evaluate_set "--duration 2 -i 3" "$OUT/aa-short" "$OUT/calib-short"
		evaluate_detect
		rm -rf "$OUT/tmp-store" "$OUT/tmp.json"
		;;
	*) echo "bench-verdicts: unknown phase '$1' (aa-quick aa-short calibrate detect evaluate)"; exit 2 ;;
	esac
}

[ $# -gt 0 ] || set -- aa-quick aa-short calibrate detect evaluate
for ph in "$@"; do
	phase "$ph"
done
