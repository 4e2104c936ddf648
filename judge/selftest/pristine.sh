#!/bin/sh
# pristine.sh FILE MARK OUT - the learner's FILE as shipped, for the subject
# of a self-test that checks the untouched file ("every check pending").
#
# The file the learner edits is the only hand-kept copy of the skeleton (or
# the empty answers file), so the self-test must not read a copy that the
# learner has started. FILE counts as untouched while it holds MARK (the
# sign of an unstarted piece: `LAB_TODO();`, a `?` cell) at least as often
# as the committed version does: then OUT is FILE itself, and a maintainer's
# edit of the skeleton is tested as it is. Once the learner has started (MARK
# is rarer), OUT is the committed version (git show HEAD:FILE). Outside a git
# checkout OUT is FILE. OUT is rewritten only when its contents change; the
# choice is printed when it is not FILE itself.
set -eu
file=$1 mark=$2 out=$3
count() { grep -oF -- "$mark" | wc -l; }
mkdir -p "$(dirname "$out")"
tmp=$out.tmp
cp "$file" "$tmp"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1 &&
   git cat-file -e "HEAD:./$file" 2> /dev/null; then
  now=$(count < "$file")
  committed=$(git show "HEAD:./$file" | count)
  if [ "$now" -lt "$committed" ]; then
    git show "HEAD:./$file" > "$tmp"
    echo "  (self-test: $file has been started, so its untouched subject is the committed version)"
  fi
fi
if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
