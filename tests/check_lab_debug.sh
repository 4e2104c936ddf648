#!/bin/sh
# check_lab_debug.sh - make lab-debug does what it says (run from the
# workbook's top; make check-lab-debug): on Lab 02 with a mistake planted
# in its file, gdb stops in the learner's function on the failing case's
# call (its sizes as the case says), in English, in Spanish and with NN=2;
# a crash stops at its line in the learner's file; a check that passes,
# or is still pending, says so; no CHECK, Lab 00 or an unknown lab get the
# usage; a CHECK that names no check is named; no gdb names make deps.
# gdb runs without a terminal (LAB_DEBUG_GDB, its commands on stdin).
# It works in a copy of the workbook's committed files (its own build/), as
# tests/check_learner_desk.sh does.
NAME="lab debug"
. tests/desk.sh
# mk - make as a learner runs it, from a shell; gdb reads its commands from stdin
mk() { env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES timeout 300 make -s "$@"; }
gdb_batch="LAB_DEBUG_GDB=gdb -q -nx"

# plant SUBJECT - judge/lab02/subjects/SUBJECT as the learner's sdpa.c, the
# subjects' own headers (base.h, row.h) written in: a learner's file is
# built alone. A header is not written in again inside itself (each is
# guarded).
sub=judge/lab02/subjects
chain=
flatten() {
  while IFS= read -r line; do
    case $line in
      '#include "'*'"'*)
        name=${line#*\"}; name=${name%%\"*}
        if [ -f "$sub/$name" ]; then
          case " $chain " in
            *" $name "*) ;;
            *) chain="$chain $name"; flatten "$sub/$name"; chain=${chain% *} ;;
          esac
          continue
        fi ;;
    esac
    printf '%s\n' "$line"
  done < "$1"
}
plant() { flatten "$sub/$1" > labs/lab02-sdpa/sdpa.c; }

# the skeleton: a pending check
printf 'quit\n' | mk lab-debug NN=02 CHECK=softmax_row/c1 "$gdb_batch" > "$dir/pending.out" 2>&1
st=$?
[ $st -eq 0 ] && has "$dir/pending.out" 'CHECK=softmax_row/c1 is pending: its function still calls LAB_TODO()' \
  && ok "the skeleton: the check is pending, status 0" || fail "pending: status $st, $(cat "$dir/pending.out")"

# a value mistake: sdpa without its scale fails every case with d_k > 1
plant m-sdpa-no-scale.c
printf 'continue\n' | mk lab-debug NN=02 CHECK=sdpa/c3 "$gdb_batch" > "$dir/c3.out" 2>&1
st=$?
has "$dir/c3.out" "sdpa/c3_more_queries fails on the case 'more queries than keys: T_q=4 T_k=3 d_k=2 d_v=3'" \
  && has "$dir/c3.out" 'print s[0]@n' && has "$dir/c3.out" 'finish' \
  && ok "the failing case and the gdb commands are named" || fail "no case or commands: $(head -c 600 "$dir/c3.out")"
grep -q 'Breakpoint 1, sdpa (.*' "$dir/c3.out" && tr -d '\n' < "$dir/c3.out" | tr -s ' ' \
  | grep -q 'bias=0x0, T_q=4, T_k=3, d_k=2, d_v=3) at labs/lab02-sdpa/sdpa.c:[0-9]' \
  && ok "gdb stops in the learner's sdpa, on the case's sizes" \
  || fail "no breakpoint in sdpa with T_q=4, T_k=3, d_k=2, d_v=3 (status $st): $(tail -c 900 "$dir/c3.out")"
has "$dir/c3.out" 'sdpa(out, weights, q, k, v, NULL, 4, 3, 2, 3) returned MM_OK' \
  && grep -q '^  out (4, 3):$' "$dir/c3.out" \
  && ok "continue: the call returns, its outputs printed" || fail "no outputs after continue: $(tail -c 600 "$dir/c3.out")"

build/labs/debug/lab02/replay --replay labs/lab02-sdpa/sdpa.c > "$dir/bad.out" 2>&1
st=$?
[ $st -eq 2 ] && has "$dir/bad.out" '--replay labs/lab02-sdpa/sdpa.c: not a call recorded for this lab' \
  && ok "--replay on a file that is no record: named, status 2" || fail "--replay on sdpa.c: status $st, $(cat "$dir/bad.out")"

