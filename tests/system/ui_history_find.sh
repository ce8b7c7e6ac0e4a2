# SPDX-License-Identifier: GPL-2.0-or-later
# The history screen with a long store: it opens at once (the index, not the run files), pages
# with PgDn/End, finds a run with / (by name, kernel or id) and n, and opens the one found; a
# run marked a few hundred rows away (out of the page read around the screen) is the base.
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"
python3 "$KBENCH_TOP/tests/tools/mkstore.py" "$KBENCH_HOME" 300 "$KBENCH_TOP/tests/fixtures/run-1.1.json"
ui_start "$KBENCH" console
ui_wait 'Setup'
ui_keys H
ui_wait 's0000000 cfg0000'
ui_keys NPage NPage
ui_wait '^ *s00000(3[0-9]|4[0-9]) '
grep -q 's0000000' "$T/screen" && die "PgDn did not page: $(cat "$T/screen")"
ui_keys End
ui_wait 's0000299 cfg0059'
ui_keys /
ui_wait 'Find:'
ui_keys cfg0042 Enter
ui_wait "'cfg0042': run 211 of 300"
ui_keys n
ui_wait "'cfg0042': run 212 of 300"
ui_keys /
ui_wait 'Find:'
# the prompt offers the last search: clear it first
for i in 1 2 3 4 5 6 7; do ui_keys BSpace; done
ui_keys nosuchrun Enter
ui_wait "No stored run's id, name, kernel, host or tests hold 'nosuchrun'"
ui_keys Enter
ui_wait 'Results'
ui_keys H
ui_wait 's0000211 cfg0042'
ui_keys Home Space End
ui_wait 's0000299 cfg0059'
ui_keys Enter
ui_wait 'vs cfg0000 \(s0000000\)'
exit 0
