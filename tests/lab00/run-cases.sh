#!/bin/sh
# run-cases.sh - the self-test of lab 00's checker.
#   sh tests/lab00/run-cases.sh CHECKER OUTDIR [full]
# Runs CHECKER on every case of tests/lab00/cases.tsv (its exit status, and
# fixed strings the output must hold, or must not hold when written
# !string), on the correct and untouched answers files, and on files that
# are not answers at all; with `full`, also on every prefix of a right file
# and on the file without each of its lines. Any exit status other than 0,
# 1 or 2 (a crash, a sanitizer report) is a failure. Writes each output
# under OUTDIR; prints one line per failure and a total.
set -u
checker=$1
out=$2
full=${3:-}
dir=tests/lab00
tab=$(printf '\t')
mkdir -p "$out"
fails=0
runs=0

fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# expect NAME FILE LANG STATUS [STRING...] - run one case and judge it
expect() {
    name=$1 file=$2 lang=$3 status=$4
    shift 4
    runs=$((runs + 1))
    "$checker" --lang="$lang" "$file" > "$out/$name.out" 2>&1
    rc=$?
    if [ "$rc" != "$status" ]; then
        fail "$name: exit status $rc, expected $status (output: $out/$name.out)"
        return
    fi
    for want in "$@"; do
        case $want in
        '!'*) if grep -qF -- "${want#!}" "$out/$name.out"; then
                  fail "$name: output holds \"${want#!}\" (output: $out/$name.out)"
              fi ;;
        *)    if ! grep -qF -- "$want" "$out/$name.out"; then
                  fail "$name: output lacks \"$want\" (output: $out/$name.out)"
              fi ;;
        esac
    done
}

# the catalogue: one line per case
while IFS="$tab" read -r file lang status rest; do
    case $file in '#'*|'') continue ;; esac
    set --
    old_ifs=$IFS
    IFS=$tab
    for s in $rest; do set -- "$@" "$s"; done
    IFS=$old_ifs
    expect "${file%.txt}" "$dir/cases/$file" "$lang" "$status" "$@"
done < "$dir/cases.tsv"

# right answers, as a learner writes them (two decimals) and more precisely
expect correct-2dp "$dir/correct-2dp.txt" en 0 "10 of 10 steps right, 0 wrong, 0 pending" "Every step is right"
expect correct-4dp "$dir/correct-4dp.txt" en 0 "10 of 10 steps right, 0 wrong, 0 pending"
expect correct-2dp-es "$dir/correct-2dp.txt" es 0 "10 de 10 pasos bien, 0 mal, 0 pendientes"
# the untouched template: pending, not failing
expect untouched "$dir/untouched.txt" en 0 "0 of 10 steps right, 0 wrong, 10 pending" "Next: [Q]"
# not an answers file, not a file
expect not-a-file "$dir/no-such-file.txt" en 2 "cannot open the answers file"
expect binary "$checker" en 2 "The file could not be checked"
expect directory "$dir" en 2

# every prefix of a right file, and the file without each of its lines:
# whatever is left, the checker answers 0, 1 or 2 and never crashes
# (only the lines that are not comments or blank: cutting those changes nothing)
if [ "$full" = full ]; then
    for i in $(grep -n -v -e '^#' -e '^[[:space:]]*$' "$dir/correct-2dp.txt" | cut -d: -f1); do
        head -n "$i" "$dir/correct-2dp.txt" > "$out/prefix.txt"
        "$checker" --lang=en "$out/prefix.txt" > "$out/prefix.out" 2>&1
        rc=$?
        runs=$((runs + 1))
        [ "$rc" -le 2 ] || fail "first $i lines of correct-2dp.txt: exit status $rc"
        sed "${i}d" "$dir/correct-2dp.txt" > "$out/less.txt"
        "$checker" --lang=en "$out/less.txt" > "$out/less.out" 2>&1
        rc=$?
        runs=$((runs + 1))
        [ "$rc" -le 2 ] || fail "correct-2dp.txt without line $i: exit status $rc"
    done
fi

# the example itself meets its requirements
runs=$((runs + 1))
"$checker" --self-test > "$out/self-test.out" 2>&1 || fail "--self-test (see $out/self-test.out)"

echo "lab00 harness ($checker): $runs runs, $fails failed"
[ "$fails" -eq 0 ]
