#!/bin/sh
# leftovers.sh PATTERN - the pids of the processes whose command line
# matches PATTERN (pgrep -f) and whose working folder is inside this clone
# (the current folder): a self-test looks only at what it started, never at
# another clone's run on the same machine. A process whose folder cannot be
# read is counted, so that nothing escapes by hiding it.
here=$(pwd -P)
for pid in $(pgrep -f "$1"); do
  [ "$pid" = "$$" ] && continue
  cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || { [ -d "/proc/$pid" ] && echo "$pid"; continue; }
  case "$cwd/" in "$here"/*) echo "$pid";; esac
done
