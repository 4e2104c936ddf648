#!/bin/sh
# check-fast-curve.sh PROG DIR - fast-curve (figures/fast-curve.c) reads a
# file it did not write, the bench run kept in bench/results/curve.tsv: each
# way that file can be broken must stop it with its reason, naming the file
# and the line, and a sound two-row file must pass. DIR is scratch.
set -u
prog=$1 dir=$2
mkdir -p "$dir"
header='T	d_model	n_heads	ms_C	ms_C_OpenBLAS	ms_C_tiled	ms_C_OpenBLAS_tiled	ms_NumPy	ms_PyTorch'
row() { printf '%s\t64\t4\t%s\t2\t3\t4\t5\t6\n' "$1" "$2"; }
failed=0
# expect NAME REASON: the file $dir/NAME.tsv must stop the program, saying REASON
expect() {
    out=$(FAST_CURVE_TSV="$dir/$1.tsv" "$prog" --facts 2>&1 >/dev/null) && {
        echo "check-fast-curve: $1: the program passed; it must stop: $2"; failed=1; return; }
    case $out in
        *"$dir/$1.tsv:"*"$2"*) ;;
        *) echo "check-fast-curve: $1: expected '$2' with the file's name, got: $out"; failed=1 ;;
    esac
}
: > "$dir/empty.tsv"
printf '%s\n' "$header" | sed 's/\tms_NumPy//' > "$dir/no-column.tsv"
{ echo "$header"; row 16 1; row 32 abc; } > "$dir/not-a-number.tsv"
{ echo "$header"; row 16 1; row 32 0; } > "$dir/zero.tsv"
{ echo "$header"; row 32 1; row 16 1; } > "$dir/falling.tsv"
{ echo "$header"; row 16 1; } > "$dir/one-row.tsv"
{ echo "$header"; for t in $(seq 1 17); do row $((t * 16)) 1; done; } > "$dir/too-many.tsv"
{ echo "$header"; row 16 1; row 32 2; } > "$dir/sound.tsv"
expect missing "cannot be opened"
expect empty "empty"
expect no-column 'no column "ms_NumPy"'
expect not-a-number 'column "ms_C" is not a positive number'
expect zero 'column "ms_C" is not a positive number'
expect falling "T must rise"
expect one-row "fewer than two rows"
expect too-many "more rows than the figure draws"
facts=$(FAST_CURVE_TSV="$dir/sound.tsv" "$prog" --facts) \
  && echo "$facts" | grep -qx 'ms.c.T32=2' && echo "$facts" | grep -qx 'beats_peers_from.c=16' \
  || { echo "check-fast-curve: a sound two-row file must pass with its facts, got: $facts"; failed=1; }
[ $failed -eq 0 ] && echo "check-fast-curve: 8 broken curve files stop fast-curve with their reasons; a sound one passes"
exit $failed
