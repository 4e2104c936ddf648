#!/bin/sh
# check.sh PYTHON DIR JOBS - check-grade: grade the committed class twice and
# compare. DIR/config/labs.tsv is written by make (grade-config) first.
#  1. the class: tests/grade/class/ plus the archives make-class.py makes;
#  2. graded twice (every lab, 00 to 04), the two runs' reports byte-identical;
#  3. the reports equal tests/grade/expected/ (the reports hold no time);
#  4. their structure: validate.py (JUnit XML parsed with xml.etree, TAP 13,
#     Gradescope's JSON, the CSV);
#  5. the hostile learners changed nothing: no PWNED file anywhere, no file
#     outside the class the archives pointed at, no process of a learner's
#     left running (uid GRADE_UID_BASE and up).
# The hostile learners need the sandbox, that is root: as another user the
# check says it is skipped. GRADE_BLESS=1 copies the reports to expected/.
set -u
py=$1 dir=$2 jobs=$3
here=tests/grade
if [ "$(id -u)" != 0 ]; then
  echo "check-grade: skipped: the hostile submissions need the sandbox, which needs root (run make check as root, e.g. in CI)"
  exit 0
fi
fail=0
no() { echo "check-grade: $*"; fail=1; }
rm -rf "$dir/class" "$dir/run1" "$dir/run2"
"$py" $here/make-class.py "$dir/class" || exit 1
for run in run1 run2; do
  "$py" tools/grade/grade.py --config "$dir/config/labs.tsv" --out "$dir/$run" --jobs "$jobs" \
    --quiet class "$dir/class" || no "grading failed ($run)"
done
reports='gradebook.csv junit.xml results.tap'
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
# the hostile learners: the attacks changed nothing
found=$(find "$dir" . /tmp -maxdepth 6 -name 'PWNED*' 2> /dev/null | head -n 5)
[ -z "$found" ] || no "a hostile submission wrote $found"
for f in /tmp/grade-absolute.txt "$dir/escape.txt" "$dir/class/escape.txt"; do
  [ ! -e "$f" ] || no "an archive entry was unpacked outside: $f"
done
base=${GRADE_UID_BASE:-1500000000}
left=$(ps -eo uid=,pid=,args= | awk -v b="$base" '$1 >= b' | head -n 5)
[ -z "$left" ] || no "processes of learners left running: $left"
grep -q '^mallory-forge,.*,pending,' "$dir/run1/gradebook.csv" || no "mallory-forge's forged summary was believed"
[ $fail -eq 0 ] && echo "check-grade: the class of $(ls "$dir/class" | wc -l) graded twice, identical, as expected, well-formed; the hostile ones changed nothing"
exit $fail
