#!/bin/sh
# check.sh PYTHON DIR JOBS LAB00 STAGE... - check-grade: grade the class twice
# and compare. DIR/config/labs.tsv is written by make (grade-config) first;
# LAB00 is the folder of Lab 00's generated subjects (make-class.py reads it);
# STAGE... is what the learners' processes read (paths of the repository).
# Every look is at this run's own, so that another check-grade at the same
# time, or what an earlier one left, changes nothing:
#  0. the run's own: a block of learners' uids that no other run holds, for
#     every run and the look for leftovers (grade.py hold-uids: GRADE_UIDS),
#     and a folder every user can read (mktemp under /tmp, removed at the
#     end) holding a copy of STAGE, where the grading runs: the learners'
#     uids need not reach the repository itself (a clone in a folder of
#     mktemp -d, which only root can enter);
#  1. the class that make-class.py makes (it says who is in it);
#  2. graded twice with one seed (every lab, 00 to 05), the two runs'
#     reports byte-identical (they hold no time), written 0600 in a folder
#     of mode 0700, with nothing of an earlier run left in it; the grade
#     book byte for byte the golden one, judge/grade/tests/gradebook.csv:
#     every learner's checks passed per function, per lab passed, failed,
#     pending and its state, the totals, the similar files, the notes;
#  3. the other reports agree with it and with each other, are well-formed
#     and hold no path of the run (validate.py says what it checks); the
#     explanations' words are the checkers' reports, held byte for byte by
#     the judges' own self-tests;
#  4. the honest learners graded alone get the rows they get beside the
#     hostile ones (but the similarity column, which depends on the class);
#  5. the isolation without namespaces (--isolation uid, Lab 00) says so on
#     the terminal and in every row, and draws a fresh seed that it prints;
#  6. the limits: a 3 MiB .tar.gz of 3,000 GNU long names of 1 MiB, a zip of
#     20,000 entries and a zip bomb are read in bounded memory (the
#     grader's peak under 200 MiB), each with a note;
#  7. the hostile learners changed nothing: no PWNED file in this run's
#     folders or the repository, none in /tmp, /var/tmp or /dev/shm, no file
#     there of one of this run's uids, no file the archives pointed at outside
#     the class, the hard-linked secret in no report, and no process left
#     running with one of this run's uids.
# The runs' folders are copied to DIR/run1 and DIR/run2 to be looked at.
# The hostile learners need the sandbox, that is root: as another user the
# check says it is skipped. GRADE_BLESS=1 copies the grade book to the golden one.
set -u
py=$1 dir=$2 jobs=$3 lab00=$4
shift 4
here=judge/grade/tests
if [ "$(id -u)" != 0 ]; then
  echo "check-grade: skipped: the hostile submissions need the sandbox, which needs root (run make check as root, e.g. in CI)"
  exit 0
fi
[ -n "${GRADE_UIDS:-}" ] || exec "$py" judge/grade/grade.py hold-uids sh "$0" "$py" "$dir" "$jobs" "$lab00" "$@"
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
rm -rf "$dir/class" "$dir/class.secret" "$dir/honest" "$dir/uid" "$dir/limits" "$dir/run1" "$dir/run2" \
  "$dir/run-honest" "$dir/run-uid" "$dir/run-limits"
"$py" $here/make-class.py "$lab00" "$dir/class" "$stage" || exit 1
absolute=$(ls -il --full-time /tmp/grade-absolute.txt 2> /dev/null)
grade() {  # grade OUT ARG... - grade.py on this run's stage (its peak memory: OUT/timing.txt;
  out=$1   # its stderr: $stage/OUT.err, shown if it fails)
  shift
  "$py" judge/grade/grade.py --config "$stage/labs.tsv" --out "$stage/$out" --jobs "$jobs" "$@" \
    2> "$stage/$out.err" || { cat "$stage/$out.err"; return 1; }
}
# an earlier run's outputs, which the run must remove
mkdir -p "$stage/run1/gradescope/left-by-an-earlier-run" && touch "$stage/run1/similarity.csv" \
  "$stage/run1/gradescope/left-by-an-earlier-run/results.json"
for run in run1 run2; do
  grade $run --seed 4242 --quiet class "$dir/class" || no "grading failed ($run)"
done

