#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The results screen's report key in tmux at 80x24: r writes the HTML report of the shown run
# against the compared one into the directory kbench was started in, says so in the status
# line, and the file is a whole, well-formed, script-free page of those two runs; started
# where it cannot write, kbench puts it in the store's reports/ and says so; a store's path too
# long for the line loses its middle ("/tmp/…/store/reports"), never the file's name or its end.
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"
export KBENCH_HOME="$T/a-store-kept-in-a-rather-long-directory-name/one-level-more-of-it/store"

for name in base new; do
	"$KBENCH" run -q --samples 2 --duration 0.2 --pause 0 -c 1 --name $name syscall pipe >"$T/$name.out" 2>&1 ||
		{ cat "$T/$name.out"; die "could not store the run $name"; }
done
new=$(grep -l '"name": *"new"' "$KBENCH_HOME"/*.json) || die "the run 'new' was not stored"
base=$(grep -l '"name": *"base"' "$KBENCH_HOME"/*.json)
new=$(basename "$new" .json) base=$(basename "$base" .json)

# kbench starts in a directory of its own: the report goes there
mkdir "$T/cwd" && cd "$T/cwd" || die "no working directory"
ui_start "$KBENCH" replay new --speed 1000 --compare base
ui_wait 'Results' 30
ui_wait "vs base \\($base\\)" 5
ui_keys r
ui_wait "Report: kbench-$new-vs-$base.html in " 10
f="$T/cwd/kbench-$new-vs-$base.html"
[ -s "$f" ] || die "the status line names $f, which is not there: $(ls -la "$T/cwd")"
ls "$T/cwd" | grep -q '^\.' && die "a temporary file was left beside the report: $(ls -A "$T/cwd")"

python3 - "$f" <<'PY' || die "the report written from the console is not a whole page"
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base", "wbr", "source", "track", "embed"}
SVG_EMPTY = {"rect", "line", "polyline", "path", "circle", "use"}
class Check(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.tags = [], [], {}
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()
text = open(sys.argv[1], encoding="utf-8").read()
p = Check()
p.feed(text)
p.close()
errors = p.errors[:5]
if p.stack:
    errors.append("left open: %s" % p.stack)
if not text.startswith("<!DOCTYPE html>") or not text.rstrip().endswith("</html>"):
    errors.append("not a whole document")
if p.tags.get("script"):
    errors.append("it has a <script>")
if not p.tags.get("svg", 0) >= 3:
    errors.append("only %d <svg>" % p.tags.get("svg", 0))
for want in ("kbench: new", "compared with base", "System Call Overhead", "Pipe Throughput", 'class="cmp"'):
    if want not in text:
        errors.append("no %r" % want)
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY

# the run alone (no comparison): c steps past the last stored run to none
ui_keys c
ui_wait 'This run' 5
ui_keys r
ui_wait "Report: kbench-$new.html in " 10
grep -q 'class="cmp"' "$T/cwd/kbench-$new.html" && die "the report of the run alone has a comparison table"
grep -q 'Per test' "$T/cwd/kbench-$new.html" || die "the report of the run alone has no table"
ui_keys q
ui_exited 10
[ "$UI_RC" = 0 ] || die "the console exited $UI_RC"

# started in a directory that is gone: the report goes to the store's reports/ instead
ui kill-server 2>/dev/null
ui_start sh -c "'mkdir $T/gone && cd $T/gone && rmdir $T/gone && exec $KBENCH replay new --speed 1000 --compare base'"
ui_wait 'Results' 30
ui_keys r
ui_wait "Report: kbench-$new-vs-$base.html in " 10
[ -s "$KBENCH_HOME/reports/kbench-$new-vs-$base.html" ] ||
	die "no report in \$KBENCH_HOME/reports: $(grep Report "$T/screen")"
# the store's path is longer than the line: its middle gives way, the name and the end stay
line=$(grep "Report: kbench-$new-vs-$base.html in " "$T/screen")
echo "$line" | grep -Eq "html in (/tmp|~)/…(/[^/ ]+)*/store/reports\$" ||
	die "the status line does not end in the store's reports/: '$line'"
[ "$(printf %s "$line" | wc -m)" -le 79 ] || die "the status line is cut at the edge: '$line'"
exit 0
