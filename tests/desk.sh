# desk.sh - sourced (from the workbook's top) by the tests that act as a
# learner: it copies the workbook's committed files into a directory of
# their own (its own build/, removed at the end), goes there, and defines
# fail, ok and has; NAME, set before, names the test in its lines.
set -u
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/repo" && git ls-files -z | xargs -0 cp -P --parents -t "$dir/repo" \
  || { echo "$NAME: FAIL  could not copy the workbook"; exit 1; }
cd "$dir/repo" || exit 1
fails=0
fail() { echo "$NAME: FAIL  $1"; fails=$((fails + 1)); }
ok() { echo "$NAME: ok    $1"; }
# has FILE TEXT - a fixed string is in FILE
has() { grep -qF -- "$2" "$1"; }