# 4. the honest learners alone
mkdir -p "$dir/honest"
for l in ana bob carla dan gus 'zoë garcía'; do cp -R "$dir/class/$l" "$dir/honest/"; done
grade run-honest --seed 4242 --quiet --format csv class "$dir/honest" ||
  no "grading the honest learners alone failed"

# 5. no namespaces
mkdir -p "$dir/uid"
cp -R "$dir/class/ana" "$dir/class/mallory-fork" "$dir/uid/"
grade run-uid --isolation uid --labs 00 --format csv class "$dir/uid" > /dev/null ||
  no "grading without namespaces failed"
grep -q 'no namespaces here' "$stage/run-uid.err" || no "grading without namespaces did not say so on the terminal"

# 6. the limits
mkdir -p "$dir/limits"
"$py" - "$dir/limits" <<'EOF' || no "cannot make the archives of the limits"
import gzip, io, os, sys, tarfile, zipfile, zlib
d = sys.argv[1]
# 3,000 GNU long names of 1 MiB: one gzip member, repeated (gzip members concatenate)
i = tarfile.TarInfo("labs/lab01-qkv/" + "n" * (1 << 20))
i.size = 2
member = i.tobuf(tarfile.GNU_FORMAT, "utf-8", "surrogateescape") + b"x\n" + bytes(510)
one = gzip.compress(member, 9, mtime=0)
with open(os.path.join(d, "names.tar.gz"), "wb") as f:
    f.write(one * 3000)
with zipfile.ZipFile(os.path.join(d, "many.zip"), "w") as z:
    for k in range(20000):
        z.writestr(zipfile.ZipInfo("f%d" % k, (2024, 1, 1, 0, 0, 0)), b"")
