#!/bin/sh
# check-platforms.sh PYTHON DIR JOBS - check-grade-platforms: what Gradescope and
# GitHub Classroom run, run here on a copy of the workbook (the files git does
# not ignore, as they are in the working tree), built once in a folder of mktemp:
#  1. Gradescope: the autograder zip made for Lab 02 alone
#     (make-zip.py OUT 02, as make gradescope-autograder GRADE_LABS=02 does),
#     unpacked as /autograder/source would be, built as setup.sh builds it
#     (without apt-get), and its run_autograder run (AUTOGRADER=the folder) on
#     a submission that is a zip inside a folder, holding a solved Lab 02 and
#     a Lab 03 file: results.json grades Lab 02 only, every check passing, and
#     says where the file was taken from;
#  2. GitHub Classroom: the same tree as a learner's repository (a git
#     repository whose first commit is the template, then the learner's
#     Lab 01 solved, Lab 02 with a mistake, Lab 03 not C), and
#     judge/grade/classroom.sh run in it as the
#     workflow runs it (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY): one runner per
#     lab, in the reporter's format (base64 JSON: version, status, max_score,
#     tests with their scores): Lab 01 passing with every point, Lab 02
#     failing with some, Lab 03 an error with none (its checks counted on
#     the template's file, the first commit); and the job summary's table.
# Not tried here: GitHub's runner itself (its sudo, its kernel's namespaces,
# the reporter action and Classroom's page), Gradescope's container.
set -u
py=$1 dir=$2 jobs=$3
if [ "$(id -u)" != 0 ]; then
  echo "check-grade-platforms: skipped: grading needs root (run it as root, e.g. in CI)"
  exit 0
fi
fail=0
no() { echo "check-grade-platforms: $*"; fail=1; }
t=$(mktemp -d /tmp/check-grade-platforms.XXXXXX) || exit 1
trap 'rm -rf "$t"' EXIT
trap 'exit 1' HUP INT TERM
chmod 755 "$t"
rm -rf "$dir" && mkdir -p "$dir"
"$py" judge/grade/gradescope/make-zip.py "$t/autograder.zip" 02 --worktree || exit 1
"$py" - "$t" <<'PY' || exit 1
import os, sys, zipfile
t = sys.argv[1]
with zipfile.ZipFile(os.path.join(t, "autograder.zip")) as z:
    for zi in z.infolist():
        dest = os.path.join(t, "source", zi.filename)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(z.read(zi))
        os.chmod(dest, (zi.external_attr >> 16) & 0o777)
PY
[ "$(cat "$t/source/grade-labs.txt")" = 02 ] || no "grade-labs.txt says '$(cat "$t/source/grade-labs.txt")', not 02"
echo "check-grade-platforms: building the unpacked autograder (as setup.sh does, without apt-get)"
make -C "$t/source" -s -j"$jobs" grade-config GRADE_OUT="$t/source/build/grade" > "$dir/build.log" 2>&1 ||
  { tail -n 20 "$dir/build.log"; no "the autograder's workbook does not build"; exit 1; }
chmod -R go+rX "$t/source"
# FILE made a single file (the subject's local headers written in), as a learner's would be
single() { "$py" judge/grade/tests/make-class.py --single "judge/$1"; }
mkdir -p "$t/up/labs/lab02-sdpa" "$t/up/labs/lab03-mha" "$t/submission/mine"
single lab02/subjects/solution.c > "$t/up/labs/lab02-sdpa/sdpa.c" &&
  single lab03/subjects/solution.c > "$t/up/labs/lab03-mha/mha.c" &&
  (cd "$t/up" && "$py" -m zipfile -c "$t/submission/mine/labs.zip" labs) || exit 1
AUTOGRADER=$t sh "$t/source/run_autograder" > "$dir/gradescope.log" 2>&1 ||
  { cat "$dir/gradescope.log"; no "run_autograder failed"; }
