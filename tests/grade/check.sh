#!/bin/sh
# check.sh PYTHON DIR JOBS STAGE... - check-grade: grade the committed class twice
# and compare. DIR/config/labs.tsv is written by make (grade-config) first;
# STAGE... is what the learners' processes read (paths of the repository).
# Every look is at this run's own, so that another check-grade at the same
# time, or what an earlier one left, changes nothing:
#  0. the run's own: a block of learners' uids that no other run holds, for
#     both runs and the look for leftovers (grade.py hold-uids: GRADE_UIDS),
#     and a folder every user can read (mktemp under /tmp, removed at the
#     end) holding a copy of STAGE, where the grading runs: the learners'
#     uids need not reach the repository itself (a clone in a folder of
#     mktemp -d, which only root can enter);
#  1. the class: tests/grade/class/ plus the archives make-class.py makes;
#  2. graded twice (every lab, 00 to 04), the two runs' reports byte-identical;
#  3. the reports equal tests/grade/expected/ (the reports hold no time);
#  4. their structure: validate.py (JUnit XML parsed with xml.etree, TAP 13,
#     Gradescope's JSON, the CSV);
#  5. the hostile learners changed nothing: no PWNED file in this run's
#     folders or the repository, no file the archives pointed at outside the
#     class (and /tmp/grade-absolute.txt as it was before), no process left
#     running with one of this run's uids.
# The runs' folders are copied to DIR/run1 and DIR/run2 to be looked at.
# The hostile learners need the sandbox, that is root: as another user the
# check says it is skipped. GRADE_BLESS=1 copies the reports to expected/.
set -u
py=$1 dir=$2 jobs=$3
shift 3
here=tests/grade
if [ "$(id -u)" != 0 ]; then
  echo "check-grade: skipped: the hostile submissions need the sandbox, which needs root (run make check as root, e.g. in CI)"
  exit 0
fi
[ -n "${GRADE_UIDS:-}" ] || exec "$py" tools/grade/grade.py hold-uids sh "$0" "$py" "$dir" "$jobs" "$@"
fail=0
no() { echo "check-grade: $*"; fail=1; }
stage=$(mktemp -d /tmp/check-grade.XXXXXX) || exit 1
trap 'rm -rf "$stage"' EXIT
trap 'exit 1' HUP INT TERM
chmod 755 "$stage"
cp -R --parents "$@" "$stage" && chmod -R go+rX,go-w "$stage" ||
  { echo "check-grade: cannot copy what the learners' code reads into $stage"; exit 1; }
awk -F '\t' -v repo="$stage" 'BEGIN { OFS = FS } $1 == "-" && $2 == "repo" { $3 = repo } { print }' \
  "$dir/config/labs.tsv" > "$stage/labs.tsv" || exit 1
rm -rf "$dir/class" "$dir/run1" "$dir/run2"
"$py" $here/make-class.py "$dir/class" || exit 1
absolute=$(ls -il --full-time /tmp/grade-absolute.txt 2> /dev/null)
for run in run1 run2; do
  "$py" tools/grade/grade.py --config "$stage/labs.tsv" --out "$stage/$run" --jobs "$jobs" \
    --quiet class "$dir/class" || no "grading failed ($run)"
done
# the hostile learners: the attacks changed nothing
lo=${GRADE_UIDS%-*} hi=${GRADE_UIDS#*-}
left=$(ps -eo ruid=,euid=,pid=,args= |
       awk -v lo="$lo" -v hi="$hi" '($1 >= lo && $1 < hi) || ($2 >= lo && $2 < hi)' | head -n 5)
[ -z "$left" ] || no "processes of learners left running (uids $GRADE_UIDS): $left"
found=$(find "$dir" . "$stage" -maxdepth 6 -name 'PWNED*' 2> /dev/null | head -n 5)
[ -z "$found" ] || no "a hostile submission wrote $found"
found=$(find "$dir" "$stage" -name escape.txt 2> /dev/null | head -n 5)
[ -z "$found" ] || no "an archive entry was unpacked outside: $found"
[ "$(ls -il --full-time /tmp/grade-absolute.txt 2> /dev/null)" = "$absolute" ] ||
  no "an archive entry was unpacked outside: /tmp/grade-absolute.txt"
cp -R "$stage/run1" "$stage/run2" "$dir/" || exit 1
# a report missing: the grading went wrong, and what follows would not say why
reports='gradebook.csv junit.xml results.tap'
for run in run1 run2; do
  for r in $reports; do
    [ -f "$dir/$run/$r" ] ||
      { no "$dir/$run/$r was not written: the grading went wrong (see above); nothing more is checked"; exit 1; }
  done
done
for r in $reports $(cd "$dir/run1" && find gradescope -name results.json | sort); do
  cmp -s "$dir/run1/$r" "$dir/run2/$r" || no "$r differs between two runs on the same class"
done
if [ -n "${GRADE_BLESS:-}" ]; then
  rm -rf $here/expected && mkdir -p $here/expected
  (cd "$dir/run1" && cp -r $reports gradescope "$OLDPWD/$here/expected/")
  echo "check-grade: expected results written to $here/expected/"
fi
diff -r -x work -x catalogue -x timing.txt "$here/expected" "$dir/run1" > "$dir/expected.diff" 2>&1 ||
  { no "the reports differ from $here/expected/ (diff -r: $dir/expected.diff):"; head -n 30 "$dir/expected.diff"; }
"$py" $here/validate.py "$dir/run1" || no "the reports' structure is wrong"
grep -q '^mallory-forge,.*,pending,' "$dir/run1/gradebook.csv" || no "mallory-forge's forged summary was believed"
[ $fail -eq 0 ] && echo "check-grade: the class of $(ls "$dir/class" | wc -l) graded twice, identical, as expected, well-formed; the hostile ones changed nothing"
exit $fail