# a zip bomb: qkv.c of 512 MiB of zeros
with zipfile.ZipFile(os.path.join(d, "bomb.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    zi = zipfile.ZipInfo("labs/lab01-qkv/qkv.c", (2024, 1, 1, 0, 0, 0))
    zi.compress_type = zipfile.ZIP_DEFLATED
    with z.open(zi, "w") as f:
        zero = bytes(1 << 20)
        for k in range(512):
            f.write(zero)
EOF
grade run-limits --seed 4242 --quiet --labs 01 --format csv class "$dir/limits" ||
  no "grading the limits failed"

# 7. the hostile learners changed nothing
lo=${GRADE_UIDS%-*} hi=${GRADE_UIDS#*-}
left=$(ps -eo ruid=,euid=,pid=,args= |
       awk -v lo="$lo" -v hi="$hi" '($1 >= lo && $1 < hi) || ($2 >= lo && $2 < hi)' | head -n 5)
[ -z "$left" ] || no "processes of learners left running (uids $GRADE_UIDS): $left"
found=$(find "$dir" . "$stage" -maxdepth 6 -name 'PWNED*' 2> /dev/null | head -n 5)
[ -z "$found" ] || no "a hostile submission wrote $found"
found=$(find /tmp /var/tmp /dev/shm -maxdepth 3 \( -name 'grade-PWNED*' -o -uid +$((lo - 1)) \) \
          -printf '%U %p\n' 2> /dev/null | awk -v hi="$hi" '$1 < hi || $2 ~ /grade-PWNED/' | head -n 5)
[ -z "$found" ] || no "a learner's file was left in /tmp, /var/tmp or /dev/shm: $found"
found=$(find "$dir" "$stage" -name escape.txt 2> /dev/null | head -n 5)
[ -z "$found" ] || no "an archive entry was unpacked outside: $found"
[ "$(ls -il --full-time /tmp/grade-absolute.txt 2> /dev/null)" = "$absolute" ] ||
  no "an archive entry was unpacked outside: /tmp/grade-absolute.txt"
for run in run1 run2 run-honest run-uid run-limits; do
  [ ! -e "$stage/$run.work" ] || no "$run.work, the scratch folders, is left"
done
cp -R "$stage/run1" "$stage/run2" "$stage/run-honest" "$stage/run-uid" "$stage/run-limits" "$dir/" || exit 1
# a report missing: the grading went wrong, and what follows would not say why
reports='gradebook.csv junit.xml results.tap similarity.csv'
for run in run1 run2; do
  for r in $reports; do
    [ -f "$dir/$run/$r" ] ||
      { no "$dir/$run/$r was not written: the grading went wrong (see above); nothing more is checked"; exit 1; }
  done
done
for r in $reports $(cd "$dir/run1" && find gradescope -name results.json | sort); do
  cmp -s "$dir/run1/$r" "$dir/run2/$r" || no "$r differs between two runs on the same class"
done
[ ! -e "$dir/run1/gradescope/left-by-an-earlier-run" ] || no "an earlier run's results.json is left in gradescope/"
[ "$(stat -c %a "$stage/run1")" = 700 ] || no "the reports' folder is not 0700: $(stat -c %a "$stage/run1")"
modes=$(find "$stage/run1" \( -type f ! -perm 600 \) -o \( -type d ! -perm 700 \) | head -n 3)
[ -z "$modes" ] || no "reports readable by others: $modes"
! grep -rq SECRET-ANSWERS "$dir/run1" || no "the hard-linked secret is in the reports"
if [ -n "${GRADE_BLESS:-}" ]; then
  cp "$dir/run1/gradebook.csv" $here/gradebook.csv && echo "check-grade: $here/gradebook.csv written"
fi
diff $here/gradebook.csv "$dir/run1/gradebook.csv" > "$dir/expected.diff" 2>&1 ||
  { no "the grade book differs from $here/gradebook.csv ($dir/expected.diff):"; cut -c1-300 "$dir/expected.diff" | head -n 30; }
"$py" $here/validate.py "$dir/run1" "$stage" "$PWD/" || no "the reports disagree or are not well-formed"
grep -q '^mallory-forge,.*,pending,' "$dir/run1/gradebook.csv" || no "mallory-forge's forged summary was believed"
grep -q '^mallory-copy,.*does not compile,.*nothing to copy: the sandbox holds' "$dir/run1/gradebook.csv" ||
  no "mallory-copy's build read someone else's sdpa.c"
grep -q '^mallory-escape,.*,failing,' "$dir/run1/gradebook.csv" || no "mallory-escape's Lab 02 is not failing"
"$py" - "$dir/run1/gradebook.csv" "$dir/run-honest/gradebook.csv" <<'EOF' || no "an honest learner's row changed beside the hostile ones"
import csv, sys
def rows(p):
    r = list(csv.reader(open(p, encoding="utf-8")))
    drop = r[0].index("similar")
    return {x[0]: x[:drop] + x[drop + 1:] for x in r[2:]}
full, alone = rows(sys.argv[1]), rows(sys.argv[2])
bad = [k for k in alone if alone[k] != full.get(k)]
if bad or len(alone) != 6:
    print("check-grade: graded alone, these rows differ: %s" % ", ".join(bad))
    sys.exit(1)
EOF
"$py" - "$dir/run-uid/gradebook.csv" <<'EOF' || no "grading without namespaces: the reports do not say so, or show no fresh seed"
import csv, re, sys
r = list(csv.reader(open(sys.argv[1], encoding="utf-8")))
iso = r[0].index("isolation")
ok = all(x[iso] == "uid only" for x in r[1:]) and len(r) == 4
ok = ok and re.fullmatch(r"random cases from seed [1-9][0-9]{0,8}", r[1][-1]) and r[1][-1] != "random cases from seed 4242"
sys.exit(0 if ok else 1)
EOF
grep -q '^names,.*the archives unpack to more than 256 MiB' "$dir/run-limits/gradebook.csv" ||
  no "the 3,000 long names: no note that the reading stopped at 256 MiB"
grep -q '^many,.*the archive has 20000 entries, more than 10000: not read' "$dir/run-limits/gradebook.csv" ||
  no "the zip of 20,000 entries: no note"
grep -q '^bomb,.*larger than 1024 KiB' "$dir/run-limits/gradebook.csv" || no "the zip bomb: no note"
peak() { sed -n 's/^the grader.s own peak memory: \([0-9]*\) MiB$/\1/p' "$1/timing.txt"; }
mem=$(peak "$dir/run-limits")
[ -n "$mem" ] && [ "$mem" -lt 200 ] ||
  no "the grader took ${mem:-?} MiB reading the archives of the limits (at most 200)"
mem=$(peak "$dir/run1")
[ -n "$mem" ] && [ "$mem" -lt 200 ] || no "grade.py's own peak memory on the class: ${mem:-?} MiB (at most 200)"
[ $fail -eq 0 ] && echo "check-grade: the class of $(ls "$dir/class" | wc -l) graded twice, identical, the grade book as expected, the reports agreeing and well-formed; honest rows unchanged alone; the isolation without namespaces said; the limits held; the hostile ones changed nothing (grader's peak: $mem MiB)"
exit $fail
