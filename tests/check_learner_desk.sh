#!/bin/sh
# check_learner_desk.sh - the learner's make targets say what they should and
# nothing more (run from the workbook's top; make check-learner-desk):
#   make lab NN=1 is make lab NN=01; a failing report is followed by no
#   `make[1]: *** ... Error` line; a failing check names the command that
#   runs it alone; the report is short (the first failing check in full,
#   the others a line each, the contract's after the attention's), ALL=1
#   (or V=1) gives every failing check in full; CHECK= runs one check,
#   FIRST=1 stops at the first failure, LAB_ARGS=--help lists the options
#   and the checks (EN, ES);
#   a lab that does not exist gets the usage;
#   make lab-try runs the lab's try.c with the learner's file: a function
#   still marked LAB_TODO() is named as not started (in Spanish too), a
#   written one prints its status and matrices (the heads set apart by |).
# It works in a copy of the workbook's committed files (tests/desk.sh), so
# that the learner's files and builds of the workbook it runs from are left alone.
NAME="learner desk"
. tests/desk.sh
# mk - make as a learner runs it, from a shell: not a sub-make of the make
# running this test (whose error lines would then be make[1]'s)
mk() { env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES make "$@"; }

# a lab 01 file with one function written wrong, the rest still LAB_TODO()
sed '/^mm_status attention_param_count/,/^}/c\
mm_status attention_param_count(long *count, int d_model, int n_heads)\
{\
    (void)n_heads;\
    *count = 3L * d_model * d_model;\
    return MM_OK;\
}' labs/lab01-qkv/qkv.c > "$dir/qkv.c"
has "$dir/qkv.c" '3L * d_model' || fail "the test could not write its wrong qkv.c"

for nn in 1 01; do
  mk -s lab NN=$nn LAB01_FILES="$dir/qkv.c" LAB_SEED=7 > "$dir/lab$nn.out" 2> "$dir/lab$nn.err"
  st=$?
  [ $st -ne 0 ] && has "$dir/lab$nn.out" 'attention_param_count' && has "$dir/lab$nn.out" 'FAIL' \
    && ok "make lab NN=$nn: the failing report, and a failing status ($st)" \
    || fail "make lab NN=$nn: expected a failing report and status; status $st, output: $(head -c 300 "$dir/lab$nn.out")"
  grep -q '^make\[[0-9]*\]: \*\*\*' "$dir/lab$nn.err" \
    && fail "make lab NN=$nn: the sub-make's error line follows the report: $(cat "$dir/lab$nn.err")" \
    || ok "make lab NN=$nn: no make[1] error line under the report"
done
grep -v '^  CC' "$dir/lab1.out" > "$dir/lab1.report"
grep -v '^  CC' "$dir/lab01.out" > "$dir/lab01.report"
cmp -s "$dir/lab1.report" "$dir/lab01.report" && ok "make lab NN=1 prints what make lab NN=01 prints" \
  || fail "make lab NN=1 and NN=01 differ: $(diff "$dir/lab1.report" "$dir/lab01.report" | head -5)"

has "$dir/lab01.out" 'this check alone: make lab NN=01 CHECK=attention_param_count/c1_mini_gpt' \
  && ok "a failing check's block ends with the command that runs it alone" \
  || fail "no 'this check alone: make lab NN=01 CHECK=attention_param_count/c1_mini_gpt' line in the report"

# the report is short: the first failing check in full, the others a line
# each (the contract's under their heading, after the attention's); ALL=1
# and V=1 give every failing check in full
grep -v '^  CC' "$dir/lab01.out" > "$dir/short.out"
grep -q '^  FAIL  attention_param_count/c2_small: ' "$dir/short.out" \
  && [ "$(grep -c 'this check alone:' "$dir/short.out")" -eq 1 ] \
  && has "$dir/short.out" 'every case of every check, make lab NN=01 ALL=1.' \
  && [ "$(wc -l < "$dir/short.out")" -le 40 ] \
  && awk '/^  FAIL  attention_param_count\/c5_random/ { a = NR } /^The contract/ { h = NR }
          /^  FAIL  attention_param_count\/e1_not_divisible/ { e = NR }
          END { exit !(a && a < h && h < e) }' "$dir/short.out" \
  && ok "make lab: a short report, the first failing check in full, the contract's after" \
  || fail "make lab: not the short report: $(cat "$dir/short.out")"
for all in ALL=1 V=1; do
  mk -s lab NN=01 LAB01_FILES="$dir/qkv.c" LAB_SEED=7 $all > "$dir/all.out" 2>&1
  [ "$(grep -c 'this check alone:' "$dir/all.out")" -eq 9 ] && ! has "$dir/all.out" 'ALL=1.' \
    && ok "make lab $all: each of the 9 failing checks in full" \
    || fail "make lab $all: not every failing check in full: $(head -c 600 "$dir/all.out")"
done

# CHECK= runs one check (by the start of its name), FIRST=1 stops at the first failure
mk -s lab NN=01 LAB01_FILES="$dir/qkv.c" CHECK=attention_param_count/c1 > "$dir/check.out" 2>&1
grep -q '^attention_param_count  *0  *0  *1$' "$dir/check.out" && grep -q '^total  *0  *0  *1$' "$dir/check.out" \
  && ok "make lab CHECK=attention_param_count/c1: that one check ran" \
  || fail "make lab CHECK=attention_param_count/c1: not exactly one check ran: $(tail -12 "$dir/check.out")"
