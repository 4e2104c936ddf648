#!/bin/sh
# check_tangle.sh - both editions have the same chapters and tangle to the
# same files, and tangled/ is exactly what book/en tangles to: the working
# tree agrees with itself (make check-committed compares tangled/ with git).
# usage: check_tangle.sh WORKDIR   (run from the top of the repository)
set -u
work=$1
rm -rf "$work"; mkdir -p "$work"
status=0
(cd book/en && ls *.nw) > "$work/chapters.en"
(cd book/es && ls *.nw) > "$work/chapters.es"
if ! cmp -s "$work/chapters.en" "$work/chapters.es"; then
    echo "tangle: the editions have different chapters:"; diff "$work/chapters.en" "$work/chapters.es"
    status=1
fi
for ed in en es; do
    noroots book/$ed/*.nw | sed -n 's/^<<\(tangled\/[^ ]*\)>>$/\1/p' | sort > "$work/roots.$ed"
done
if ! cmp -s "$work/roots.en" "$work/roots.es"; then
    echo "tangle: the editions have different root chunks:"; diff "$work/roots.en" "$work/roots.es"
    status=1
fi
for ed in en es; do
    for root in $(cat "$work/roots.$ed"); do
        mkdir -p "$work/$ed/$(dirname "$root")"
        notangle -R"$root" book/$ed/*.nw > "$work/$ed/$root" || status=1
    done
done
if ! diff -r "$work/en" "$work/es" > "$work/editions.diff"; then
    echo "tangle: the English and Spanish editions tangle to different code:"
    head -20 "$work/editions.diff"; status=1
fi
if ! diff -r "$work/en/tangled" tangled > "$work/tangled.diff"; then
    echo "tangle: tangled/ is not what book/en tangles to (run 'make tangle'; never edit tangled/):"
    head -20 "$work/tangled.diff"; status=1
fi
# A tangled C line is read without the book around it: at most 80 columns.
wide=$(find "$work/en/tangled" -name '*.[ch]' -exec awk 'length($0) > 80 \
        { sub(".*/en/", "", FILENAME); print FILENAME ":" FNR ": " length($0) " columns" }' {} +)
if [ -n "$wide" ]; then
    echo "tangle: C lines over 80 columns (wrap them in the chapter, both editions):"
    echo "$wide" | head -10; status=1
fi
n=$(wc -l < "$work/roots.en")
[ $status -eq 0 ] && echo "tangle: $n files, both editions byte-identical, tangled/ in sync"
exit $status
