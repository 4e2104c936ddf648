#!/bin/sh
# classroom.sh - GitHub Classroom's grading step (.github/workflows/classroom.yml;
# judge/grade/README.md, GitHub Classroom): run as root at the top of a learner's
# repository, it runs make grade-one on labs/ (every lab, or GRADE_LABS) and gives
# the autograding reporter one runner per lab (lines labNN=BASE64 and
# runners=lab00,lab01,... of $GITHUB_OUTPUT), and the points per lab, a Markdown
# table, to $GITHUB_STEP_SUMMARY and stdout. The checks are counted on the
# repository's first commit (GRADE_SHIPPED=REV: another). Exit 0 when the
# grading ran, whatever the points; 1 when it could not run.
set -u
out=${GRADE_OUT:-build/classroom}
labs=${GRADE_LABS:-}
shipped=${GRADE_SHIPPED:-$(git rev-list --max-parents=0 HEAD 2> /dev/null | tail -n 1)}
make -s grade-one SUBMISSION=labs GRADE_FORMAT=classroom GRADE_OUT="$out" GRADE_LABS="$labs" \
  GRADE_SHIPPED="${shipped:-HEAD}" GRADE_ID="${GITHUB_REPOSITORY_OWNER:-learner}" ||
  { echo "classroom: the grading could not run (see above)" >&2; exit 1; }
runners=
for f in "$out"/classroom/lab*.json; do
  [ -f "$f" ] || continue
  id=$(basename "$f" .json)
  runners=${runners:+$runners,}$id
  [ -z "${GITHUB_OUTPUT:-}" ] || printf '%s=%s\n' "$id" "$(base64 -w 0 < "$f")" >> "$GITHUB_OUTPUT"
done
[ -n "$runners" ] || { echo "classroom: no lab was graded" >&2; exit 1; }
[ -z "${GITHUB_OUTPUT:-}" ] || printf 'runners=%s\n' "$runners" >> "$GITHUB_OUTPUT"
[ -z "${GITHUB_STEP_SUMMARY:-}" ] || cat "$out/summary.md" >> "$GITHUB_STEP_SUMMARY"
cat "$out/summary.md"
