# SPDX-License-Identifier: GPL-2.0-or-later
# The options (src/cli/options_table.c) seen from outside: every command takes its options before or
# after its operands, "--" ends them, bad values exit 2 with one line, and --help, the man page,
# the bash completion and the guide's option tables are all what the binary generates.
. "$KBENCH_TOP/tests/system/lib.inc"
F="$KBENCH_TOP/tests/fixtures"

bad() { # bad 'MESSAGE' ARGS...: exit 2, nothing on stdout, exactly the line "kbench: MESSAGE"
	msg=$1; shift
	expect_exit 2 "$KBENCH" "$@"
	[ ! -s "$T/out" ] || die "'$*' printed on stdout: $(head -3 "$T/out")"
	[ "$(cat "$T/err")" = "kbench: $msg" ] || die "'$*' said '$(cat "$T/err")', wanted 'kbench: $msg'"
}

# Two stored runs to work with (imported: no benchmark runs here).
expect_exit 0 "$KBENCH" import --name one "$F/ub6-1copy.log"
expect_exit 0 "$KBENCH" import "$F/ub5-2copies.log" --name two

# Options after operands give what options before them give.
expect_exit 0 "$KBENCH" compare --json one two
cp "$T/out" "$T/before"
expect_exit 0 "$KBENCH" compare one two --json
cmp -s "$T/before" "$T/out" || die "compare A B --json differs from compare --json A B"
expect_exit 0 "$KBENCH" compare one --width=100 two --csv
head -1 "$T/out" | grep -q ',' || die "compare A --width=100 B --csv is not CSV: $(head -2 "$T/out")"
expect_exit 0 "$KBENCH" export --format csv one
cp "$T/out" "$T/before"
expect_exit 0 "$KBENCH" export one -f csv
cmp -s "$T/before" "$T/out" || die "export RUN -f csv differs from export --format csv RUN"
expect_exit 0 "$KBENCH" show one -h
grep -q '^usage: kbench show RUN' "$T/out" || die "show RUN -h is not show's help"

# "--" ends the options: what follows is an operand even when it looks like an option.
bad "unknown test or group '--quick' (try 'kbench list')" run -- --quick
bad "unknown option '--bogus' (try 'kbench run --help')" run dhry2reg --bogus
expect_exit 1 "$KBENCH" show -- --json
grep -q '^kbench: ' "$T/err" || die "show -- --json should look for a run named --json"

# Range errors and missing values: one line, exit 2, before or after operands, in every command.
bad "--duration wants seconds from 0.01 to 86400, not 'abc'" run --duration abc dhry2reg
bad "--test: memlat gives a curve of points, not a rate a thermal check can follow sample by sample (try dhry2reg or whetstone-double)" thermal --test memlat
bad "--test: unknown test 'nope' (try 'kbench list')" thermal --test nope
bad "--duration wants seconds from 0.01 to 86400, not 'abc'" run dhry2reg --duration=abc
bad "--samples wants a number from 1 to 1000, not '0'" calibrate dhry2reg --samples 0
bad "-c wants a list of counts (1 to 256, or 'all'), at most 8, not '0'" calibrate -c0
bad "-c wants a list of counts (1 to 256, or 'all'), at most 8, not '1,x'" run -c 1,x
bad "at most 8 copy counts in all" run -c 1,2,3,4,5 -c 6,7,8,9
bad "-c wants a number of copies from 1 to 256, not '0'" thermal -c 0
bad "--pause wants seconds from 0 to 3600, not '-1'" console --pause -1
bad "--speed wants a factor from 0.1 to 10000, not '0'" replay one --speed 0
bad "--width wants a number from 40 to 1000, not '10'" compare one two --width 10
bad "--confidence wants a level from 0.5 to 0.999, not '2'" compare one two --confidence=2
bad "option '--samples' needs a value" run dhry2reg --samples
bad "option '--quick' takes no value" run --quick=yes
bad "option '--co' is ambiguous (try 'kbench console --help')" console --co 1
bad "--format is json, csv, unixbench, markdown, text, bbcode or lava, not 'xml'" export one --format xml
bad "unknown option '--speed' (try 'kbench console --help')" console --speed 2
bad "--interval 0.01 is too short: at least 0.05 s (or 0 for none)" run --interval 0.01

