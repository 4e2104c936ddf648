#!/bin/sh
# run-subject.sh [-v] [--input] [--variant NAME] SUBJECT LOG COMMAND [ARG...] -
# run one subject of a lab checker's self-test and hold the output to what
# SUBJECT states.
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
#   expect-not-re: REGEX      no line of the output matches REGEX
#   expect-once: TEXT         the output holds TEXT on exactly one line
#   expect-order: A >> B      the first line holding A comes before the first holding B
#   expect-lines-at-most: N   the output is N lines or fewer
#   run-lang: en | es         pass --lang=en|es (both checkers take it); without
#                             it the locale is neutral (LANG=C) unless run-env sets it
#   run-env: VAR=VALUE        set VAR in the checker's environment
#   run-only: F...            a C lab: run only the checks of functions F...
#                             (one --filter F each)
#   run-args: ARG...          more arguments for the checker (e.g. --summary)
#   run-report: short         a C lab: the report as make lab prints it (the
#                             first failing check in full, the others a line
#                             each); without it the judge runs with --all
#   run-file: PATH            with --input: the checker reads PATH (relative to
#                             the subject's folder) instead of the subject
#   build: unvetted           a C lab: the learner's file is linked without the
#                             symbol checks (read by the build rule, not here)
#
# A statement may hold for one build only: `expect@sanitize: TEXT` counts
# when the checker runs with --variant sanitize, `expect-exit@plain: N` with
# --variant plain; without --variant such lines are ignored. (A C lab's
# self-test runs in the plain build and in the LAB_SANITIZE=1 build.)
#
# A subject must state its exit status and at least one expected text.
# Any exit status above 2 (a crash, a sanitizer's report) fails unless
# stated. The output is kept in LOG. Prints one line on failure (and with
# -v on success too); exits 1 if anything stated is not so.
set -u
verbose=
input=
variant=
while :; do
  case "${1:-}" in
    -v) verbose=1; shift ;;
    --input) input=1; shift ;;
    --variant) variant=$2; shift 2 ;;
    *) break ;;
  esac
done
subject=$1 log=$2
shift 2
name=$(basename "$subject")

# text - the subject's lines, without carriage returns
text() { tr -d '\r' < "$subject"; }
# statements - the subject's statement lines, as NAME<US>VALUE (US, the
# unit separator, since a value may hold tabs): without the comment marks,
# and only those for all builds or for this one (@variant)
us=$(printf '\037')
statements() {
  text | sed -n "s/^[[:space:]/*#]*\([a-z-]*\)\(@[a-z]*\)\{0,1\}: \{0,1\}\(.*\)$/\1\2$us\3/p" |
    sed 's/[[:space:]]*\*\/[[:space:]]*$//' |
    awk -F "$us" -v v="$variant" '{ n = split($1, p, "@"); if (n == 1 || p[2] == v) print p[1] FS $2 }'
}
# directive NAME - the values of `NAME: value` lines, one per line
directive() {
  statements | awk -F "$us" -v n="$1" '$1 == n { print $2 }'
}

want_exit=$(directive expect-exit | head -n 1)
lang=$(directive run-lang | head -n 1)
only=$(directive run-only | head -n 1)
file=$(directive run-file | head -n 1)
args=$(directive run-args | head -n 1)
report=$(directive run-report | head -n 1)
at_most=$(directive expect-lines-at-most | head -n 1)

[ -n "$lang" ] && set -- "$@" "--lang=$lang"
for f in $only; do set -- "$@" --filter "$f"; done
# shellcheck disable=SC2086
set -- "$@" $args
# a C lab's judge (its subjects are .c files) reports every check in full
# unless the subject asks for make lab's form; Lab 00's checkers have one form
case $name in *.c) [ "$report" = short ] || set -- "$@" --all ;; esac
if [ -n "$input" ]; then
  if [ -n "$file" ]; then set -- "$@" "$(dirname "$subject")/$file"; else set -- "$@" "$subject"; fi
fi

# a neutral locale, then the subject's own settings; the language from
# them as make decides it for a learner (lang.sh)
envs=$(directive run-env | tr '\n' ' ')
# shellcheck disable=SC2086
lang=$(env -u LC_ALL -u LC_MESSAGES -u LAB_LANG LANG=C $envs sh "$(dirname "$0")/../harness/lang.sh")
# shellcheck disable=SC2086
env -u LC_ALL -u LC_MESSAGES LANG=C LAB_LANG="$lang" $envs "$@" > "$log" 2>&1
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
while IFS="$us" read -r kind want; do
  [ -n "$kind" ] || continue
  n=$((n + 1))
  case "$kind" in
    expect) grep -qF -- "$want" "$log" || problems="$problems; missing '$want'" ;;
    expect-not) ! grep -qF -- "$want" "$log" || problems="$problems; holds '$want'" ;;
    expect-re) grep -qE -- "$want" "$log" || problems="$problems; no line matches /$want/" ;;
    expect-not-re) ! grep -qE -- "$want" "$log" || problems="$problems; a line matches /$want/" ;;
    expect-once) c=$(grep -cF -- "$want" "$log")
                 [ "$c" -eq 1 ] || problems="$problems; '$want' on $c lines, not 1" ;;
    expect-order) a=$(grep -nF -- "${want%% >> *}" "$log" | head -n 1 | cut -d: -f1)
                  b=$(grep -nF -- "${want#* >> }" "$log" | head -n 1 | cut -d: -f1)
                  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] \
                    || problems="$problems; not in this order: '$want'" ;;
  esac
done <<LINES
$(statements | grep -E "^expect(-not|-re|-not-re|-once|-order)?$us")
LINES
if [ -n "$at_most" ]; then
  lines=$(wc -l < "$log")
  [ "$lines" -le "$at_most" ] || problems="$problems; $lines lines, more than $at_most"
fi
[ "$n" -gt 0 ] || problems="$problems; states no expected text"

if [ -n "$problems" ]; then
  printf '  FAIL  %-30s %s (output: %s)\n' "$name" "${problems#; }" "$log"
  exit 1
fi
[ -z "$verbose" ] || printf '  ok    %-30s exit %s, %d statement%s hold\n' "$name" "$status" \
  "$n" "$([ "$n" -eq 1 ] || echo s)"
exit 0
