#!/bin/sh
# strict.sh CMD [ARG...] - run CMD; fail if it fails OR writes anything on
# stderr (noweave, for one, exits 0 after an error).  stdout passes through.
err=$(mktemp) || exit 1
"$@" 2>"$err"
status=$?
if [ "$status" -ne 0 ] || [ -s "$err" ]; then
  echo "error: '$1' failed (exit status $status) or wrote to stderr:" >&2
  cat "$err" >&2
  rm -f "$err"
  exit 1
fi
rm -f "$err"