# --help: each command's usage and each of its options, from the same rows.
expect_exit 0 "$KBENCH" --help
for cmd in $(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$T/out"); do
	expect_exit 0 "$KBENCH" "$cmd" --help
	head -1 "$T/out" | grep -q "^usage: kbench $cmd" || die "$cmd --help: $(head -1 "$T/out")"
	cp "$T/out" "$T/help"
	expect_exit 0 "$KBENCH" help "$cmd"
	cmp -s "$T/help" "$T/out" || die "kbench help $cmd differs from kbench $cmd --help"
	awk 'length($0) > 79 { print; bad = 1 } END { exit bad }' "$T/help" || die "$cmd --help: lines wider than 79 columns"
done
[ -n "${cmd:-}" ] || die "kbench --help lists no commands"
expect_exit 0 "$KBENCH" --help
awk 'length($0) > 79 { print; bad = 1 } END { exit bad }' "$T/out" || die "kbench --help: lines wider than 79 columns"
# the environment a user sets is listed (the man page's whole list minus the tests' own)
sed -n '/^environment:/,/^$/p' "$T/out" >"$T/env"
for v in KBENCH_HOME TMPDIR KBENCH_SYSFS_ROOT NO_COLOR; do
	grep -q "^  $v " "$T/env" || die "kbench --help does not list $v: $(cat "$T/env")"
done
grep -q KBENCH_TEST_KILL_AT "$T/env" && die "kbench --help lists a variable for kbench's own tests"
expect_exit 0 "$KBENCH" run --help
for o in '-c, --copies N' '--duration S' '--pause S' '--max-test-seconds S' '--events LIST' \
	'--interval S' '--no-telemetry' '-q, --quiet' '-h, --help'; do
	grep -q -- "^  $o " "$T/out" || die "run --help lacks '$o'"
done
grep -q '^                   within the precision' "$T/out" || die "run --help lost its continuation lines' indent"
expect_exit 0 "$KBENCH" console --help
grep -q -- '^  -c, --copies LIST ' "$T/out" || die "console --help lacks -c, --copies LIST"
grep -q -- '--speed' "$T/out" && die "console --help offers replay's --speed"

# The man page: roff that groff reads without a warning, with every command and option.
expect_exit 0 "$KBENCH" help --man
cp "$T/out" "$T/kbench.1"
grep -q '^\.TH KBENCH 1 ' "$T/kbench.1" || die "no .TH line in the man page"
for cmd in run calibrate console replay compare completion; do
	grep -q "^\.SS \"kbench $cmd" "$T/kbench.1" || die "the man page lacks kbench $cmd"
done
grep -q '^\.B \\-\\-max\\-test\\-seconds S$' "$T/kbench.1" || die "the man page lacks --max-test-seconds"
if command -v groff >/dev/null; then
	groff -man -Tutf8 -ww -z "$T/kbench.1" 2>"$T/groff.err"
	[ ! -s "$T/groff.err" ] || die "groff warns about the man page: $(head -5 "$T/groff.err")"
	groff -man -Tutf8 "$T/kbench.1" 2>/dev/null | sed 's/.\x08//g' >"$T/man.txt"
	grep -q 'max.*test.*seconds' "$T/man.txt" || die "the rendered man page lacks --max-test-seconds"
fi
if [ -f "$KBENCH_TOP/${BUILD:-build}/kbench.1" ]; then
	cmp -s "$KBENCH_TOP/${BUILD:-build}/kbench.1" "$T/kbench.1" ||
		echo "note: ${BUILD:-build}/kbench.1 is older than the binary (make docs)"
fi

# The bash completion: sourced, it registers a function that offers test ids, options and runs.
expect_exit 0 "$KBENCH" completion bash
cp "$T/out" "$T/kbench.bash"
complete_words() { # complete_words WORD...: what completing the last word offers
	bash -c '. "$1"; shift; complete -p kbench >/dev/null || exit 3
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kbench kbench; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$T/kbench.bash" "$@"
}
ln -sf "$KBENCH" "$T/kbench"
PATH="$T:$PATH"
bash -c ". '$T/kbench.bash' && complete -p kbench" | grep -q -- '-F _kbench kbench' ||
	die "the completion script does not register _kbench for kbench"
complete_words kbench run dhry >"$T/c" || die "completing 'kbench run dhry' failed"
grep -qx dhry2reg "$T/c" || die "'kbench run dhry<TAB>' does not offer dhry2reg: $(cat "$T/c")"
complete_words kbench calibrate ind >"$T/c"
grep -qx index "$T/c" || die "'kbench calibrate ind<TAB>' does not offer the index group"
complete_words kbench run --dur >"$T/c"
grep -qx -- --duration "$T/c" || die "'kbench run --dur<TAB>' does not offer --duration"
complete_words kbench compare --j >"$T/c"
grep -qx -- --json "$T/c" || die "'kbench compare --j<TAB>' does not offer --json"
complete_words kbench compare o >"$T/c"
grep -qx one "$T/c" || die "'kbench compare o<TAB>' does not offer the stored run 'one': $(cat "$T/c")"
complete_words kbench export one --format c >"$T/c"
grep -qx csv "$T/c" || die "'kbench export RUN --format c<TAB>' does not offer csv"
complete_words kbench ru >"$T/c"
grep -qx run "$T/c" && grep -qx runs "$T/c" || die "'kbench ru<TAB>' does not offer run and runs"

# Counter events and sensors hold colons (PMU::EVENT, CHIP:LABEL), where bash
# splits words: the completion reads the typed word from COMP_LINE and hands
# back what follows the last colon; labels with spaces come back escaped.
complete_line() { # complete_line LINE: what bash would put in place of the word after the last colon
	bash -c '. "$1"; L=$2; COMP_LINE=$L COMP_POINT=${#L}
		read -ra COMP_WORDS <<<"$L"; COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_kbench kbench; printf "%s\n" "${COMPREPLY[@]}"' sh "$T/kbench.bash" "$1"
}
if "$KBENCH" completion events | grep -qx 'perf::CYCLES'; then
	complete_line "kbench run --events perf::CYC" >"$T/c"
	grep -qx CYCLES "$T/c" || die "'--events perf::CYC<TAB>' does not offer CYCLES: $(head -3 "$T/c")"
	complete_line "kbench run --events perf::CYCLES,perf::TASK-C" >"$T/c"
	grep -qx TASK-CLOCK "$T/c" || die "'--events A,perf::TASK-C<TAB>' does not offer TASK-CLOCK: $(head -3 "$T/c")"
	complete_line "kbench run -c 1 pipe --events perf::PAGE-F" >"$T/c"
	grep -qx PAGE-FAULTS "$T/c" || die "'run -c 1 pipe --events perf::PAGE-F<TAB>' does not offer PAGE-FAULTS"
else
	echo "note: libpfm4 lists no perf:: events here: event completion not checked"
fi
bash -c '. "$1"; L="kbench run --sensor coretemp-isa-0000:Pa"; COMP_LINE=$L COMP_POINT=${#L}
	_kbench_names "$(printf "coretemp-isa-0000:Package id 0\ncoretemp-isa-0000:Core 0")"
	printf "%s\n" "${COMPREPLY[@]}"' sh "$T/kbench.bash" >"$T/c"
[ "$(cat "$T/c")" = 'Package\ id\ 0' ] ||
	die "'--sensor CHIP:Pa<TAB>' does not complete a label with spaces: $(cat "$T/c")"
expect_exit 0 "$KBENCH" completion sensors

# The man page names every test and group, and every environment variable the code reads.
expect_exit 0 "$KBENCH" help --man
for id in dhry2reg shell8 index; do
	sed -n '/^\.SH TESTS/,/^\.SH ENVIRONMENT/p' "$T/out" | grep -qx "\.B $id" ||
		die "the man page's TESTS section lacks $id"
done
sed -n '/^\.SH ENVIRONMENT/,/^\.SH SEE ALSO/p' "$T/out" >"$T/env"
for v in $(grep -rhoE 'getenv\("[A-Z_]+"\)' "$KBENCH_TOP/src" "$KBENCH_TOP/ui" | sed 's/getenv("//;s/")//' | sort -u); do
	case $v in HOME | PATH | TERM | COLUMNS) continue ;; esac # read as every program reads them
	grep -qx "\.B $v" "$T/env" || die "the code reads \$$v but the man page's ENVIRONMENT does not name it"
