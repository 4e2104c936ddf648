#!/bin/sh
# check_function_length.sh MAX FILE... - every C function of FILEs is at
# most MAX lines long, from its first line to its closing brace
# (universal-ctags finds both); prints the longer ones and exits 1.
# check_function_length.sh --self-test MAX - a function of MAX + 1 lines is
# caught, one of MAX lines is not.
set -u
if [ "${1:-}" = --self-test ]; then
  max=$2; dir=$(mktemp -d) || exit 1; trap 'rm -rf "$dir"' EXIT
  body() { n=$1; echo "int f$n(void)"; echo "{"; i=3; while [ $i -lt "$n" ]; do echo "    (void)0;"; i=$((i + 1)); done; echo "}"; }
  body "$max" > "$dir/fits.c"; body $((max + 1)) > "$dir/long.c"
  sh "$0" "$max" "$dir/fits.c" > /dev/null || { echo "function length: a function of $max lines was refused"; exit 1; }
  sh "$0" "$max" "$dir/long.c" > /dev/null && { echo "function length: a function of $((max + 1)) lines passed"; exit 1; }
  exit 0
fi
max=$1; shift
command -v ctags > /dev/null && ctags --version 2> /dev/null | grep -q Universal ||
  { echo "function length: needs universal-ctags (make deps)"; exit 1; }
ctags --output-format=json --fields=+ne --kinds-C=f -o - "$@" | python3 -c '
import json, sys
limit = int(sys.argv[1])
long = [(t["end"] - t["line"] + 1, t["path"], t["line"], t["name"]) for t in map(json.loads, sys.stdin)
        if t.get("end") and t["end"] - t["line"] + 1 > limit]
for n, path, line, name in sorted(long, reverse=True):
    print("function length: %s:%d: %s is %d lines (at most %d)" % (path, line, name, n, limit))
sys.exit(1 if long else 0)' "$max"
