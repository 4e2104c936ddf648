#!/bin/sh
# rename-ref.sh LIB LEARNER OUT FUNCTION... - the reference library LIB (one
# relocatable object) with FUNCTION... renamed ref_FUNCTION, and so is every
# other global symbol that the learner's object LEARNER defines too; the
# rest (mm_matmul, ...) stays shared with the learner. Writes OUT.
set -eu
lib=$1 learner=$2 out=$3
shift 3
defined() { nm --defined-only -g "$1" | awk '{ print $NF }' | sort -u; }
defined "$lib" > "$out.lib-syms"
defined "$learner" > "$out.learner-syms"
{
  for f in "$@"; do echo "$f"; done
  comm -12 "$out.lib-syms" "$out.learner-syms"
} | sort -u | awk '{ print $1, "ref_" $1 }' > "$out.syms"
objcopy --redefine-syms="$out.syms" "$lib" "$out"
rm -f "$out.lib-syms" "$out.learner-syms"
