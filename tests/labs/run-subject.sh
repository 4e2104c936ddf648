#!/bin/sh
# run-subject.sh [-v] [--input] SUBJECT LOG COMMAND [ARG...] - run one subject
# of a lab checker's self-test and hold the output to what SUBJECT states.
#
# A subject is a file that says what the checker must print about it: a C
# lab's subject is a learner's file (compiled into COMMAND by the make rule),
# Lab 00's is an answers file (COMMAND reads it: --input appends its path).
# Its lines of the form `expect...:` or `run-...:`, after any comment marks
# (`/*`, ` *`, `//`, `#`), anywhere in the file, are the statement:
#
#   expect-exit: N | nonzero  the exit status
#   expect: TEXT              the output holds TEXT (a fixed string)
#   expect-not: TEXT          the output does not hold TEXT
#   expect-re: REGEX          some line of the output matches REGEX (grep -E)
#   run-lang: en | es         pass --lang=en|es (both checkers take it); without
#                             it the locale is neutral (LANG=C) unless run-env sets it
#   run-env: VAR=VALUE        set VAR in the checker's environment
#   run-only: F...            a C lab: run only the checks of functions F...
#                             (their Criterion suites, through --filter)
#   run-file: PATH            with --input: the checker reads PATH (relative to
#                             the subject's folder) instead of the subject
#
# A subject must state its exit status and at least one expected text.
# Any exit status above 2 (a crash, a sanitizer's report) fails unless
# stated. The output is kept in LOG. Prints one line on failure (and with
# -v on success too); exits 1 if anything stated is not so.
set -u
verbose=
input=
while :; do
  case "${1:-}" in
    -v) verbose=1; shift ;;
    --input) input=1; shift ;;
    *) break ;;
  esac
done
subject=$1 log=$2
shift 2
name=$(basename "$subject")

# text - the subject's lines, without carriage returns
text() { tr -d '\r' < "$subject"; }
# directive NAME - the values of `NAME: value` lines, one per line
directive() {
  text | sed -n "s/^[[:space:]/*#]*$1: \{0,1\}//p" | sed 's/[[:space:]]*\*\/[[:space:]]*$//'
}

want_exit=$(directive expect-exit | head -n 1)
lang=$(directive run-lang | head -n 1)
only=$(directive run-only | head -n 1)
file=$(directive run-file | head -n 1)

set -- "$@"
[ -n "$lang" ] && set -- "$@" "--lang=$lang"
case "$only" in
  "") ;;
  *" "*) set -- "$@" --filter "@($(echo $only | tr ' ' '|'))/*" ;;
  *) set -- "$@" --filter "$only/*" ;;
esac
if [ -n "$input" ]; then
  if [ -n "$file" ]; then set -- "$@" "$(dirname "$subject")/$file"; else set -- "$@" "$subject"; fi
fi

# a neutral locale, then the subject's own settings
envs=$(directive run-env | tr '\n' ' ')
# shellcheck disable=SC2086
env -u LC_ALL -u LC_MESSAGES -u LAB_LANG LANG=C $envs "$@" > "$log" 2>&1
status=$?

problems=""
case "$want_exit" in
  "") problems="; states no expect-exit:" ;;
  nonzero) [ "$status" -ne 0 ] || problems="; exit status 0, expected nonzero" ;;
  *) [ "$status" -eq "$want_exit" ] || problems="; exit status $status, expected $want_exit" ;;
esac
if [ "$want_exit" = nonzero ] && [ "$status" -gt 2 ]; then
  problems="$problems; exit status $status (a crash or a sanitizer's report?)"
fi

n=0
tab=$(printf '\t')
while IFS="$tab" read -r kind want; do
  [ -n "$kind" ] || continue
  n=$((n + 1))
  case "$kind" in
    expect) grep -qF -- "$want" "$log" || problems="$problems; missing '$want'" ;;
    expect-not) ! grep -qF -- "$want" "$log" || problems="$problems; holds '$want'" ;;
    expect-re) grep -qE -- "$want" "$log" || problems="$problems; no line matches /$want/" ;;
  esac
done <<LINES
$(text | sed -n "s/^[[:space:]/*#]*\(expect\(-not\|-re\)\{0,1\}\): \(.*\)$/\1$tab\3/p" \
  | sed 's/[[:space:]]*\*\/[[:space:]]*$//')
LINES
[ "$n" -gt 0 ] || problems="$problems; states no expected text"

if [ -n "$problems" ]; then
  printf '  FAIL  %-30s %s (output: %s)\n' "$name" "${problems#; }" "$log"
  exit 1
fi
[ -z "$verbose" ] || printf '  ok    %-30s exit %s, %d statement%s hold\n' "$name" "$status" \
  "$n" "$([ "$n" -eq 1 ] || echo s)"
exit 0
