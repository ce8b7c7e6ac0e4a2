# SPDX-License-Identifier: GPL-2.0-or-later
# The console at 80x24 on each machine layout of tests/fixtures/machines/ (see its README): the
# run screen's Machine pane shows that machine's workers' clock against its nominal (or its boost
# ceiling, labelled), temperature, power and throttle fields, or their reasons, each in its own
# column, as an unprivileged user (and as root on one laptop, where RAPL is root-only). The
# console is pinned to CPU 0, so the worker's CPU (the real /proc/PID/stat, the layout's /proc
# files over it) is the layout's cpu0. Expected: each layout's expect.console (sparklines and the
# growing joule count masked). KBENCH_MACHINES_UPDATE=1 writes them instead (review before committing).
# requires: unshare setpriv tmux python3 taskset
# cost: 48
. "$KBENCH_TOP/tests/system/lib.inc"
# The whole test runs in the namespace, so the tmux server and the consoles see the fake /sys/class.
if [ -z "${KBENCH_IN_NS:-}" ]; then
	rm -rf "$T"
	KBENCH_IN_NS=1 exec unshare -m sh "$0"
fi
. "$KBENCH_TOP/tests/system/ui_lib.inc"
. "$KBENCH_TOP/tests/system/machines.inc"
chmod 755 "$T"
mkdir -p "$T/m"
mount -t tmpfs kbench-ui-machines /sys/class || die "cannot mount a tmpfs over /sys/class"
load() {
	find /sys/class -mindepth 1 -maxdepth 1 -exec rm -rf {} +
	for c in $(ls "$1/sys/class" 2>/dev/null); do
		mkdir -p "/sys/class/$c"
		for e in $(ls "$1/sys/class/$c"); do cp -a "$1/sys/class/$c/$e" "/sys/class/$c/"; done
	done
}
pane() { # the Machine pane's clock, temperature, power and throttle lines, sparklines and the joules so far masked
	sed -n '/── Machine /,/ throttle /p' "$T/screen" | sed '1d' |
		sed -e 's/[▁▂▃▄▅▆▇█]//g' -e 's/ ([0-9]* J) */ (N J) /' -e 's/ *$//'
}
fails=0
# The workers are this kernel's tasks: the layout's /proc is the real one with the layout's files
# bound over it, so /proc/PID/stat says which CPU a worker is on.
proc_over() { # layout-dir
	mv "$1/proc" "$1/proc.layout"
	mkdir "$1/proc"
	mount --bind /proc "$1/proc" || die "cannot bind /proc"
	(cd "$1/proc.layout" && find . -type f) | while read -r f; do
		mount --bind "$1/proc.layout/$f" "$1/proc/$f" || die "cannot bind $f over /proc"
	done
}
# a test that dies half-way leaves no /proc bound inside $T for lib.inc's rm -rf to walk
trap 'for p in "$T"/m/*/proc; do umount -R -l "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
proc_off() { # layout-dir
	(cd "$1/proc.layout" && find . -type f) | while read -r f; do umount "$1/proc/$f"; done
	umount "$1/proc"
	rmdir "$1/proc" && mv "$1/proc.layout" "$1/proc"
}
check() { # machine user|root
	M=$T/m/$1
	load "$M"
	proc_over "$M"
	as=; [ "$2" = user ] && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	mkdir -p "$T/h.$1.$2" && chmod 777 "$T/h.$1.$2"
	KBENCH_HOME=$T/h.$1.$2
	ui_start taskset -c 0 $as env KBENCH_HOME="$KBENCH_HOME" KBENCH_SYSFS_ROOT="$M" "$KBENCH" console --samples 2 \
		--duration 2 --pause 0 --copies 1 syscall
	ui_wait 'Setup'
	ui_keys r
	ui_wait ' throttle ' 20
	sleep 1.2 # a sample or two of telemetry
	ui_wait '^ freq [0-9]+ MHz workers' 20 # a tick while the worker runs (into $T/screen)
	pane >"$T/pane.$1.$2"
	[ "$(wc -l <"$T/pane.$1.$2")" = 3 ] || { cat "$T/screen"; die "$1: no clock, temperature and power lines in the Machine pane"; }
	! grep -Eq '^.{81}' "$T/screen" || die "$1: a line wider than 80"
	# the throttle field starts half-way, whatever the power field holds
	grep -Eq '^ power .{33}throttle ' "$T/screen" || { cat "$T/screen"; die "$1: the throttle field is not at column 41"; }
	want=$CORPUS/$1/expect.console
	[ "$2" = root ] && want=$CORPUS/$1/expect.console.root
	if [ "${KBENCH_MACHINES_UPDATE:-}" = 1 ]; then
		cp "$T/pane.$1.$2" "$want"
	elif ! diff -u "$want" "$T/pane.$1.$2"; then
		echo "FAIL: $1 as $2: the Machine pane differs"; fails=$((fails + 1))
	fi
	ui_keys F10; ui_wait 'quit\?' 5; ui_keys y; ui_exited 20
	ui kill-session -t "$UI_PANE"
	ui_reap
	proc_off "$M"
}
for F in "$CORPUS"/*/; do
	name=$(basename "$F")
	machine_copy "$F" "$T/m/$name"
	check "$name" user
done
check intel-laptop-hwp root
[ $fails = 0 ] || die "$fails Machine panes differ"
exit 0