cp "$t/results/results.json" "$dir/" 2> /dev/null
"$py" - "$t/results/results.json" <<'PY' || no "Gradescope's results.json is not Lab 02 alone, all passing"
import json, sys
j = json.load(open(sys.argv[1], encoding="utf-8"))
names = [x["name"] for x in j["tests"]]
ok = names and all(n.startswith("Lab 02: ") for n in names)
ok = ok and j["score"] == sum(x["max_score"] for x in j["tests"]) == sum(x["score"] for x in j["tests"]) > 0
ok = ok and "taken from `mine/labs.zip/labs/lab02-sdpa/sdpa.c`" in j["output"]
if not ok:
    print(json.dumps(j, indent=1)[:1500])
sys.exit(0 if ok else 1)
PY
[ ! -e "$t/work" ] || no "the autograder left its scratch folders"

# 2. GitHub Classroom
(cd "$t/source" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm template) ||
  { no "cannot make the learner's repository"; exit 1; }
single lab01/subjects/solution.c > "$t/source/labs/lab01-qkv/qkv.c" &&
  single lab02/subjects/m-sdpa-no-max.c > "$t/source/labs/lab02-sdpa/sdpa.c" || exit 1
# a file that does not compile: the catalogue must come from the template (the first commit)
echo 'this is not C' > "$t/source/labs/lab03-mha/mha.c"
(cd "$t/source" && git -c user.name=t -c user.email=t@t commit -qam "my labs") || no "cannot commit the learner's work"
: > "$t/gh-output"
: > "$t/gh-summary"
(cd "$t/source" && GITHUB_OUTPUT="$t/gh-output" GITHUB_STEP_SUMMARY="$t/gh-summary" GRADE_LABS='01 02 03' \
   GITHUB_REPOSITORY_OWNER=ana sh judge/grade/classroom.sh) > "$dir/classroom.log" 2>&1 ||
  { cat "$dir/classroom.log"; no "classroom.sh failed"; }
cp "$t/gh-output" "$t/gh-summary" "$dir/"
"$py" - "$t/gh-output" "$t/gh-summary" <<'PY' || no "the Classroom reporter's results are wrong"
import base64, json, sys
out = dict(l.split("=", 1) for l in open(sys.argv[1]).read().split("\n") if "=" in l)
summary = open(sys.argv[2]).read()
ok = out.get("runners") == "lab01,lab02,lab03"
total = maxi = 0
for r, want in (("lab01", "pass"), ("lab02", "fail"), ("lab03", "error")):
    j = json.loads(base64.b64decode(out.get(r, "")) or "{}")
    good = j.get("version") == 1 and j.get("status") == want and j.get("max_score", 0) > 0
    good = good and all(set(t) >= {"name", "status", "score"} for t in j.get("tests", []))
    scores = sum(t["score"] for t in j.get("tests", []))
    good = good and (scores == j["max_score"] if want == "pass" else 0 < scores < j["max_score"]
                     if want == "fail" else scores == 0)
    state = {"pass": "done", "fail": "failing", "error": "does not compile"}[want]
    row = "| %s | %d / %d | %s |" % (r[3:], scores, j.get("max_score", -1), state)
    if not good or row not in summary:
        print("check-grade-platforms: %s: %s; summary: %s" % (r, json.dumps(j)[:600], summary[:400]))
        ok = False
    total, maxi = total + scores, maxi + j.get("max_score", 0)
# the points the reporter gives: the tests' scores over the runners' max_score
ok = ok and 0 < total < maxi and "| **total** | **%d / %d** | |" % (total, maxi) in summary
sys.exit(0 if ok else 1)
PY
[ $fail -eq 0 ] && echo "check-grade-platforms: Gradescope's autograder graded Lab 02 alone from a zip inside the submission; classroom.sh gave the reporter lab01 (every point), lab02 (some) and lab03 (none, not C)"
exit $fail
