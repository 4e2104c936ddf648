#!/bin/sh
# selftest.sh NAME BINARY EXPECT LOG [ARG...] - run a lab's check BINARY
# (built on the subject NAME) with ARG..., keep its output in LOG, and hold
# it to what EXPECT states, one line each, anywhere in the file:
#   expect-exit: 0        the exit status (or "nonzero")
#   expect: TEXT          the output contains TEXT
#   expect-re: REGEX      some line of the output matches REGEX (grep -E)
#   expect-filter: F...   run only the checks of the functions F... (their suites)
# Prints one line; exits 1 if anything expected is missing.
set -u
name=$1 bin=$2 expect=$3 log=$4
shift 4
suites=$(sed -n 's/^[ /*]*expect-filter: *//p' "$expect" | head -n 1)
filter=""
case "$suites" in
  "") ;;
  *" "*) filter="@($(echo $suites | tr ' ' '|'))/*" ;;
  *) filter="$suites/*" ;;
esac
if [ -n "$filter" ]; then
  "$bin" "$@" --filter "$filter" > "$log" 2>&1
else
  "$bin" "$@" > "$log" 2>&1
fi
status=$?
problems=""
want_exit=$(sed -n 's/^[ /*]*expect-exit: *//p' "$expect" | head -n 1)
case "$want_exit" in
  "") ;;
  nonzero) [ "$status" -ne 0 ] || problems="$problems; exit status 0, expected nonzero" ;;
  *) [ "$status" -eq "$want_exit" ] || problems="$problems; exit status $status, expected $want_exit" ;;
esac
n=0
while IFS= read -r line; do
  case "$line" in
    expect:*) text=${line#expect: }; n=$((n + 1))
      grep -qF -- "$text" "$log" || problems="$problems; missing '$text'" ;;
    expect-re:*) re=${line#expect-re: }; n=$((n + 1))
      grep -qE -- "$re" "$log" || problems="$problems; no line matches /$re/" ;;
  esac
done <<LINES
$(sed -n 's/^[ /*]*\(expect\(-re\)\{0,1\}: .*\)$/\1/p' "$expect")
LINES
if [ -z "$problems" ] && [ "$n" -eq 0 ] && [ -z "$want_exit" ]; then
  problems="; $expect states nothing to expect"
fi
if [ -n "$problems" ]; then
  printf '  FAIL  %-28s %s (output: %s)\n' "$name" "${problems#; }" "$log"
  exit 1
fi
printf '  ok    %-28s exit %s, %d expected line%s found\n' "$name" "$status" "$n" \
  "$([ "$n" -eq 1 ] || echo s)"