done

# The guide's option tables (tests/tools/docs.py checks each page's against the binary): every
# option and the environment; with commands named, only the rows those commands take.
expect_exit 0 "$KBENCH" help --markdown
grep -q '^| `KBENCH_HOME` |' "$T/out" || die "kbench help --markdown has no environment table"
grep -q '^| `--json` | compare |' "$T/out" || die "kbench help --markdown lacks compare's --json"
expect_exit 0 "$KBENCH" help --markdown compare
grep -q '^| `--json` | compare |' "$T/out" || die "kbench help --markdown compare lacks --json"
! grep -q -e '--quick' -e 'KBENCH_HOME' -e 'every command' "$T/out" ||
	die "kbench help --markdown compare lists rows compare does not take: $(cat "$T/out")"
expect_exit 2 "$KBENCH" help --markdown compare no-such-command
grep -q "'no-such-command' is not a command" "$T/err" || die "help --markdown took an unknown command"
# Workload settings past the limit are one line and exit 2, for run and console alike, not cut.
set --
i=0
while [ $i -lt 60 ]; do
	set -- "$@" --loads no_load,cacherun,process_load,ctar_load,xtar_load,io_load,read_load,list_load,mem_load
	i=$((i + 1))
done
for cmd in run console; do
	expect_exit 2 "$KBENCH" $cmd buildload "$@"
	[ "$(wc -l <"$T/err")" = 1 ] && grep -q '^kbench: the workload settings are longer than [0-9]* characters$' "$T/err" ||
		die "$cmd: long settings: $(cat "$T/err")"
done
# Two settings in one run both reach it (the words are joined, not overwritten).
expect_exit 0 "$KBENCH" run memlat --sizes 1k:8k --huge -c 1 --samples 1 --duration 0.1 --pause 0 --no-telemetry --no-save
grep -q 'huge pages asked' "$T/out" || die "--huge beside --sizes did not reach memlat: $(cat "$T/out")"
# -c takes a list as the console does (-c 1,all), or repeats as UnixBench's does: a block each.
expect_exit 0 "$KBENCH" run -q --no-save -c 1,all --samples 1 --duration 0.1 --pause 0 syscall
[ "$(grep -c '^Benchmark Run:' "$T/out")" = 2 ] || { cat "$T/out"; die "-c 1,all: not two blocks"; }
grep -q "running 1 parallel copy of tests" "$T/out" && grep -q "running $(nproc) parallel copies of tests" "$T/out" ||
	{ cat "$T/out"; die "-c 1,all: not 1 and $(nproc) copies"; }
exit 0