mk -s lab NN=01 LAB01_FILES="$dir/qkv.c" FIRST=1 > "$dir/first.out" 2>&1
has "$dir/first.out" 'Stopped at the first failing check, attention_param_count/c1_mini_gpt (FIRST=1)' \
  && grep -q '^total  *36  *0  *1$' "$dir/first.out" \
  && ok "make lab FIRST=1: stopped at the first failing check" \
  || fail "make lab FIRST=1: $(tail -8 "$dir/first.out")"
mk -s lab NN=01 LAB_ARGS=--help > "$dir/help.out" 2>&1
st=$?
[ $st -eq 0 ] && has "$dir/help.out" 'CHECK=FUNCTION/NAME' && has "$dir/help.out" '--first' \
  && has "$dir/help.out" 'ALL=1                every failing check in full' \
  && has "$dir/help.out" 'qkv_split/ c1_worked_example' && has "$dir/help.out" 'e2_bad_sizes' \
  && ok "make lab LAB_ARGS=--help: the options and every check's name" \
  || fail "make lab LAB_ARGS=--help: status $st, $(head -20 "$dir/help.out")"
mk -s lab NN=01 LAB_ARGS=--help LAB_LANG=es > "$dir/help-es.out" 2>&1
has "$dir/help-es.out" 'Las opciones del juez' && ok "--help in Spanish" \
  || fail "make lab LAB_ARGS=--help LAB_LANG=es: $(head -5 "$dir/help-es.out")"

mk -s lab NN=7 > "$dir/lab7.out" 2>&1
st=$?
[ $st -eq 2 ] && has "$dir/lab7.out" 'usage: make lab NN=XX, XX one of: 00 01 02 03 04 05' \
  && ok "make lab NN=7: the usage, status 2" || fail "make lab NN=7: status $st, $(cat "$dir/lab7.out")"

# make lab-try: the shipped skeleton, then a lab 02 file with softmax_row written
mk -s lab-try NN=2 > "$dir/try-skel.out" 2>&1
st=$?
[ $st -eq 0 ] && has "$dir/try-skel.out" 'softmax_row: not started (delete its LAB_TODO(); line to try it)' \
  && ok "make lab-try NN=2 on the skeleton: softmax_row named as not started" \
  || fail "make lab-try NN=2 on the skeleton: status $st, $(cat "$dir/try-skel.out")"
mk -s lab-try NN=2 LAB_LANG=es > "$dir/try-es.out" 2>&1
has "$dir/try-es.out" 'softmax_row: sin empezar' && ok "make lab-try in Spanish" \
  || fail "make lab-try NN=2 LAB_LANG=es: $(cat "$dir/try-es.out")"
sed '/^mm_status softmax_row/,/^}/c\
mm_status softmax_row(double *s, int n)\
{\
    double max = s[0], sum = 0;\
    for (int j = 1; j < n; j++) if (s[j] > max) max = s[j];\
    for (int j = 0; j < n; j++) { s[j] = exp(s[j] - max); sum += s[j]; }\
    for (int j = 0; j < n; j++) s[j] /= sum;\
    return MM_OK;\
}' labs/lab02-sdpa/sdpa.c > "$dir/sdpa.c"
cp labs/lab02-sdpa/try.c "$dir/try.c"
mk -s lab-try NN=02 LAB02_FILES="$dir/sdpa.c" > "$dir/try.out" 2>&1
st=$?
[ $st -eq 0 ] && has "$dir/try.out" '-> MM_OK' && has "$dir/try.out" '0.0900306   0.244728   0.665241' \
  && has "$dir/try.out" 'sdpa: not started' \
  && ok "make lab-try NN=02: your softmax_row's status and row, then sdpa not started" \
  || fail "make lab-try NN=02 with softmax_row written: status $st, $(cat "$dir/try.out")"
mk -s lab-try NN=1 LAB01_FILES=judge/lab01/subjects/solution.c LAB_TRY=labs/lab01-qkv/try.c \
  > "$dir/try1.out" 2>&1
grep -q '^ *1 *0  | *0 *1  | *2 *0$' "$dir/try1.out" \
  && ok "make lab-try NN=1: W_QKV printed with its three blocks set apart" \
  || fail "make lab-try NN=1 on a solution: W_QKV not printed in blocks: $(cat "$dir/try1.out")"
# Lab 05's file writes three of chapter 05's functions and calls the library for the rest:
# lab-try links the library's fast.c without those three (labs/labs.mk)
mk -s lab-try NN=5 LAB05_FILES=judge/lab05/subjects/solution.c LAB_TRY=labs/lab05-speed/try.c \
  > "$dir/try5.out" 2>&1
st=$?
[ $st -eq 0 ] && has "$dir/try5.out" '1.60886    0.19557' && has "$dir/try5.out" 'mha_cache_new(&cache, &layer, N)' \
  && ok "make lab-try NN=5: your three functions beside the library's cache (the worked row 3)" \
  || fail "make lab-try NN=5 on a solution: status $st, $(tail -20 "$dir/try5.out")"
mk -s lab-try NN=0 > "$dir/try0.out" 2>&1
st=$?
[ $st -eq 2 ] && has "$dir/try0.out" 'usage: make lab-try NN=XX, XX one of: 01 02 03 04 05' \
  && ok "make lab-try NN=0: the usage (Lab 00 has no try.c)" || fail "make lab-try NN=0: status $st, $(cat "$dir/try0.out")"

[ $fails -eq 0 ] && echo "learner desk: every check holds" || echo "learner desk: $fails failed"
[ $fails -eq 0 ]