printf 'info args\n' | mk lab-debug NN=2 CHECK=sdpa/c1 "$gdb_batch" > "$dir/nn2.out" 2>&1
has "$dir/nn2.out" "sdpa/c1_worked_example fails on the case 'worked example" \
  && grep -q '^T_q = 2$' "$dir/nn2.out" && ok "NN=2 is NN=02" || fail "NN=2: $(tail -c 600 "$dir/nn2.out")"
printf 'quit\n' | mk lab-debug NN=02 CHECK=sdpa/c1 LAB_LANG=es "$gdb_batch" > "$dir/es.out" 2>&1
has "$dir/es.out" "sdpa/c1_worked_example falla en el caso 'ejemplo resuelto" \
  && has "$dir/es.out" 'Tu función sdpa corre ahora bajo gdb' && ok "in Spanish" \
  || fail "LAB_LANG=es: $(head -c 600 "$dir/es.out")"

mk lab-debug NN=02 CHECK=softmax_row/c1 "$gdb_batch" > "$dir/pass.out" 2>&1 < /dev/null
st=$?
[ $st -eq 0 ] && has "$dir/pass.out" 'CHECK=softmax_row/c1 passes: nothing to step through.' \
  && ok "a passing check says so, status 0" || fail "a passing check: status $st, $(cat "$dir/pass.out")"
mk lab-debug NN=02 CHECK=softmax_row/c1 LAB_LANG=es "$gdb_batch" > "$dir/pass-es.out" 2>&1 < /dev/null
has "$dir/pass-es.out" 'CHECK=softmax_row/c1 pasa: no hay nada que recorrer paso a paso.' \
  && ok "a passing check, in Spanish" || fail "a passing check, LAB_LANG=es: $(cat "$dir/pass-es.out")"

# bad input
for args in "NN=02" "NN=00 CHECK=sdpa/c1" "NN=7 CHECK=sdpa/c1"; do
  # shellcheck disable=SC2086
  mk lab-debug $args > "$dir/usage.out" 2>&1 < /dev/null
  st=$?
  [ $st -eq 2 ] && has "$dir/usage.out" 'usage: make lab-debug NN=XX CHECK=FUNCTION/NAME, XX one of: 01 02 03 04 05' \
    && ok "make lab-debug $args: the usage, status 2" || fail "make lab-debug $args: status $st, $(cat "$dir/usage.out")"
done
mk lab-debug NN=02 CHECK=sdpa/c99 "$gdb_batch" > "$dir/none.out" 2>&1 < /dev/null
st=$?
[ $st -eq 2 ] && has "$dir/none.out" 'CHECK=sdpa/c99 names no check of lab 02: make lab NN=02 LAB_ARGS=--help lists them.' \
  && ok "a CHECK that names no check is named, status 2" || fail "CHECK=sdpa/c99: status $st, $(cat "$dir/none.out")"
mk lab-debug NN=02 CHECK=sdpa/c1 LAB_DEBUG_GDB=/nonexistent/gdb > "$dir/nogdb.out" 2>&1 < /dev/null
st=$?
[ $st -eq 2 ] && has "$dir/nogdb.out" 'make lab-debug needs gdb (/nonexistent/gdb was not found)' \
  && has "$dir/nogdb.out" 'sudo make deps' && ok "without gdb: make deps named" \
  || fail "without gdb: status $st, $(cat "$dir/nogdb.out")"

# a crash: a softmax that writes one past the end of the row; the last row's
# write lands on the protected page after weights, as in the judge
plant r-row-past-end.c
line=$(grep -n 's\[n\] = 0.0;' labs/lab02-sdpa/sdpa.c | cut -d: -f1)
printf 'continue\nbt\n' | mk lab-debug NN=02 CHECK=sdpa/c1 "$gdb_batch" > "$dir/crash.out" 2>&1
has "$dir/crash.out" 'Program received signal SIGSEGV' \
  && tr -d '\n' < "$dir/crash.out" | tr -s ' ' \
     | grep -q "in sloppy_softmax (s=0x[0-9a-f]*, n=2) at labs/lab02-sdpa/sdpa.c:$line" \
  && grep -q "^$line[[:space:]]*s\[n\] = 0.0;" "$dir/crash.out" \
  && ok "a crash stops gdb at its line ($line) in the learner's file" \
  || fail "no SIGSEGV at sdpa.c:$line: $(tail -c 900 "$dir/crash.out")"

[ $fails -eq 0 ] && echo "lab debug: every check holds" || echo "lab debug: $fails failed"
[ $fails -eq 0 ]
